/**
 * The referral figures the Pack Perks page explains, computed with core's own rules (companion
 * §9 Referrals), so the page can never promise other amounts than the server pays.
 */
import { REFERRAL_FIRST_BUILD_CENTS, REFERRAL_LEVEL_PERCENTS, REFERRAL_SIGNUP_CENTS, splitReferralReward } from '@wolfpack/core';

/** What one direct referral pays: sign-up plus first build ($20). */
export function directReferralCents(): number {
  return REFERRAL_SIGNUP_CENTS + REFERRAL_FIRST_BUILD_CENTS;
}

export interface GenerationReward {
  level: number;
  percent: number;
  /** What one person at this generation who signs up and builds pays to you. */
  cents: number;
}

/**
 * Each generation's share of one referral that signs up and builds. The two rewards are split
 * separately (each rounded down to whole cents), as the server does.
 */
export function generationRewards(): GenerationReward[] {
  const signup = splitReferralReward(REFERRAL_SIGNUP_CENTS);
  const build = splitReferralReward(REFERRAL_FIRST_BUILD_CENTS);
  return REFERRAL_LEVEL_PERCENTS.map((percent, index) => {
    const level = index + 1;
    const cents = (signup.find((r) => r.level === level)?.cents ?? 0) + (build.find((r) => r.level === level)?.cents ?? 0);
    return { level, percent, cents };
  });
}

export interface WorkedExampleStep {
  who: string;
  text: string;
  youCents: number;
}

/** Sam joins through you, Sam invites Alex, Alex invites Kim; each signs up and builds. */
export function workedExample(): { steps: WorkedExampleStep[]; totalCents: number } {
  const rewards = generationRewards();
  const at = (level: number) => rewards[level - 1]?.cents ?? 0;
  const direct = directReferralCents();
  const steps: WorkedExampleStep[] = [
    {
      who: 'Sam',
      text: `Sam signs up with your link and builds a first project: ${formatDollars(REFERRAL_SIGNUP_CENTS)} + ${formatDollars(REFERRAL_FIRST_BUILD_CENTS)}.`,
      youCents: at(1),
    },
    {
      who: 'Alex',
      text: `Sam invites Alex, who signs up and builds. Sam gets ${formatDollars(direct)}; you get ${REFERRAL_LEVEL_PERCENTS[1]}% of it.`,
      youCents: at(2),
    },
    {
      who: 'Kim',
      text: `Alex invites Kim, who does the same. Alex gets ${formatDollars(direct)}, Sam ${formatDollars(at(2))}; you get ${REFERRAL_LEVEL_PERCENTS[2]}%.`,
      youCents: at(3),
    },
  ];
  return { steps, totalCents: steps.reduce((sum, step) => sum + step.youCents, 0) };
}

/** "$5", "$1.80": whole dollars without cents. */
function formatDollars(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}
