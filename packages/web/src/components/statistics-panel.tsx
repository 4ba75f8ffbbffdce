import { STATISTICS_STAGE_COUNT, formatDollars, formatHours, formatPercent, formatSeconds } from '@wolfpack/core';
import { ChartColumn } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useMe, useStats } from '../api/queries';
import { Card } from './card';

/** The statistics panel (spec core §2): the user's runs from GET /api/stats, in the spec's formats. */
export function StatisticsPanel() {
  const { user, isPending: mePending } = useMe();
  const { data, isPending, isError } = useStats(user !== null);
  const visitor = !mePending && user === null;
  const tiles = data
    ? [
        { label: 'Total Runs', value: String(data.totalRuns), testId: 'stat-total-runs' },
        { label: 'Success Rate', value: formatPercent(data.successRate), testId: 'stat-success-rate' },
        { label: 'Avg Time', value: formatSeconds(data.averageTime), testId: 'stat-average-time' },
        {
          label: 'Pipeline Stages',
          value: `${data.pipelineStages}/${STATISTICS_STAGE_COUNT}`,
          testId: 'stat-pipeline-stages',
        },
        { label: 'Time Saved', value: formatHours(data.totalTimeSaved), testId: 'stat-time-saved' },
        { label: 'Cost Saved', value: formatDollars(data.totalCostSaved), testId: 'stat-cost-saved' },
      ]
    : [];
  return (
    <Card className="p-5" data-testid="statistics-panel">
      <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
        <ChartColumn className="h-4 w-4 text-brand" aria-hidden />
        Statistics
      </h2>
      {visitor || data === null ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          <Link to="/login" className="font-medium text-brand-strong hover:underline">
            Sign in
          </Link>{' '}
          to see the statistics of your runs.
        </p>
      ) : isPending ? (
        <div className="grid grid-cols-2 gap-2" aria-label="Loading statistics">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-16 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      ) : isError ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Statistics are unavailable right now.</p>
      ) : (
        <dl className="grid grid-cols-2 gap-2">
          {tiles.map((tile) => (
            <div key={tile.label} className="rounded-lg bg-zinc-50 px-3 py-2.5 dark:bg-zinc-800/50">
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">{tile.label}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid={tile.testId}>
                {tile.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
