import { DEFAULT_PRICE_PER_1K_TOKENS_CENTS, formatCents, MONTHLY_GRANT_CENTS, WELCOME_BONUS_CENTS } from '@wolfpack/core';
import { BadgeDollarSign, Check, Coins, Cpu } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useBalance, useMe, usePacks } from '../api/queries';
import { buttonClass } from '../components/button';
import { Card } from '../components/card';
import { CreditPacks } from '../components/credit-packs';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock } from '../components/sign-in-prompt';
import { formatTokenPrice, tokenPriceExample } from '../lib/pricing';

/** The njin licence (companion §1, §9): $29 per month, unlimited iterations. */
export const NJIN_LICENCE_DOLLARS_PER_MONTH = 29;

/** Pricing (/pricing): pay-as-you-go credits (packs and token price) and the njin licence. */
export function PricingPage() {
  const { user, isPending: mePending } = useMe();
  const signedIn = user !== null;
  const balance = useBalance(signedIn);
  const packs = usePacks();
  const price = packs.data?.pricePer1kTokensCents ?? DEFAULT_PRICE_PER_1K_TOKENS_CENTS;
  const visitor = !mePending && !signedIn;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageHeader
        icon={<BadgeDollarSign className="h-7 w-7" aria-hidden />}
        title="Pricing"
        description="Pay as you go with credits. No subscription needed to build."
      />

      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <Highlight title="Free to start" value={formatCents(WELCOME_BONUS_CENTS)} text={`welcome bonus, plus ${formatCents(MONTHLY_GRANT_CENTS)} of free credits every month`} />
        <Highlight title="Token price" value={formatTokenPrice(price)} text={`${tokenPriceExample(price)}; billed per engine call, rounded up to the cent`} testId="pricing-token-price" />
        <Highlight title="No surprises" value="Capped" text="a run reserves each stage's worst case, and stops, charging nothing for that stage, when your balance cannot cover it" />
      </div>

      <SectionCard
        icon={<Coins className="h-5 w-5" aria-hidden />}
        title="Credit packs"
        description="Bigger packs come with bonus credits. Bought credits never expire."
        testId="pricing-packs"
      >
        {packs.data ? (
          <CreditPacks packs={packs.data.packs} paymentsConfigured={packs.data.paymentsConfigured} balanceCents={visitor ? null : (balance.data?.balanceCents ?? null)} />
        ) : packs.isError ? (
          <p className="text-sm text-red-600 dark:text-red-400">The credit packs could not be loaded. Reload the page to try again.</p>
        ) : (
          <LoadingBlock rows={1} label="Loading the credit packs" />
        )}
      </SectionCard>

      <Card className="overflow-hidden" data-testid="pricing-njin">
        <div className="grid grid-cols-1 gap-6 p-6 md:grid-cols-[minmax(0,1fr)_auto] md:items-center">
          <div className="flex flex-col gap-3">
            <p className="flex items-center gap-2 font-semibold">
              <Cpu className="h-5 w-5 text-brand" aria-hidden />
              njin licence
            </p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              The iteration engine routes heavy work to a multi-model consensus engine and returns code patches, right in your
              editor.
            </p>
            <ul className="flex flex-col gap-1.5 text-sm">
              {['Unlimited iterations', 'Cancel any time', 'API key and snippet for your project'].map((item) => (
                <li key={item} className="flex items-center gap-2">
                  <Check className="h-4 w-4 text-emerald-600 dark:text-emerald-400" aria-hidden />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className="flex flex-col items-start gap-3 md:items-end">
            <p className="text-4xl font-semibold tracking-tight">
              ${NJIN_LICENCE_DOLLARS_PER_MONTH}
              <span className="text-base font-normal text-zinc-500 dark:text-zinc-400"> per month</span>
            </p>
            <Link to="/njin" className={buttonClass('primary', 'md')}>
              See njin
            </Link>
          </div>
        </div>
      </Card>
    </div>
  );
}

function Highlight({ title, value, text, testId }: { title: string; value: string; text: string; testId?: string }) {
  return (
    <Card className="flex flex-col gap-1 p-5" data-testid={testId}>
      <p className="text-sm font-medium text-zinc-500 dark:text-zinc-400">{title}</p>
      <p className="text-2xl font-semibold tracking-tight">{value}</p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
    </Card>
  );
}
