/**
 * What the program needs to declare its commands: option choices, defaults and argument parsers.
 * Only commander here, never @wolfpack/core, Ink or a command module: `wolfpack --help` loads this
 * file and nothing heavier (each command loads its own module when it runs).
 */
import { InvalidArgumentError } from 'commander';
import type { NjinIterateMode, ProjectSort as ServerProjectSort } from '@wolfpack/core';

/** core's PROJECT_SORTS, without loading core (the server sorts: the names must be its own). */
export const PROJECT_SORTS = ['newest', 'oldest', 'a-z', 'z-a', 'most-files', 'least-files'] as const satisfies readonly ServerProjectSort[];
export type ProjectSort = (typeof PROJECT_SORTS)[number];

/** The web page's four sorts (companion §2), as `--sort` names them. */
export const SHOWCASE_SORTS = ['newest', 'oldest', 'price-asc', 'price-desc'] as const;
export type ShowcaseSort = (typeof SHOWCASE_SORTS)[number];
/** The /showcase screen's page size (companion §9). */
export const SHOWCASE_PAGE_SIZE = 24;
/** The most GET /api/listings answers at once (listingsQuery). */
export const SHOWCASE_MAX_PAGE_SIZE = 100;

/** How many engine calls `wolfpack usage` lists without --limit. */
export const DEFAULT_USAGE_LIMIT = 10;
/** The most the server lists at once (billingHistoryQuery). */
export const MAX_USAGE_LIMIT = 100;

/** core's NJIN_ITERATE_MODES, without loading core's schemas (a unit test keeps the two equal). */
export const ITERATE_MODES = ['auto', 'single', 'consensus'] as const satisfies readonly NjinIterateMode[];

/** `--engines a,b`: keys separated by commas; blanks between commas are dropped. */
export function parseEngineList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((key) => key.trim()).filter((key) => key !== '')];
}

/** Parses a TCP port: a whole number from 0 (any free port) to 65535. */
export function parsePort(value: string): number | undefined {
  if (!/^\d{1,5}$/.test(value.trim())) return undefined;
  const port = Number(value);
  return port <= 65_535 ? port : undefined;
}

/**
 * `--cycles`: any whole number, negative too, so that core's schema words the range ("Run at
 * least 1 cycle") as the web form does.
 */
export function cycleCount(value: string): number {
  if (!/^-?\d{1,6}$/.test(value.trim())) throw new InvalidArgumentError('Use a whole number.');
  return Number(value);
}

/** `--max-cost`: cents, 0 (spend nothing) or more. */
export function costLimit(value: string): number {
  if (!/^\d{1,9}$/.test(value.trim())) throw new InvalidArgumentError('Use a whole number of cents, 0 or more.');
  return Number(value);
}

/** `--limit`: 1 to 100, as the server takes it. */
export function listingLimit(value: string): number {
  const limit = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= SHOWCASE_MAX_PAGE_SIZE)) throw new InvalidArgumentError(`Use a whole number from 1 to ${SHOWCASE_MAX_PAGE_SIZE}.`);
  return limit;
}

/** `projects ls --limit`: 1 or more (the CLI reads as many pages as it takes). */
export function projectLimit(value: string): number {
  const limit = /^\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(limit >= 1)) throw new InvalidArgumentError('Use a whole number from 1.');
  return limit;
}

/** `--page`: 1 or more. */
export function pageNumber(value: string): number {
  const page = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(page >= 1)) throw new InvalidArgumentError('Use a page number from 1.');
  return page;
}

/** `tokens create --expires`: a whole number of days (the server words the range), or never. */
export function tokenDays(value: string): number | 'never' {
  // Not null: commander stores an option parsed to null as ''.
  if (value.trim().toLowerCase() === 'never') return 'never';
  if (!/^-?\d{1,6}$/.test(value.trim())) throw new InvalidArgumentError('Use a whole number of days, or never.');
  return Number(value);
}

/** Largest version number the server takes (core's versionNumber). */
const MAX_VERSION = 2_147_483_647;

/** A project version, `VERSION` or `--version N`: 1 or more (the words of core's versionNumber). */
export function versionArgument(value: string): number {
  const version = /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(version >= 1)) throw new InvalidArgumentError('A version is a whole number, 1 or more.');
  if (version > MAX_VERSION) throw new InvalidArgumentError('No project has that many versions.');
  return version;
}

/** `diff`'s FROM: a version, or 0 for nothing (everything in TO is then added). */
export function fromVersionArgument(value: string): number {
  if (/^0+$/.test(value.trim())) return 0;
  try {
    return versionArgument(value);
  } catch {
    throw new InvalidArgumentError('Use a version number, or 0 for nothing.');
  }
}
