import {
  formatCents,
  REFERRAL_ACTIVE_DAYS,
  REFERRAL_DECAY_PERCENT,
  REFERRAL_FIRST_BUILD_CENTS,
  REFERRAL_GRACE_DAYS,
  REFERRAL_LEVEL_PERCENTS,
  REFERRAL_SIGNUP_CENTS,
  type ReferralStatsReply,
} from '@wolfpack/core';
import { CalendarClock, Gift, Hammer, Network, Sparkles, UserPlus, Users } from 'lucide-react';
import { useMe, useReferralStats } from '../api/queries';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';
import { QrCodeCanvas } from '../components/qr-code-canvas';
import { ReferralCard } from '../components/referral-card';
import { ReferralRules } from '../components/referral-rules';
import { RewardTile } from '../components/reward-tile';
import { directReferralCents, generationRewards, workedExample } from '../lib/referral-rewards';

/**
 * Pack Perks (/referrals, companion §2 Referrals, §9): how rewards work, the user's counts and
 * credits from the server, the referral card with a 140 px QR code, and a worked example.
 */
export function ReferralsPage() {
  const { user, isPending: mePending } = useMe();
  const stats = useReferralStats(user !== null);
  const visitor = !mePending && user === null;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageHeader
        icon={<Gift className="h-7 w-7" aria-hidden />}
        title="Pack Perks"
        description="Earn free compute: invite friends and get credits when they join and build."
      />

      {visitor ? (
        <SignInPrompt what="your referral link" />
      ) : stats.data ? (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
          <ReferralCard
            code={stats.data.referralCode}
            link={stats.data.referralLink}
            note="Share the link or let a friend scan the code."
            qr={<QrCodeCanvas value={stats.data.referralLink} label={`QR code of your referral link ${stats.data.referralLink}`} />}
          />
          <Counts stats={stats.data} />
        </div>
      ) : stats.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">Your referrals could not be loaded. Reload the page to try again.</p>
      ) : (
        <LoadingBlock rows={2} label="Loading your referrals" />
      )}

      <SectionCard icon={<Sparkles className="h-5 w-5" aria-hidden />} title="How rewards work" testId="referrals-how">
        <ol className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <RewardTile icon={<UserPlus className="h-4 w-4" aria-hidden />} amount={formatCents(REFERRAL_SIGNUP_CENTS)} text="when a friend who signed up with your link buys credit" />
          <RewardTile icon={<Hammer className="h-4 w-4" aria-hidden />} amount={formatCents(REFERRAL_FIRST_BUILD_CENTS)} text="when their first project build completes" />
          <RewardTile icon={<Gift className="h-4 w-4" aria-hidden />} amount={formatCents(directReferralCents())} text="for every direct referral in all" highlight />
        </ol>
        <ReferralRules rules={stats.data?.rules ?? null} />
        <div>
          <h3 className="flex items-center gap-2 text-sm font-semibold">
            <Network className="h-4 w-4 text-brand" aria-hidden />
            Seven generations
          </h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            When the people you invited invite others, part of each reward flows up to you: {REFERRAL_LEVEL_PERCENTS.map((p) => `${p}%`).join(', ')} for
            generations one to seven.
          </p>
          <Generations stats={stats.data ?? null} />
        </div>
        <p className="flex items-start gap-2 rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-600 dark:bg-zinc-800/50 dark:text-zinc-400">
          <CalendarClock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          Rewards keep their full value for {REFERRAL_ACTIVE_DAYS} days, then stay usable through a {REFERRAL_GRACE_DAYS}-day grace period; after that
          they lose {REFERRAL_DECAY_PERCENT}% of what remains each month.
        </p>
      </SectionCard>

      <SectionCard icon={<Users className="h-5 w-5" aria-hidden />} title="A worked example" testId="referrals-example">
        <WorkedExample />
      </SectionCard>
    </div>
  );
}

function Counts({ stats }: { stats: ReferralStatsReply }) {
  const tiles = [
    { label: 'Total referrals', value: String(stats.totalReferrals), testId: 'referrals-total' },
    { label: 'Active (built a project)', value: String(stats.activeReferrals), testId: 'referrals-active' },
    { label: 'Pending', value: String(stats.pendingReferrals), testId: 'referrals-pending' },
    { label: 'Credits earned', value: `$${stats.creditsEarnedDollars.toFixed(2)}`, testId: 'referrals-earned' },
    { label: 'Worth today', value: `$${stats.creditsValueDollars.toFixed(2)}`, testId: 'referrals-value' },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="referral-counts">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs dark:border-zinc-800 dark:bg-zinc-900">
          <dt className="text-xs text-zinc-500 dark:text-zinc-400">{tile.label}</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid={tile.testId}>
            {tile.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Generations({ stats }: { stats: ReferralStatsReply | null }) {
  const rows = generationRewards();
  return (
    <div className="-mx-6 mt-3 overflow-x-auto">
      <table className="w-full min-w-[28rem] text-sm" data-testid="referral-generations">
        <thead>
          <tr className="text-left text-xs text-zinc-500 dark:text-zinc-400">
            <th scope="col" className="px-6 pb-2 font-medium">Generation</th>
            <th scope="col" className="px-3 pb-2 text-right font-medium">Share</th>
            <th scope="col" className="px-3 pb-2 text-right font-medium">Per friend who builds</th>
            {stats ? <th scope="col" className="px-3 pb-2 text-right font-medium">Your people</th> : null}
            {stats ? <th scope="col" className="px-6 pb-2 text-right font-medium">Earned</th> : null}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {rows.map((row) => {
            const mine = stats?.byLevel.find((level) => level.level === row.level);
            return (
              <tr key={row.level} className="border-t border-zinc-100 dark:border-zinc-800">
                <td className="px-6 py-1.5">{row.level === 1 ? '1 (your friends)' : row.level}</td>
                <td className="px-3 py-1.5 text-right">{row.percent}%</td>
                <td className="px-3 py-1.5 text-right font-medium">{formatCents(row.cents)}</td>
                {stats ? <td className="px-3 py-1.5 text-right">{mine?.referrals ?? 0}</td> : null}
                {stats ? <td className="px-6 py-1.5 text-right">${(mine?.earnedDollars ?? 0).toFixed(2)}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function WorkedExample() {
  const example = workedExample();
  return (
    <div className="flex flex-col gap-3 text-sm">
      <ol className="flex flex-col gap-2">
        {example.steps.map((step, index) => (
          <li key={step.who} className="flex items-start gap-3">
            <span className="grid h-6 w-6 shrink-0 place-items-center rounded-full bg-zinc-100 text-xs font-semibold dark:bg-zinc-800">{index + 1}</span>
            <p className="text-zinc-700 dark:text-zinc-300">
              {step.text} <strong className="text-zinc-900 dark:text-white">You get {formatCents(step.youCents)}.</strong>
            </p>
          </li>
        ))}
      </ol>
      <p className="rounded-lg bg-brand/10 px-4 py-3 font-medium" data-testid="worked-example-total">
        In all: {formatCents(example.totalCents)} of free compute from one friend&apos;s chain, and every friend you invite
        directly adds {formatCents(directReferralCents())} more.
      </p>
    </div>
  );
}
