/**
 * The referral code a visitor arrives with (issue 8): a link `{origin}/?ref=WPXXXXXX` on any page
 * is remembered in the browser and sent as `referralCode` when the visitor creates an account.
 */
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

/** "WP" plus 6 uppercase letters or digits (companion §3 Referral). */
const CODE = /^WP[A-Z0-9]{6}$/;

/** The code in `value` (any case, surrounding spaces ignored), or undefined when it is not one. */
export function normalizeReferralCode(value: string | null | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && CODE.test(code) ? code : undefined;
}

/**
 * The referral code of a query string. `?ref=qr` marks a QR visit (Learn More) and is not a code,
 * so only values of the code's shape count.
 */
export function referralCodeFromSearch(search: string): string | undefined {
  return normalizeReferralCode(new URLSearchParams(search).get('ref'));
}

/** The code this browser arrived with; null when none. */
export const referrerCodeStore = createStoredValue<string | null>(
  STORAGE_KEYS.referrerCode,
  (raw) => normalizeReferralCode(raw) ?? null,
  (code) => code ?? '',
);

/** Remembers the code of `search`, if it carries one; the newest link followed wins. */
export function rememberReferralCode(search: string, store: Pick<typeof referrerCodeStore, 'get' | 'set'> = referrerCodeStore): void {
  const code = referralCodeFromSearch(search);
  if (code && store.get() !== code) store.set(code);
}
