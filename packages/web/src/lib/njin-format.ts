/**
 * The words and figures of the /njin page (companion §2, §4 Licence, §5, §8): pure, so the
 * spec's messages are tested without a browser.
 */
import { NJIN_KEY_PREFIX, NJIN_MONTHLY_PRICE_CENTS, njinKeyProblem } from '@wolfpack/core';
import { httpErrorParts, serverErrorText } from '../api/client';

/** A toast's title and description. */
export interface NjinMessage {
  title: string;
  description: string;
}

/** Both buttons of the Setup tab ask for a key first (companion §5). */
export const KEY_REQUIRED: NjinMessage = { title: 'API key required', description: 'Please enter your API key first' };

export const LICENSE_LOAD_FAILED = 'Failed to load license information. Please refresh the page.';

/** "$29" (companion §9: $29 per month, unlimited iterations). */
export const NJIN_PRICE_TEXT = `$${NJIN_MONTHLY_PRICE_CENTS / 100}`;

export function njinLicenseUrl(userId: string): string {
  return `/api/njin/license?userId=${encodeURIComponent(userId)}`;
}

export function njinSnippetUrl(apiKey: string): string {
  return `/api/njin/snippet?apiKey=${encodeURIComponent(apiKey)}`;
}

/** The key as typed, without the spaces a paste brings along; '' when none. */
export function typedKey(value: string): string {
  return value.trim();
}

/** Companion §4 Licence: Active when status is active, otherwise Inactive. */
export function licenseStatusLabel(status: string | undefined | null): 'Active' | 'Inactive' {
  return status === 'active' ? 'Active' : 'Inactive';
}

/** The server's own sentence after the spec's words, when it sent one. */
function withReason(text: string, error: unknown): string {
  const reason = serverErrorText(error);
  return reason ? `${text}. ${reason}` : text;
}

/** Validate failed: a non-ok answer carries its status, anything else is the request failing. */
export function validateFailure(error: unknown): NjinMessage {
  const parts = httpErrorParts(error);
  return {
    title: 'Validation Failed',
    description: parts ? withReason(`Validation failed with status ${parts.status}`, error) : 'Validation request failed',
  };
}

/**
 * A mistyped key, found before Validate asks the server: the same core check (shape and checksum)
 * the server's snippet answer applies, so Validate and Copy Snippet name the typo alike instead
 * of Validate calling it a missing licence. A key without the njin_ prefix is left to the
 * server, whose 400 the spec words report (companion §8).
 */
export function validateKeyProblem(key: string): NjinMessage | null {
  const problem = key.startsWith(NJIN_KEY_PREFIX) ? njinKeyProblem(key) : null;
  return problem ? { title: 'Validation Failed', description: problem } : null;
}

/**
 * What an operator runs to grant a licence without payments (the server's admin CLI). The
 * signed-in user's name fills USER when it can be pasted into a shell as it is.
 */
export function njinGrantCommand(username?: string | null): string {
  const user = username && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(username) ? username : 'USER';
  return `wolfpack admin grant-licence ${user} --until DATE`;
}

/** What Validate's answer depends on besides the reply. */
export interface ValidateContext {
  /** From GET /api/billing/packs; undefined while unknown. */
  paymentsConfigured?: boolean | undefined;
  /** The signed-in user, for the operator's command. */
  username?: string | null | undefined;
}

/**
 * Validate answered: an invalid key (the spec's "Invalid License", with why and what to do), or
 * a valid one with its usage. On a server that cannot take payments, subscribing is no way out:
 * the operator grants licences there.
 */
export function validateOutcome(
  reply: { valid: boolean; usageCount?: number | undefined; error?: string | undefined },
  context: ValidateContext = {},
): NjinMessage & { ok: boolean } {
  if (!reply.valid) {
    if (reply.error && reply.error !== 'Invalid License') return { ok: false, title: 'Invalid License', description: reply.error };
    const reason =
      context.paymentsConfigured === false
        ? `This key has no active licence. Licences cannot be bought on this server (payments are not configured): ask its operator to grant you one with ${njinGrantCommand(context.username)}.`
        : 'This key has no active licence. Check the key, or subscribe on the Usage & Stats tab.';
    return { ok: false, title: 'Invalid License', description: reason };
  }
  return { ok: true, title: 'Licence Valid', description: `Your licence is active: ${iterationsText(reply.usageCount ?? 0)} so far.` };
}

/** Copy Snippet failed: a non-ok answer says its status, a thrown error its message. */
export function snippetFailure(error: unknown): NjinMessage {
  const parts = httpErrorParts(error);
  if (parts) return { title: 'Failed to generate snippet', description: withReason(`Request failed with status ${parts.status}`, error) };
  const message = error instanceof Error && error.message ? error.message : 'Unknown error';
  return { title: 'Failed to generate snippet', description: `Failed to fetch snippet: ${message}` };
}

/** "1 iteration", "1,204 iterations". */
export function iterationsText(count: number): string {
  return `${count.toLocaleString('en-US')} iteration${count === 1 ? '' : 's'}`;
}

/** The expiry as 'Dec 1, 2026'; 'No expiry' without one; the raw text when it cannot be read. */
export function formatExpiry(expiresAt: string | null | undefined): string {
  if (!expiresAt) return 'No expiry';
  const date = new Date(expiresAt);
  if (Number.isNaN(date.getTime())) return expiresAt;
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** A day as '31 Jan 2027' (UTC, the day a granted licence runs through); the raw text when unreadable. */
export function formatGrantDay(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** What the page says of a licence the operator granted: who granted it and until when. */
export function grantedLicenceText(expiresAt: string | null | undefined): string {
  return expiresAt ? `Licence granted by the operator until ${formatGrantDay(expiresAt)}` : 'Licence granted by the operator, with no end date';
}

/** A key's usage line in the list: '12 iterations · last used Nov 3, 2026' or '· never used'. */
export function keyUsageText(usageCount: number, lastUsedAt: string | null): string {
  return `${iterationsText(usageCount)} · ${lastUsedAt ? `last used ${formatExpiry(lastUsedAt)}` : 'never used'}`;
}

/** Subscribe failed: the server's sentence, or the generic one. */
export function subscribeFailure(error: unknown): NjinMessage {
  return { title: 'Subscription Failed', description: serverErrorText(error) ?? 'Failed to start checkout' };
}
