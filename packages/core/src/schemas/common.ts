/**
 * Building blocks shared by the payload schemas of every area. Kept apart from the area files so
 * that each of them can import these without importing another area.
 */
import { z } from 'zod';

/** A record id as it travels in JSON and URLs (UUIDs today; kept opaque for clients). */
export const entityId = z.string().trim().min(1, 'An id is required').max(128, 'An id must be at most 128 characters');

/** A point in time as an ISO 8601 string. Clients tolerate unparseable values (spec: 'recently'). */
export const timestamp = z.string();

const NUMERIC_STRING = /^-?\d+(\.\d+)?$/;

/**
 * A number that may arrive as a JSON number or as a numeric string: PostgreSQL sums, bigints and
 * numerics come back from drivers as strings (companion §3: "Numeric values arrive as strings").
 * The parsed value is always a number.
 */
export const numberLike = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(NUMERIC_STRING, 'Expected a number')
    .transform((value) => Number(value)),
]);

/** {@link numberLike} that must be a whole number of at least zero (counts, cents, milliseconds). */
export const countLike = numberLike.pipe(z.number().int('Expected a whole number').nonnegative('Expected zero or more'));

/** Money: always whole cents (spec: every field ending in Cents), never negative. */
export const cents = countLike;

/** Whole cents that may be negative (profit, balance after a correction). */
export const signedCents = numberLike.pipe(z.number().int('Expected a whole number of cents'));

/**
 * A boolean that may arrive as the string "true" or "false" (companion §3: capsule isPublic).
 * The parsed value is always a boolean.
 */
export const booleanLike = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);

const VERSION_WORDS = 'A version is a whole number, 1 or more';
const MAX_VERSION = 2_147_483_647;

/** A project's version as a JSON number: 1, 2, 3… (text such as "3" is refused). */
export const jsonVersionNumber = z
  .number({ error: VERSION_WORDS })
  .int(VERSION_WORDS)
  .min(1, VERSION_WORDS)
  .max(MAX_VERSION, 'No project has that many versions');

/** A project's version in a URL or a body: {@link jsonVersionNumber}, text such as "3" too. */
export const versionNumber = z.coerce.number({ error: VERSION_WORDS }).pipe(jsonVersionNumber);
