/**
 * How an iteration is served: one engine, or several that propose concurrently and vote. Light
 * requests do not need consensus: its extra engine calls cost more than a second opinion on a small
 * change is worth, and one engine answers them faster.
 */
import type { NjinIterateMode } from '../schemas/njin.js';

export type IterationMode = 'single' | 'consensus';

/** `auto` serves a request with one engine when its files total at most this many UTF-8 bytes… */
export const LIGHT_MAX_TOTAL_BYTES = 8 * 1024;
/** …and it sends at most this many files… */
export const LIGHT_MAX_FILES = 3;
/** …and its instruction is at most this many characters. Anything heavier goes to consensus. */
export const LIGHT_MAX_INSTRUCTION_CHARS = 500;

/** Engines that propose in consensus mode when the caller does not say. */
export const DEFAULT_MAX_CANDIDATES = 3;

const encoder = new TextEncoder();

/** Whether a request is light enough for one engine (see the LIGHT_* constants). */
export function isLightRequest(files: Readonly<Record<string, string>>, instruction: string): boolean {
  const paths = Object.keys(files);
  if (paths.length > LIGHT_MAX_FILES || instruction.length > LIGHT_MAX_INSTRUCTION_CHARS) return false;
  let bytes = 0;
  for (const path of paths) bytes += encoder.encode(files[path] ?? '').length;
  return bytes <= LIGHT_MAX_TOTAL_BYTES;
}

/** The mode a request is served in: `single` and `consensus` as asked, `auto` by weight. */
export function chooseIterationMode(files: Readonly<Record<string, string>>, instruction: string, mode: NjinIterateMode = 'auto'): IterationMode {
  if (mode !== 'auto') return mode;
  return isLightRequest(files, instruction) ? 'single' : 'consensus';
}
