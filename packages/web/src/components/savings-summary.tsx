import { formatDollars, formatHours } from '@wolfpack/core';
import { PiggyBank } from 'lucide-react';
import { useSavingsCounters } from '../hooks/use-savings-counters';
import type { SavingsTotals } from '../lib/savings-counters';
import { Card } from './card';

/** This browser's saved time, saved cost and runs: this session, this month and in total. */
export function SavingsSummary() {
  const counters = useSavingsCounters();
  const rows: Array<{ label: string; totals: SavingsTotals; key: string }> = [
    { label: 'This session', totals: counters.session, key: 'session' },
    { label: 'This month', totals: counters.monthly, key: 'monthly' },
    { label: 'All time', totals: counters.total, key: 'total' },
  ];
  return (
    <Card className="p-5" data-testid="savings-summary">
      <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
        <PiggyBank className="h-4 w-4 text-brand" aria-hidden />
        Your savings
      </h2>
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
    </Card>
  );
}
