import { formatCents, type CreditPackDollars, type PacksReply } from '@wolfpack/core';
import { LoaderCircle, LogIn, ShoppingCart, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { serverErrorText } from '../api/client';
import { useTopUp } from '../api/queries';
import { toast } from '../hooks/use-toast';
import { pendingCheckoutStore } from '../lib/checkout-return';
import { cn } from '../lib/cn';
import { packCreditCents, packTitle } from '../lib/pricing';
import { Button, buttonClass } from './button';
import { PAYMENTS_OFF_LABEL, PaymentsOffNote } from './payments-off';

/** The spec's sentence when a top-up cannot start (companion §8). */
export const CHECKOUT_FAILED = 'Failed to start checkout';

export interface CreditPacksProps {
  packs: PacksReply['packs'];
  paymentsConfigured: boolean;
  /** The buyer's balance now (null for a visitor): kept to tell when the purchase is credited. */
  balanceCents: number | null;
}

/**
 * The four credit packs with a buy button each (companion §4 Purchase): idle, pending (every
 * button disabled), then the browser goes to Stripe Checkout; on failure a toast and back to idle.
 */
export function CreditPacks({ packs, paymentsConfigured, balanceCents }: CreditPacksProps) {
  const topUp = useTopUp();
  const [pending, setPending] = useState<CreditPackDollars | null>(null);
  const visitor = balanceCents === null;

  async function buy(dollars: CreditPackDollars) {
    if (pending !== null || balanceCents === null) return;
    setPending(dollars);
    try {
      const checkoutUrl = await topUp.mutateAsync(dollars);
      pendingCheckoutStore.set({ balanceCents, amountDollars: dollars, startedAt: new Date().toISOString() });
      // The page is leaving: the button stays pending until it has gone.
      window.location.assign(checkoutUrl);
    } catch (error) {
      setPending(null);
      toast({ variant: 'destructive', title: CHECKOUT_FAILED, description: serverErrorText(error) ?? 'Please try again in a moment.' });
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {!paymentsConfigured ? <PaymentsOffNote what="credit packs" /> : null}
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="credit-packs">
        {packs.map((pack) => {
          const dollars = pack.dollars as CreditPackDollars;
          const busy = pending === dollars;
          return (
            <li
              key={pack.dollars}
              className={cn(
                'relative flex flex-col gap-3 rounded-xl border p-4',
                pack.popular ? 'border-brand bg-brand/5 shadow-sm' : 'border-zinc-200 dark:border-zinc-800',
              )}
              data-testid={`pack-${pack.dollars}`}
            >
              {pack.popular ? (
                <span className="absolute -top-2.5 right-3 inline-flex items-center gap-1 rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-brand-foreground">
                  <Sparkles className="h-3 w-3" aria-hidden />
                  Popular
                </span>
              ) : null}
              <div>
                <p className="text-2xl font-semibold tracking-tight">{packTitle(pack)}</p>
                <p className="text-sm text-zinc-500 dark:text-zinc-400">
                  {pack.bonusCents > 0
                    ? `${formatCents(packCreditCents(pack))} of credits (${formatCents(pack.bonusCents)} bonus)`
                    : `${formatCents(packCreditCents(pack))} of credits`}
                </p>
              </div>
              {visitor ? (
                <Link to="/login" className={buttonClass('outline', 'sm', 'mt-auto')}>
                  <LogIn className="h-4 w-4" aria-hidden />
                  Sign in to buy
                </Link>
              ) : (
                <Button
                  size="sm"
                  variant={pack.popular ? 'primary' : 'outline'}
                  // The longer 'Payments not configured' wraps inside a narrow pack instead of overflowing.
                  className={cn('mt-auto', !paymentsConfigured && 'h-auto! min-h-8 py-1.5 text-center whitespace-normal!')}
                  disabled={!paymentsConfigured || pending !== null}
                  aria-busy={busy || undefined}
                  onClick={() => void buy(dollars)}
                  data-testid={`buy-pack-${pack.dollars}`}
                >
                  {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <ShoppingCart className="h-4 w-4" aria-hidden />}
                  {!paymentsConfigured ? PAYMENTS_OFF_LABEL : busy ? 'Opening checkout…' : `Buy $${pack.dollars}`}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
