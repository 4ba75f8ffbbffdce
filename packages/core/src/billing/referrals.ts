/**
 * Referral arithmetic (companion §9 Referrals): rewards, their split up the referrer
 * chain, and how a reward's credit expires and decays over time. Pure functions of their inputs
 * (time is passed in), so property tests can drive them over any clock.
 */

/** $5 to the referrer when the referred user signs up. */
export const REFERRAL_SIGNUP_CENTS = 500;
/** $15 more when the referred user's first project build completes ($20 direct in all). */
export const REFERRAL_FIRST_BUILD_CENTS = 1500;
/** Share of a reward each generation up the chain receives: level 1 is the direct referrer. */
export const REFERRAL_LEVEL_PERCENTS = [100, 45, 20, 9, 4, 2, 1] as const;
export const REFERRAL_GENERATIONS = REFERRAL_LEVEL_PERCENTS.length;

/** A reward keeps its full value this long... */
export const REFERRAL_ACTIVE_DAYS = 90;
/** ...then stays usable through a grace period... */
export const REFERRAL_GRACE_DAYS = 30;
/** ...then loses this share of what remains every month (30 days). */
export const REFERRAL_DECAY_PERCENT = 10;
export const REFERRAL_DECAY_PERIOD_DAYS = 30;

const DAY_MS = 86_400_000;

export type ReferralEvent = 'signup' | 'first_build';

export function referralEventCents(event: ReferralEvent): number {
  return event === 'signup' ? REFERRAL_SIGNUP_CENTS : REFERRAL_FIRST_BUILD_CENTS;
}

export interface GenerationReward {
  /** 1 = the direct referrer. */
  level: number;
  cents: number;
}

/**
 * The reward for each generation of a chain of `chainLength` referrers, rounded down to whole
 * cents; generations whose share rounds to nothing are left out.
 */
export function splitReferralReward(amountCents: number, chainLength: number = REFERRAL_GENERATIONS): GenerationReward[] {
  const out: GenerationReward[] = [];
  const levels = Math.min(Math.max(0, Math.floor(chainLength)), REFERRAL_GENERATIONS);
  for (let i = 0; i < levels; i++) {
    const cents = Math.floor((Math.max(0, Math.floor(amountCents)) * REFERRAL_LEVEL_PERCENTS[i]!) / 100);
    if (cents > 0) out.push({ level: i + 1, cents });
  }
  return out;
}

export type RewardPhase = 'active' | 'grace' | 'decaying';

export interface RewardValue {
  phase: RewardPhase;
  /** What the reward is worth now, in whole cents. */
  valueCents: number;
  /** Months of decay applied so far. */
  decayMonths: number;
}

/**
 * What a reward granted at `grantedAt` is worth at `now`: full for 90 days, full through the 30-day
 * grace, then each completed 30-day month keeps 90 % of the remainder, rounded down.
 */
export function referralRewardValue(amountCents: number, grantedAt: Date, now: Date): RewardValue {
  const amount = Math.max(0, Math.floor(amountCents));
  const days = (now.getTime() - grantedAt.getTime()) / DAY_MS;
  if (days < REFERRAL_ACTIVE_DAYS) return { phase: 'active', valueCents: amount, decayMonths: 0 };
  const decayStart = REFERRAL_ACTIVE_DAYS + REFERRAL_GRACE_DAYS;
  if (days < decayStart) return { phase: 'grace', valueCents: amount, decayMonths: 0 };
  const months = Math.floor((days - decayStart) / REFERRAL_DECAY_PERIOD_DAYS);
  let value = amount;
  // After enough months the value reaches 0 and stays there; no need to loop further.
  for (let m = 0; m < months && value > 0; m++) value = Math.floor((value * (100 - REFERRAL_DECAY_PERCENT)) / 100);
  return { phase: 'decaying', valueCents: value, decayMonths: months };
}

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A referral code: "WP" + 6 uppercase letters or digits. `randomBytes` gives at least 6 bytes;
 * rejection sampling keeps every character equally likely.
 */
export function referralCodeFrom(randomBytes: (n: number) => Uint8Array): string {
  let code = 'WP';
  while (code.length < 8) {
    for (const byte of randomBytes(16)) {
      if (byte >= 252) continue; // 252 = 36 x 7: larger bytes would favour the first letters
      code += CODE_ALPHABET[byte % 36];
      if (code.length === 8) break;
    }
  }
  return code;
}

/** A referral code's form (companion §3 Referral): "WP" plus 6 uppercase letters or digits. */
export const REFERRAL_CODE_PATTERN = /^WP[A-Z0-9]{6}$/;

/** The code in `value` (any case, surrounding spaces ignored), or undefined when it is not of that form. */
export function normalizeReferralCode(value: string | null | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && REFERRAL_CODE_PATTERN.test(code) ? code : undefined;
}

/**
 * The sentence for a referral code that cannot be one (wrong characters or length), naming it (its
 * first 24 characters, and its length when longer) and the form a code has.
 */
export function malformedReferralCodeMessage(value: string): string {
  const chars = Array.from(value.trim());
  const shown = chars.length > 24 ? `"${chars.slice(0, 24).join('')}…" (${chars.length} characters)` : `"${chars.join('')}"`;
  return `The invitation code ${shown} is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.`;
}

/** The shareable link: the site's origin with ?ref=CODE. */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/?ref=${encodeURIComponent(code)}`;
}
