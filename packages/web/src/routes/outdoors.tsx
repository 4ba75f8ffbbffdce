import { AtSign, BriefcaseBusiness, Compass, Gift, Infinity as InfinityIcon, Share2, Store, UserPlus } from 'lucide-react';
import { REFERRAL_FIRST_BUILD_CENTS, REFERRAL_SIGNUP_CENTS, WELCOME_BONUS_CENTS } from '@wolfpack/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMe, useReferralStats } from '../api/queries';
import { CapsuleDiscovery } from '../components/capsule-discovery';
import { ListingMarketplace } from '../components/listing-marketplace';
import { ReferralCard } from '../components/referral-card';
import { RewardTile } from '../components/reward-tile';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';
import { Tabs } from '../components/tabs';
import { OUTDOORS_PAGE_SIZE } from '../lib/showcase-query';

const TAB_KEYS = ['showcase', 'discovery', 'social'] as const;
type OutdoorsTab = (typeof TAB_KEYS)[number];

const TABS = [
  { key: 'showcase', label: <><Store className="h-4 w-4" aria-hidden />Showcase</> },
  { key: 'discovery', label: <><Compass className="h-4 w-4" aria-hidden />Discovery</> },
  { key: 'social', label: <><Share2 className="h-4 w-4" aria-hidden />Social Media</> },
] as const;

/** Social referral rewards (companion §9). */
// The spec's social referral (companion §9: "referrer gets $15 credit, friend gets $10 on the first
// month") read from what the ledger really pays: $15 when a friend's first build completes (after
// $5 at their sign-up), and the $10 welcome credit every new account starts its first month with.
const SOCIAL_REFERRER_DOLLARS = REFERRAL_FIRST_BUILD_CENTS / 100;
const SOCIAL_FRIEND_DOLLARS = WELCOME_BONUS_CENTS / 100;

/**
 * Outdoors (/outdoors, companion §2): the community page in three tabs (the marketplace at 9 a
 * page, trending and latest capsules, and the social referral area). The tab is in ?tab= so a
 * link can open one.
 */
export function OutdoorsPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: OutdoorsTab = (TAB_KEYS as readonly string[]).includes(raw ?? '') ? (raw as OutdoorsTab) : 'showcase';
  // Each tab starts clean: the marketplace's search and page mean nothing to the others.
  const select = (next: OutdoorsTab) => setParams(next === 'showcase' ? {} : { tab: next }, { replace: true });

  return (
    <div className="flex flex-col gap-6" data-testid="outdoors-page">
      <PageHeader
        icon={<Compass className="h-7 w-7" aria-hidden />}
        title="Outdoors"
        description="Out where the pack meets: projects to get or buy, sessions worth watching, and friends to bring along."
      />
      <Tabs<OutdoorsTab> label="Outdoors sections" items={TABS} value={tab} onChange={select}>
        {tab === 'showcase' ? (
          <ListingMarketplace pageSize={OUTDOORS_PAGE_SIZE} skeletonCards={OUTDOORS_PAGE_SIZE} gridClass="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" />
        ) : tab === 'discovery' ? (
          <CapsuleDiscovery />
        ) : (
          <SocialReferrals />
        )}
      </Tabs>
    </div>
  );
}

/** The social referral area: what each side gets, the user's link, and one-click shares. */
function SocialReferrals() {
  const { user, isPending } = useMe();
  const stats = useReferralStats(user !== null);
  const link = stats.data?.referralLink;
  const message = `I build projects with Wolfpack. Join with my link and get $${SOCIAL_FRIEND_DOLLARS} on your first month:`;
  return (
    <div className="flex flex-col gap-6" data-testid="social-referrals">
      <SectionCard icon={<Gift className="h-5 w-5" aria-hidden />} title="Share Wolfpack, both of you win" description="Post your link anywhere your friends are.">
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="social-rewards">
          <RewardTile icon={<Gift className="h-4 w-4" aria-hidden />} amount={`$${SOCIAL_REFERRER_DOLLARS} credit`} text={`for you when each friend builds their first project (and $${REFERRAL_SIGNUP_CENTS / 100} when they sign up)`} />
          <RewardTile icon={<UserPlus className="h-4 w-4" aria-hidden />} amount={`$${SOCIAL_FRIEND_DOLLARS}`} text="for your friend on the first month: the welcome credit they start with" />
          <RewardTile icon={<InfinityIcon className="h-4 w-4" aria-hidden />} amount="Unlimited" text="referrals: there is no cap" />
        </ul>
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="social-rewards-line">
          You get ${SOCIAL_REFERRER_DOLLARS} credit, your friend gets ${SOCIAL_FRIEND_DOLLARS} on the first month, and referrals are unlimited.
        </p>
      </SectionCard>
      {!isPending && user === null ? (
        <SignInPrompt what="your referral link" />
      ) : stats.data && link ? (
        <div className="flex flex-col gap-3">
          <ReferralCard code={stats.data.referralCode} link={link} note="Share it on social media or send it to a friend." />
          <div className="flex flex-wrap gap-2">
            <ShareLink href={`https://twitter.com/intent/tweet?text=${encodeURIComponent(message)}&url=${encodeURIComponent(link)}`} icon={<AtSign className="h-4 w-4" aria-hidden />} label="Share on Twitter" testId="share-twitter" />
            <ShareLink href={`https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(link)}`} icon={<BriefcaseBusiness className="h-4 w-4" aria-hidden />} label="Share on LinkedIn" testId="share-linkedin" />
          </div>
        </div>
      ) : stats.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">Your referral link could not be loaded. Reload the page to try again.</p>
      ) : (
        <LoadingBlock rows={2} label="Loading your referral link" />
      )}
    </div>
  );
}

function ShareLink({ href, icon, label, testId }: { href: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="inline-flex h-9 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-3 text-sm font-medium shadow-xs hover:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800" data-testid={testId}>
      {icon}
      {label}
    </a>
  );
}
