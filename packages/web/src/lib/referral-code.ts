/**
 * The referral code a visitor arrives with: a link `{origin}/?ref=WPXXXXXX` on any page
 * is remembered in the browser and sent as `referralCode` when the visitor creates an account.
 */
import { normalizeReferralCode } from '@wolfpack/core';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

export { normalizeReferralCode };

/**
 * The referral code of a query string. `?ref=qr` marks a QR visit (Learn More) and is not a code,
 * so only values of the code's shape count.
 */
export function referralCodeFromSearch(search: string): string | undefined {
  return normalizeReferralCode(new URLSearchParams(search).get('ref'));
}

/** A `?ref=` value that is meant as a code but cannot be one (not `qr`, not empty), else undefined. */
export function malformedReferralFromSearch(search: string): string | undefined {
  const raw = new URLSearchParams(search).get('ref')?.trim();
  if (!raw || raw.toLowerCase() === 'qr' || normalizeReferralCode(raw)) return undefined;
  return raw;
}

/** The malformed code of the last `?ref=` link followed, so the sign-up form can say why nobody is credited. */
export const malformedReferralStore = createStoredValue<string | null>(
  STORAGE_KEYS.malformedReferralCode,
  (raw) => raw || null,
  (value) => value ?? '',
);

/** The code this browser arrived with; null when none. */
export const referrerCodeStore = createStoredValue<string | null>(
  STORAGE_KEYS.referrerCode,
  (raw) => normalizeReferralCode(raw) ?? null,
  (code) => code ?? '',
);

/** Remembers the code of `search`, if it carries one; the newest link followed wins. */
export function rememberReferralCode(
  search: string,
  store: Pick<typeof referrerCodeStore, 'get' | 'set'> = referrerCodeStore,
  malformed: Pick<typeof malformedReferralStore, 'get' | 'set'> = malformedReferralStore,
): void {
  const code = referralCodeFromSearch(search);
  if (code) {
    if (store.get() !== code) store.set(code);
    if (malformed.get() !== null) malformed.set(null);
    return;
  }
  // Kept short: a link may carry anything, and only its start is shown.
  const bad = malformedReferralFromSearch(search)?.slice(0, 400);
  if (bad !== undefined && malformed.get() !== bad) malformed.set(bad);
}
