import { z } from 'zod';

/**
 * Named personal access tokens for scripts and CI (Settings → API tokens, `wolfpack tokens`).
 * A token is shown once, when it is created; the server keeps only its SHA-256.
 */

/** The longest a token may live; "never" is also allowed. */
export const MAX_TOKEN_DAYS = 365;

export const apiTokenName = z
  .string()
  .trim()
  .min(1, 'Give the token a name, such as "github-actions".')
  .max(100, 'A token name is at most 100 characters.');

/** POST /api/tokens: a new token for the signed-in user; `expiresInDays` null or left out: never expires. */
export const newApiTokenRequest = z.object({
  name: apiTokenName,
  expiresInDays: z
    .number()
    .int('Expiry is a whole number of days.')
    .min(1, `Expiry is 1 to ${MAX_TOKEN_DAYS} days, or none.`)
    .max(MAX_TOKEN_DAYS, `Expiry is 1 to ${MAX_TOKEN_DAYS} days, or none.`)
    .nullable()
    .optional(),
});
export type NewApiTokenRequest = z.input<typeof newApiTokenRequest>;

/** One token as lists show it: never the token itself. Dates are ISO strings. */
export const apiTokenSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** True for the token this request was made with. */
  current: z.boolean(),
});
export type ApiTokenSummary = z.infer<typeof apiTokenSummary>;

/** GET /api/tokens: the live and expired tokens, newest first; revoked ones are gone. */
export const apiTokensReply = z.object({ tokens: z.array(apiTokenSummary) });
export type ApiTokensReply = z.infer<typeof apiTokensReply>;

/** POST /api/tokens 201: the token, this once. */
export const newApiTokenReply = z.object({ token: z.string(), apiToken: apiTokenSummary });
export type NewApiTokenReply = z.infer<typeof newApiTokenReply>;

/** Why a Bearer token was refused, each with its own sentence. */
export type TokenRefusal = 'unknown' | 'revoked' | 'expired';

const NEW_TOKEN_HINT = 'Create a new one under API tokens in Settings, or run `wolfpack login` again.';

export function tokenRefusalMessage(refusal: TokenRefusal, expiredAt?: Date): string {
  if (refusal === 'revoked') return `The API token was revoked. ${NEW_TOKEN_HINT}`;
  if (refusal === 'expired') return `The API token expired${expiredAt ? ` on ${expiredAt.toISOString().slice(0, 10)}` : ''}. ${NEW_TOKEN_HINT}`;
  return `The API token is unknown to this server: check that it was copied whole and belongs to this server. ${NEW_TOKEN_HINT}`;
}

/** Whether a token is past its expiry at `now`. */
export function tokenExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
