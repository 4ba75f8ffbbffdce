import { formatCents } from '@wolfpack/core';
import { CircleCheck, Clock, LoaderCircle, Undo2 } from 'lucide-react';
import type { CheckoutView } from '../hooks/use-checkout-return';

const box = 'flex items-start gap-3 rounded-xl border p-4 text-sm';

/** What Settings shows on the way back from Stripe Checkout. */
export function CheckoutStatus({ view }: { view: CheckoutView }) {
  switch (view.state) {
    case 'crediting':
      return (
        <div className={`${box} border-brand/40 bg-brand/5`} role="status" data-testid="checkout-status" data-state="crediting">
          <LoaderCircle className="mt-0.5 h-5 w-5 shrink-0 animate-spin text-brand" aria-hidden />
          <div>
            <p className="font-semibold">Payment received, crediting…</p>
            <p className="text-zinc-600 dark:text-zinc-400">Stripe is confirming your payment; your credits appear here in a moment.</p>
          </div>
        </div>
      );
    case 'credited':
      return (
        <div
          className={`${box} border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-100`}
          role="status"
          data-testid="checkout-status"
          data-state="credited"
        >
          <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden />
          <div>
            <p className="font-semibold">Credits added</p>
            <p>
              Your balance is now <strong data-testid="checkout-new-balance">{formatCents(view.balanceCents)}</strong>. Thank you!
            </p>
          </div>
        </div>
      );
    case 'late':
      return (
        <div
          className={`${box} border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100`}
          role="status"
          data-testid="checkout-status"
          data-state="late"
        >
          <Clock className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <div>
            <p className="font-semibold">Your payment is still being confirmed</p>
            <p className="opacity-90">
              Credits are added as soon as Stripe confirms the payment, usually within a few minutes. Reload this page to
              check again; you will not be charged twice.
            </p>
          </div>
        </div>
      );
    case 'cancelled':
      return (
        <div
          className={`${box} border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900`}
          role="status"
          data-testid="checkout-status"
          data-state="cancelled"
        >
          <Undo2 className="mt-0.5 h-5 w-5 shrink-0 text-zinc-500" aria-hidden />
          <div>
            <p className="font-semibold">Checkout cancelled</p>
            <p className="text-zinc-600 dark:text-zinc-400">Nothing was charged. You can buy a pack whenever you like.</p>
          </div>
        </div>
      );
    default: {
      const unreachable: never = view;
      return unreachable;
    }
  }
}
