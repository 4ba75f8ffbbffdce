/**
 * The njin iteration-engine licence (companion §2 /njin, §3 Licence, §5, §7).
 */
import { z } from 'zod';
import { countLike, entityId, timestamp } from './common.js';

export const NJIN_KEY_PREFIX = 'njin_';
/** $29 per month, unlimited iterations (companion §9). */
export const NJIN_MONTHLY_PRICE_CENTS = 2900;

export const njinApiKey = z
  .string()
  .trim()
  .min(1, 'Please enter your API key first')
  .max(200, 'API keys are at most 200 characters')
  .startsWith(NJIN_KEY_PREFIX, 'njin API keys start with njin_');

export const njinLicense = z.object({
  apiKey: njinApiKey,
  /** 'active' shows as Active; any other value as Inactive. */
  status: z.string(),
  usageCount: countLike,
  expiresAt: timestamp.nullable(),
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
