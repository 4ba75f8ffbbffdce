import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REFERRAL_ACTIVE_DAYS,
  REFERRAL_DECAY_PERIOD_DAYS,
  REFERRAL_FIRST_BUILD_CENTS,
  REFERRAL_GENERATIONS,
  REFERRAL_GRACE_DAYS,
  REFERRAL_LEVEL_PERCENTS,
  REFERRAL_SIGNUP_CENTS,
  referralCodeFrom,
  referralEventCents,
  referralLink,
  referralRewardValue,
  splitReferralReward,
} from './referrals.js';

const DAY_MS = 86_400_000;
const DECAY_START_DAYS = REFERRAL_ACTIVE_DAYS + REFERRAL_GRACE_DAYS;
const amount = fc.integer({ min: 0, max: 10_000_000 });
const grantedAt = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true });
/** Milliseconds after the grant, up to ten years. */
const elapsed = fc.integer({ min: 0, max: 3650 * DAY_MS });

describe('referralEventCents', () => {
  it('pays $5 for a sign-up and $15 for a first build', () => {
    expect(referralEventCents('signup')).toBe(500);
    expect(referralEventCents('first_build')).toBe(1500);
  });
});

describe('splitReferralReward', () => {
  it('pays the spec figures for sign-up and first build over seven generations', () => {
    expect(splitReferralReward(REFERRAL_SIGNUP_CENTS).map((g) => g.cents)).toEqual([500, 225, 100, 45, 20, 10, 5]);
    expect(splitReferralReward(REFERRAL_FIRST_BUILD_CENTS).map((g) => g.cents)).toEqual([1500, 675, 300, 135, 60, 30, 15]);
    expect(splitReferralReward(REFERRAL_SIGNUP_CENTS, 3).map((g) => g.level)).toEqual([1, 2, 3]);
    expect(splitReferralReward(REFERRAL_SIGNUP_CENTS, 0)).toEqual([]);
  });

  it('gives each level floor(amount x percent / 100), never more than the amount in all (property)', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: -3, max: 12 }), (cents, chain) => {
        const split = splitReferralReward(cents, chain);
        const levels = Math.min(Math.max(0, chain), REFERRAL_GENERATIONS);
        // Every level of the chain is there unless its share rounds to nothing; in order; no others.
        const expected = REFERRAL_LEVEL_PERCENTS.slice(0, levels)
          .map((pct, i) => ({ level: i + 1, cents: Math.floor((cents * pct) / 100) }))
          .filter((g) => g.cents > 0);
        expect(split).toEqual(expected);
        // The direct referrer's share is the whole amount, so all levels together exceed it only
        // by the upper generations' shares; the upper generations alone stay below it.
        const upper = split.filter((g) => g.level > 1).reduce((sum, g) => sum + g.cents, 0);
        expect(upper).toBeLessThanOrEqual(cents);
        for (const g of split) expect(g.cents).toBeLessThanOrEqual(cents);
      }),
    );
  });

  it('never pays any level more than the amount, and rounding only ever goes down (property)', () => {
    fc.assert(
      fc.property(amount, (cents) => {
        for (const g of splitReferralReward(cents)) {
          const exact = (cents * REFERRAL_LEVEL_PERCENTS[g.level - 1]!) / 100;
          expect(g.cents).toBeLessThanOrEqual(exact);
          expect(exact - g.cents).toBeLessThan(1);
          expect(Number.isInteger(g.cents)).toBe(true);
        }
      }),
    );
  });
});

describe('referralRewardValue', () => {
  it('keeps the full value before 120 days (active, then grace)', () => {
    fc.assert(
      fc.property(amount, grantedAt, fc.integer({ min: 0, max: DECAY_START_DAYS * DAY_MS - 1 }), (cents, at, ms) => {
        const value = referralRewardValue(cents, at, new Date(at.getTime() + ms));
        expect(value.valueCents).toBe(cents);
        expect(value.decayMonths).toBe(0);
        expect(value.phase).toBe(ms < REFERRAL_ACTIVE_DAYS * DAY_MS ? 'active' : 'grace');
      }),
    );
  });

  it('after 120 days equals the 90 % floor iterated once per completed 30-day month (property)', () => {
    fc.assert(
      fc.property(amount, grantedAt, fc.integer({ min: DECAY_START_DAYS * DAY_MS, max: 3650 * DAY_MS }), (cents, at, ms) => {
        const value = referralRewardValue(cents, at, new Date(at.getTime() + ms));
        const months = Math.floor((ms / DAY_MS - DECAY_START_DAYS) / REFERRAL_DECAY_PERIOD_DAYS);
        let expected = cents;
        for (let m = 0; m < months; m++) expected = Math.floor((expected * 90) / 100);
        expect(value).toEqual({ phase: 'decaying', valueCents: expected, decayMonths: months });
      }),
    );
  });

  it('never increases as time passes and stays between 0 and the amount (property)', () => {
    fc.assert(
      fc.property(amount, grantedAt, elapsed, elapsed, (cents, at, a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        const before = referralRewardValue(cents, at, new Date(at.getTime() + early)).valueCents;
        const after = referralRewardValue(cents, at, new Date(at.getTime() + late)).valueCents;
        expect(after).toBeLessThanOrEqual(before);
        expect(after).toBeGreaterThanOrEqual(0);
        expect(before).toBeLessThanOrEqual(cents);
      }),
    );
  });

  it('turns from active to grace on day 90 and starts decaying on day 120, to the millisecond', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const after = (ms: number) => referralRewardValue(500, at, new Date(at.getTime() + ms));
    expect(after(90 * DAY_MS - 1).phase).toBe('active');
    expect(after(90 * DAY_MS)).toEqual({ phase: 'grace', valueCents: 500, decayMonths: 0 });
    expect(after(120 * DAY_MS - 1).phase).toBe('grace');
    // Decaying, but no month of it has passed yet.
    expect(after(120 * DAY_MS)).toEqual({ phase: 'decaying', valueCents: 500, decayMonths: 0 });
  });

  it('decays $5 by 10 % a month from day 150', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const day = (d: number) => new Date(at.getTime() + d * DAY_MS);
    expect(referralRewardValue(500, at, day(149)).valueCents).toBe(500);
    expect(referralRewardValue(500, at, day(150)).valueCents).toBe(450);
    expect(referralRewardValue(500, at, day(180)).valueCents).toBe(405);
    expect(referralRewardValue(500, at, day(300)).valueCents).toBe(264);
  });
});

describe('referralCodeFrom', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  /** A byte source that hands out the given chunks, then zeros (so it always ends). */
  const source = (chunks: Uint8Array[]) => {
    let next = 0;
    return (n: number) => chunks[next++] ?? new Uint8Array(n);
  };

  it('is "WP" + 6 of A-Z0-9 for any random bytes, taking bytes below 252 in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 16, maxLength: 16 }), { maxLength: 8 }), (chunks) => {
        const code = referralCodeFrom(source(chunks));
        expect(code).toMatch(/^WP[A-Z0-9]{6}$/);
        const usable = [...chunks.flatMap((c) => [...c]), ...new Array<number>(6).fill(0)].filter((b) => b < 252);
        expect(code.slice(2)).toBe(usable.slice(0, 6).map((b) => ALPHABET[b % 36]).join(''));
      }),
    );
  });

  it('works with real randomness', () => {
    for (let i = 0; i < 200; i++) expect(referralCodeFrom((n) => crypto.getRandomValues(new Uint8Array(n)))).toMatch(/^WP[A-Z0-9]{6}$/);
  });
});

describe('referralLink', () => {
  it('is the origin with ?ref=CODE, whatever trailing slashes', () => {
    expect(referralLink('https://wolfpack.example/', 'WPAB12CD')).toBe('https://wolfpack.example/?ref=WPAB12CD');
    expect(referralLink('http://localhost:3000', 'WPAB12CD')).toBe('http://localhost:3000/?ref=WPAB12CD');
    expect(referralLink('https://wolfpack.example///', 'WPAB12CD')).toBe('https://wolfpack.example/?ref=WPAB12CD');
  });
});

describe('referral code form', () => {
  it('takes "WP" plus 6 letters or digits in any case, and names anything else as malformed', async () => {
    const { normalizeReferralCode, malformedReferralCodeMessage } = await import('./referrals.js');
    expect(normalizeReferralCode(' wp4k7q2z ')).toBe('WP4K7Q2Z');
    for (const bad of ['WP4K7Q2', 'WP4K7Q2ZZ', 'XX4K7Q2Z', 'WP-K7Q2Z', 'WP🙂🙂🙂', '', null, undefined]) expect(normalizeReferralCode(bad)).toBeUndefined();
    expect(malformedReferralCodeMessage('WP🙂')).toBe('The invitation code "WP🙂" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.');
    expect(malformedReferralCodeMessage('A'.repeat(300))).toBe(`The invitation code "${'A'.repeat(24)}…" (300 characters) is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.`);
  });
});
