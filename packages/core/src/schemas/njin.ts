/**
 * The njin iteration-engine licence (companion §2 /njin, §3 Licence, §5, §7).
 */
import { z } from 'zod';
import { countLike, entityId, numberLike, timestamp } from './common.js';

export const NJIN_KEY_PREFIX = 'njin_';
/** $29 per month, unlimited iterations (companion §9). */
export const NJIN_MONTHLY_PRICE_CENTS = 2900;

export const njinApiKey = z
  .string('API key required')
  .trim()
  .min(1, 'Please enter your API key first')
  .max(200, 'API keys are at most 200 characters')
  .startsWith(NJIN_KEY_PREFIX, 'njin API keys start with njin_');

export const njinLicense = z.object({
  /** The newest key's masked prefix (njin_ab12…), or "" when the user has no key yet. */
  apiKey: z.string(),
  /** 'active' shows as Active; any other value as Inactive. */
  status: z.string(),
  usageCount: countLike,
  expiresAt: timestamp.nullable(),
  /**
   * Where the licence comes from: 'subscription' (paid through Stripe, cancellable on the page)
   * or 'operator' (granted with `wolfpack admin grant-licence`, nothing to pay or cancel).
   * Absent from older servers, which only sold licences.
   */
  source: z.enum(['subscription', 'operator']).optional(),
});
export type NjinLicense = z.infer<typeof njinLicense>;

/** GET /api/njin/license?userId= */
export const njinLicenseQuery = z.object({ userId: entityId });
export type NjinLicenseQuery = z.infer<typeof njinLicenseQuery>;

/** Null when the user holds no licence: the page then shows a purchase prompt. */
export const njinLicenseReply = z.object({ license: njinLicense.nullable() });
export type NjinLicenseReply = z.infer<typeof njinLicenseReply>;

/** POST /api/njin/validate */
export const njinValidateRequest = z.object({ apiKey: njinApiKey });
export type NjinValidateRequest = z.infer<typeof njinValidateRequest>;

export const njinValidateReply = z.object({
  valid: z.boolean(),
  usageCount: countLike.optional(),
  /** Why the key is not valid ('Invalid License' toast). */
  error: z.string().optional(),
});
export type NjinValidateReply = z.infer<typeof njinValidateReply>;

/** GET /api/njin/snippet?apiKey= */
export const njinSnippetQuery = z.object({ apiKey: njinApiKey });
export type NjinSnippetQuery = z.infer<typeof njinSnippetQuery>;

/** The spec does not show this reply's shape; this is the one Wolfpack's server answers. */
export const njinSnippetReply = z.object({
  /** Code to paste into a project, with the key filled in. */
  snippet: z.string(),
  language: z.string(),
});
export type NjinSnippetReply = z.infer<typeof njinSnippetReply>;

// ---------------------------------------------------------------------------------------------
// The iteration API: POST /api/njin/iterate (Authorization: Bearer njin_…), keys, subscription
// ---------------------------------------------------------------------------------------------

export const NJIN_ITERATE_MODES = ['auto', 'single', 'consensus'] as const;
export type NjinIterateMode = (typeof NJIN_ITERATE_MODES)[number];
export const NJIN_MAX_FILES = 200;
export const NJIN_MAX_TOTAL_BYTES = 2_000_000;

export const njinIterateRequest = z
  .object({
    files: z.record(z.string().trim().min(1, 'File paths cannot be empty').max(300, 'File paths are at most 300 characters'), z.string(), { error: 'files must be an object of path → content' }),
    instruction: z.string({ error: 'Say what to change in instruction' }).trim().min(1, 'Say what to change in instruction').max(20_000, 'The instruction must be at most 20000 characters'),
    mode: z.enum(NJIN_ITERATE_MODES, { error: 'mode must be auto, single or consensus' }).default('auto'),
  })
  .superRefine((value, ctx) => {
    const paths = Object.keys(value.files);
    if (paths.length === 0) ctx.addIssue({ code: 'custom', path: ['files'], message: 'Send at least one file in files' });
    if (paths.length > NJIN_MAX_FILES) ctx.addIssue({ code: 'custom', path: ['files'], message: `Send at most ${NJIN_MAX_FILES} files` });
    const bytes = paths.reduce((sum, path) => sum + Buffer.byteLength(value.files[path] ?? '', 'utf8'), 0);
    if (bytes > NJIN_MAX_TOTAL_BYTES) ctx.addIssue({ code: 'custom', path: ['files'], message: 'Files must total at most 2 MB' });
  });
export type NjinIterateRequest = z.infer<typeof njinIterateRequest>;
export type NjinIterateRequestInput = z.input<typeof njinIterateRequest>;

export const njinCheck = z.object({ check: z.string(), ok: z.boolean(), detail: z.string() });
export type NjinCheck = z.infer<typeof njinCheck>;

export const njinCandidate = z.object({
  /** A generic label ("Engine 1"), never a vendor, model or key. */
  engine: z.string(),
  passed: z.boolean(),
  failedChecks: z.array(z.string()),
});
export type NjinCandidate = z.infer<typeof njinCandidate>;

export const njinIterateReply = z.object({
  /** Unified diff of every changed file, relative to the files sent. */
  patch: z.string(),
  /** The changed (or added) files, whole. */
  files: z.record(z.string(), z.string()),
  consensusScore: numberLike.pipe(z.number().min(0).max(1)),
  /** Comma-separated generic engine labels that voted for the winner. */
  modelVotes: z.string(),
  checks: z.array(njinCheck),
  candidates: z.array(njinCandidate),
  /** 'single' or 'consensus': how the request was served. */
  mode: z.enum(['single', 'consensus']),
  usageCount: countLike,
});
export type NjinIterateReply = z.infer<typeof njinIterateReply>;

/** The 422 when no candidate passes: every candidate and why it failed. */
export const njinNoPassingReply = z.object({ error: z.string(), code: z.literal('UNPROCESSABLE'), candidates: z.array(njinCandidate) });

/** POST /api/njin/keys: the key, shown once. GET /api/njin/keys: the user's keys by prefix. */
export const njinKeyCreatedReply = z.object({ apiKey: z.string(), id: entityId, prefix: z.string(), createdAt: timestamp });
export const njinKeySummary = z.object({ id: entityId, prefix: z.string(), createdAt: timestamp, lastUsedAt: timestamp.nullable(), usageCount: countLike });
export const njinKeysReply = z.object({ keys: z.array(njinKeySummary) });
export type NjinKeySummary = z.infer<typeof njinKeySummary>;

/** POST /api/njin/subscribe → {checkoutUrl} (the billing checkoutReply); POST /api/njin/cancel → {license}. */
