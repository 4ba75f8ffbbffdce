import { formatCents, LOW_BALANCE_CENTS, type BalanceReply } from '@wolfpack/core';
import { CalendarClock, Gift, TriangleAlert, Wallet } from 'lucide-react';
import { formatDate } from '../lib/format-time';

/** The spec's warning below 500 cents (companion §2, §5), word for word. */
export const LOW_BALANCE_TEXT = 'Low balance - Consider adding credits.';

/** True below the low-balance threshold (companion §5: balanceCents < 500). */
export function isLowBalance(balanceCents: number): boolean {
  return balanceCents < LOW_BALANCE_CENTS;
}

/** Balance, monthly grant and its reset date (companion §2 Credits & Usage), with the low-balance warning. */
export function BalanceCard({ balance }: { balance: BalanceReply }) {
  const low = isLowBalance(balance.balanceCents);
  return (
    <div
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-gradient-to-br from-brand/10 via-transparent to-transparent p-5 dark:border-zinc-800"
      data-testid="balance-card"
    >
      <div>
        <p className="flex items-center gap-1.5 text-sm font-medium text-zinc-600 dark:text-zinc-400">
          <Wallet className="h-4 w-4" aria-hidden />
          Credit balance
        </p>
        <p className="mt-1 text-4xl font-semibold tracking-tight tabular-nums" data-testid="balance-amount">
          {formatCents(balance.balanceCents)}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="flex items-center gap-1.5 text-zinc-500 dark:text-zinc-400">
            <Gift className="h-3.5 w-3.5" aria-hidden />
            Monthly grant
          </dt>
          <dd className="font-medium tabular-nums" data-testid="balance-grant">
            ${balance.monthlyGrantDollars.toFixed(2)}
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-1.5 text-zinc-500 dark:text-zinc-400">
            <CalendarClock className="h-3.5 w-3.5" aria-hidden />
            Resets on
          </dt>
          <dd className="font-medium" data-testid="balance-reset">
            {formatDate(balance.grantResetDate, { utc: true })}
          </dd>
        </div>
      </dl>
      {low ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
          data-testid="low-balance-warning"
        >
          <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
          {LOW_BALANCE_TEXT}
        </p>
      ) : null}
    </div>
  );
}
