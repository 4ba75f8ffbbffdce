/**
 * What every buy button says on a server without Stripe keys (credit packs, a commercial listing,
 * the njin licence), so a user is never offered a purchase that can only fail. Whether payments
 * work comes from one place: GET /api/billing/packs (`usePaymentsConfigured`).
 */
import type { ReactNode } from 'react';

/** The label of a buy button that cannot work here. */
export const PAYMENTS_OFF_LABEL = 'Payments not configured';

const NOTE_CLASS = 'rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-400';

/**
 * The line above a disabled buy button: `what` is the thing that cannot be bought ("credit
 * packs"). `children` add what else the reader can do (who can turn payments on, another way in).
 */
export function PaymentsOffNote({ what, children }: { what: string; children?: ReactNode }) {
  const sentence = <>Payments are not configured on this server, so {what} cannot be bought here.</>;
  if (!children) {
    return (
      <p className={NOTE_CLASS} data-testid="payments-not-configured">
        {sentence}
      </p>
    );
  }
  return (
    <div className={`${NOTE_CLASS} flex flex-col gap-2`} data-testid="payments-not-configured">
      <p>{sentence}</p>
      {children}
    </div>
  );
}
