import { formatDollars, formatHours } from '@wolfpack/core';
import { PiggyBank } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useServerSavings } from '../hooks/use-server-savings';
import type { SavingsTotals } from '../lib/savings-counters';
import { Card } from './card';

/**
 * Time and cost the account's runs saved: this session, this month and in total. The figures are
 * the server's (every completed run: builds, Lab experiments, runs from the terminal), the same the
 * statistics and the Savings Dashboard show.
 */
export function SavingsSummary() {
  const { visitor, savings, session, isError } = useServerSavings();
  const rows: Array<{ label: string; totals: SavingsTotals; key: string }> =
    savings && session
      ? [
          { label: 'This session', totals: session, key: 'session' },
          { label: 'This month', totals: savings.thisMonth, key: 'monthly' },
          { label: 'All time', totals: savings.allTime, key: 'total' },
        ]
      : [];
  return (
    <Card className="p-5" data-testid="savings-summary">
      <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
        <PiggyBank className="h-4 w-4 text-brand" aria-hidden />
        Your savings
      </h2>
      {visitor ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          <Link to="/login" className="font-medium text-brand-strong hover:underline">
            Sign in
          </Link>{' '}
          to see the time and money your runs saved.
        </p>
      ) : isError ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Your savings are unavailable right now.</p>
      ) : rows.length === 0 ? (
        <div className="flex flex-col gap-2" aria-label="Loading your savings">
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="h-7 animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      ) : (
        <>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-zinc-500 dark:text-zinc-400">
                <th scope="col" className="pb-1.5 font-normal">
                  <span className="sr-only">Period</span>
                </th>
                <th scope="col" className="pb-1.5 text-right font-normal">
                  Time
                </th>
                <th scope="col" className="pb-1.5 text-right font-normal">
                  Cost
                </th>
                <th scope="col" className="pb-1.5 text-right font-normal">
                  Runs
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {rows.map(({ label, totals, key }) => (
                <tr key={key} className="border-t border-zinc-100 dark:border-zinc-800" data-testid={`savings-${key}`}>
                  <th scope="row" className="py-1.5 text-left font-normal text-zinc-600 dark:text-zinc-400">
                    {label}
                  </th>
                  <td className="py-1.5 text-right font-medium">{formatHours(totals.timeSavedHours)}</td>
                  <td className="py-1.5 text-right font-medium text-emerald-700 dark:text-emerald-400">
                    {formatDollars(totals.costSavedDollars)}
                  </td>
                  <td className="py-1.5 text-right font-medium">{totals.runs}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
            Every completed run counts, Lab experiments included.{' '}
            <Link to="/usage-metrics" className="font-medium text-brand-strong hover:underline">
              Savings Dashboard
            </Link>
          </p>
        </>
      )}
    </Card>
  );
}
