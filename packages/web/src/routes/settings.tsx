import { ArrowLeft, Coins, GitBranch, History, Info, KeyRound, Lightbulb, Palette, Settings as SettingsIcon, ShoppingCart } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useBalance, useBillingHistory, useMe, usePacks } from '../api/queries';
import { ApiTokensSettings } from '../components/api-tokens-settings';
import { AppearanceSettings } from '../components/appearance-settings';
import { BalanceCard } from '../components/balance-card';
import { CheckoutStatus } from '../components/checkout-status';
import { CreditPacks } from '../components/credit-packs';
import { GithubSettings } from '../components/github-settings';
import { HowCreditsWork } from '../components/how-credits-work';
import { ReferralCard } from '../components/referral-card';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';
import { UsageHistory } from '../components/usage-history';
import { useCheckoutReturn } from '../hooks/use-checkout-return';
import { formatTokenPrice, tokenPriceExample } from '../lib/pricing';
import { DEFAULT_PRICE_PER_1K_TOKENS_CENTS, referralLink } from '@wolfpack/core';

/** Recent usage shows this many items (companion §9). */
export const RECENT_USAGE_LIMIT = 10;

/**
 * Settings (/settings, companion §2): appearance, credits and usage, how credits work, token
 * pricing and the credit packs, recent usage, GitHub, API tokens for scripts and CI, and an About
 * block.
 */
export function SettingsPage() {
  const { user, isPending: mePending } = useMe();
  const signedIn = user !== null;
  const balance = useBalance(signedIn);
  const history = useBillingHistory(RECENT_USAGE_LIMIT, signedIn);
  const packs = usePacks();
  const checkout = useCheckoutReturn(signedIn);
  const price = packs.data?.pricePer1kTokensCents ?? DEFAULT_PRICE_PER_1K_TOKENS_CENTS;
  const visitor = !mePending && !signedIn;
  useScrollToHash(packs.isSuccess && (visitor || balance.isSuccess));

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageHeader
        icon={<SettingsIcon className="h-7 w-7" aria-hidden />}
        title="Settings"
        description="How Wolfpack looks in this browser, your credits, and where your projects are published."
      >
        <Link to="/" className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to Build
        </Link>
      </PageHeader>

      {checkout ? <CheckoutStatus view={checkout} /> : null}

      <SectionCard icon={<Palette className="h-5 w-5" aria-hidden />} title="Appearance" description="Saved in this browser." testId="settings-appearance">
        <AppearanceSettings />
      </SectionCard>

      <SectionCard
        icon={<Coins className="h-5 w-5" aria-hidden />}
        title="Credits & Usage"
        description="Your balance, this month's free grant, and your referral link."
        testId="settings-credits"
      >
        {visitor ? (
          <SignInPrompt what="your credits" />
        ) : balance.data ? (
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <BalanceCard balance={balance.data} />
            <ReferralCard
              code={balance.data.referralCode}
              link={referralLink(window.location.origin, balance.data.referralCode)}
              note={
                <>
                  {balance.data.totalReferrals} {balance.data.totalReferrals === 1 ? 'referral' : 'referrals'}, $
                  {balance.data.referralEarningsDollars.toFixed(2)} earned.{' '}
                  <Link to="/referrals" className="font-medium text-brand-strong hover:underline">
                    Pack Perks
                  </Link>
                </>
              }
            />
          </div>
        ) : balance.isError ? (
          <p className="text-sm text-red-600 dark:text-red-400">Your balance could not be loaded. Reload the page to try again.</p>
        ) : (
          <LoadingBlock rows={2} label="Loading your balance" />
        )}
      </SectionCard>

      <SectionCard icon={<Lightbulb className="h-5 w-5" aria-hidden />} title="How Credits Work" testId="settings-how-credits">
        <HowCreditsWork pricePer1kTokensCents={price} />
      </SectionCard>

      <SectionCard
        id="buy-credits"
        icon={<ShoppingCart className="h-5 w-5" aria-hidden />}
        title="Buy Credits"
        description="Secure checkout by Stripe. Bought credits never expire."
        testId="settings-packs"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg bg-zinc-50 px-4 py-3 dark:bg-zinc-800/50" data-testid="token-pricing">
          <p className="text-sm">
            <span className="font-semibold">Token pricing:</span> {formatTokenPrice(price)}
          </p>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Example: {tokenPriceExample(price)}.</p>
        </div>
        {packs.data ? (
          <CreditPacks
            packs={packs.data.packs}
            paymentsConfigured={packs.data.paymentsConfigured}
            balanceCents={visitor ? null : (balance.data?.balanceCents ?? null)}
          />
        ) : packs.isError ? (
          <p className="text-sm text-red-600 dark:text-red-400">The credit packs could not be loaded. Reload the page to try again.</p>
        ) : (
          <LoadingBlock rows={1} label="Loading the credit packs" />
        )}
      </SectionCard>

      {visitor ? null : (
        <SectionCard
          icon={<History className="h-5 w-5" aria-hidden />}
          title="Recent Usage"
          description={`Your latest ${RECENT_USAGE_LIMIT} billed engine calls.`}
          testId="settings-usage"
        >
          {history.data ? (
            <UsageHistory items={history.data.history} />
          ) : history.isError ? (
            <p className="text-sm text-red-600 dark:text-red-400">Your usage could not be loaded.</p>
          ) : (
            <LoadingBlock rows={2} label="Loading your usage" />
          )}
        </SectionCard>
      )}

      <SectionCard
        icon={<GitBranch className="h-5 w-5" aria-hidden />}
        title="GitHub"
        description="Publish to GitHub pushes a project to a repository on this account, ready to open in Replit."
        testId="settings-github"
      >
        <GithubSettings />
      </SectionCard>

      {visitor ? null : (
        <SectionCard
          icon={<KeyRound className="h-5 w-5" aria-hidden />}
          title="API tokens"
          description="Personal access tokens for scripts and CI: set WOLFPACK_TOKEN and every wolfpack command runs without logging in. Stored hashed; shown once."
          testId="settings-api-tokens"
        >
          <ApiTokensSettings />
        </SectionCard>
      )}

      <SectionCard icon={<Info className="h-5 w-5" aria-hidden />} title="About" testId="settings-about">
        <div className="flex flex-col gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <p>
            Wolfpack turns a project idea into a multi-file project with staged AI engines: Planning, Building, Checking,
            Polishing and Proven Code. Credits pay for the engines&apos; tokens; nothing else is charged.
          </p>
          <p>
            <Link to="/how-it-works" className="font-medium text-brand-strong hover:underline">
              How Wolfpack works
            </Link>{' '}
            ·{' '}
            <Link to="/pricing" className="font-medium text-brand-strong hover:underline">
              Pricing
            </Link>{' '}
            ·{' '}
            <Link to="/" className="font-medium text-brand-strong hover:underline">
              Back to Build
            </Link>
          </p>
        </div>
      </SectionCard>
    </div>
  );
}

/** Scrolls to the element the URL's #hash names once the page's content is there. */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);
}
