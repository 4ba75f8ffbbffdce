import type { CapsuleMetrics as Metrics } from '@wolfpack/core';
import { Clock, Coins, Hash, ShieldCheck, Vote } from 'lucide-react';
import { capsuleMetricFigures, capsuleVerdictLabel } from '../lib/capsule-format';
import { Card } from './card';
import { StatTile } from './stat-tile';

/**
 * The session's figures (companion §2, §9): duration in seconds (1 decimal), tokens, cost in
 * dollars (3 decimals) and the models that voted; and Proven Code's verdict on the final code, as
 * recorded (a capsule never calls code proven that its record did not).
 */
export function CapsuleMetrics({ metrics }: { metrics: Metrics | null }) {
  if (!metrics) {
    return (
      <Card className="p-5 text-sm text-zinc-600 dark:text-zinc-400" data-testid="capsule-metrics">
        No metrics were recorded for this session.
      </Card>
    );
  }
  const figures = capsuleMetricFigures(metrics);
  const votes = figures.models.join(', ') || 'No votes recorded';
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5" data-testid="capsule-metrics">
      <StatTile icon={<Clock className="h-4 w-4" aria-hidden />} label="Duration" value={figures.duration} testId="metric-duration" />
      <StatTile icon={<Hash className="h-4 w-4" aria-hidden />} label="Tokens" value={figures.tokens} testId="metric-tokens" />
      <StatTile icon={<Coins className="h-4 w-4" aria-hidden />} label="Cost" value={figures.cost} testId="metric-cost" />
      <StatTile icon={<Vote className="h-4 w-4" aria-hidden />} label="Model votes" value={String(figures.models.length)} testId="metric-votes">
        <dd className="line-clamp-2 text-xs text-zinc-500 dark:text-zinc-400" title={votes} data-testid="metric-votes-models">
          {votes}
        </dd>
      </StatTile>
      <StatTile icon={<ShieldCheck className="h-4 w-4" aria-hidden />} label="Proven Code" value={capsuleVerdictLabel(metrics.verdict)} testId="metric-verdict" />
    </dl>
  );
}
