import { formatCents, REFERRAL_FIRST_BUILD_CENTS, REFERRAL_SIGNUP_CENTS, type ReferralStatsReply } from '@wolfpack/core';
import { BadgeCheck } from 'lucide-react';

/** Dollars as the page writes money ("$2.50"). */
const money = (dollars: number) => formatCents(Math.round(dollars * 100));

/**
 * When each referral reward is paid: only for friends who show they use Wolfpack for
 * real, and up to the operator's daily cap. A visitor (no stats) reads the rule without amounts.
 */
export function ReferralRules({ rules }: { rules: ReferralStatsReply['rules'] | null }) {
  const real = rules?.qualifyingSpendDollars != null ? `buys credit or has spent ${money(rules.qualifyingSpendDollars)} on builds` : 'buys credit';
  return (
    <p className="flex items-start gap-2 rounded-lg bg-brand/10 px-4 py-3 text-sm text-brand-strong" data-testid="referrals-when-paid">
      <BadgeCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>
        Rewards are paid for friends who use Wolfpack for real: the {formatCents(REFERRAL_SIGNUP_CENTS)} sign-up reward once your friend {real}, and the{' '}
        {formatCents(REFERRAL_FIRST_BUILD_CENTS)} build reward once they have also completed a project build. Accounts that only use their free credit earn
        nothing.{' '}
        {rules?.dailyCapDollars != null
          ? `You receive at most ${money(rules.dailyCapDollars)} of rewards in 24 hours; rewards past that are not paid.`
          : rules
            ? ''
            : 'Rewards one person receives in a day are capped.'}
      </span>
    </p>
  );
}
