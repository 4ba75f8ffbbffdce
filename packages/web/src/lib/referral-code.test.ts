import { describe, expect, it } from 'vitest';
import { malformedReferralFromSearch, normalizeReferralCode, referralCodeFromSearch, rememberReferralCode } from './referral-code';

describe('referral codes from the URL', () => {
  it('takes ?ref=WPXXXXXX in any case and ignores other values', () => {
    expect(referralCodeFromSearch('?ref=WPAB12CD')).toBe('WPAB12CD');
    expect(referralCodeFromSearch('?source=x&ref=wpab12cd')).toBe('WPAB12CD');
    expect(referralCodeFromSearch('?ref=qr')).toBeUndefined();
    expect(referralCodeFromSearch('?ref=WPAB12C')).toBeUndefined();
    expect(referralCodeFromSearch('?ref=WPAB12CDE')).toBeUndefined();
    expect(referralCodeFromSearch('?ref=XXAB12CD')).toBeUndefined();
    expect(referralCodeFromSearch('')).toBeUndefined();
    expect(normalizeReferralCode('  wp0000zz ')).toBe('WP0000ZZ');
  });

  it('remembers the newest code followed and keeps it across pages without one', () => {
    let stored: string | null = null;
    const writes: string[] = [];
    const store = { get: () => stored, set: (code: string | null) => void (stored = code, writes.push(String(code))) };
    rememberReferralCode('?ref=WPAAAAAA', store);
    rememberReferralCode('', store);
    rememberReferralCode('?ref=qr', store);
    expect(stored).toBe('WPAAAAAA');
    rememberReferralCode('?ref=WPAAAAAA', store);
    rememberReferralCode('?ref=WPBBBBBB', store);
    expect(stored).toBe('WPBBBBBB');
    expect(writes).toEqual(['WPAAAAAA', 'WPBBBBBB']);
  });
});

describe('malformed referral links', () => {
  it('keeps what a link meant as a code but cannot be one, and forgets it for a well-formed one', () => {
    let stored: string | null = null;
    let malformed: string | null = null;
    const store = { get: () => stored, set: (code: string | null) => void (stored = code) };
    const bad = { get: () => malformed, set: (value: string | null) => void (malformed = value) };
    rememberReferralCode('?ref=qr', store, bad);
    rememberReferralCode('?ref=', store, bad);
    expect(malformed).toBeNull();
    rememberReferralCode(`?ref=${encodeURIComponent('WP🙂🙂')}`, store, bad);
    expect(malformed).toBe('WP🙂🙂');
    rememberReferralCode(`?ref=${'W'.repeat(1000)}`, store, bad);
    expect(malformed).toBe('W'.repeat(400));
    rememberReferralCode('?ref=WPAB12CD', store, bad);
    expect(stored).toBe('WPAB12CD');
    expect(malformed).toBeNull();
    expect(malformedReferralFromSearch('?ref=WPAB12CD')).toBeUndefined();
    expect(malformedReferralFromSearch('?ref=QR')).toBeUndefined();
  });
});
