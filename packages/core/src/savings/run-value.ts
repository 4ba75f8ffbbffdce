/**
 * A run's cost said together with its estimated savings (the result card and `wolfpack build`):
 * the estimate alone reads as money saved even when the run cost more than it is said to save.
 */
import { formatCents } from '../billing/money.js';
import { formatHours, runSavings, type RunSavings } from './savings.js';

/** 'saved': the estimate is at least the cost; 'cost-more': the run cost more; 'unpriced': no charge reported. */
export type RunValueOutcome = 'saved' | 'cost-more' | 'unpriced';

export interface RunValue {
  /** What the run was charged, in cents; null when no charge was reported (free engines). */
  costCents: number | null;
  savings: RunSavings;
  /** The estimated cost saved, in whole cents. */
  savedCents: number;
  /** savedCents minus costCents (negative when the run cost more); null without a cost. */
  netCents: number | null;
  outcome: RunValueOutcome;
}

/**
 * The run's cost beside the savings estimate of its execution seconds. The comparison is in
 * whole cents, so $0.65 saved against $0.65 charged is no loss.
 */
export function runValue(executionSeconds: number, spentCents: number | null | undefined): RunValue {
  const savings = runSavings(executionSeconds);
  const savedCents = Math.round(savings.costSavedDollars * 100);
  const costCents = spentCents === null || spentCents === undefined ? null : Math.max(0, Math.round(spentCents));
  if (costCents === null) return { costCents, savings, savedCents, netCents: null, outcome: 'unpriced' };
  const netCents = savedCents - costCents;
  return { costCents, savings, savedCents, netCents, outcome: netCents < 0 ? 'cost-more' : 'saved' };
}

/**
 * One sentence for people: the cost first, then the estimate, then how they compare. A run that
 * cost more than its estimate is never said to have saved money.
 *
 * - saved: "Cost $0.30 · estimated savings about 0.5h and $0.65, $0.35 more than the run cost"
 * - cost-more: "Cost $0.80 · estimated savings about 0.5h and $0.65, $0.15 less than the run cost: no money saved"
 * - unpriced: "No charge reported · estimated savings about 0.5h and $0.65"
 */
export function runValueText(value: RunValue): string {
  const estimate = `estimated savings about ${formatHours(value.savings.timeSavedHours)} and ${formatCents(value.savedCents)}`;
  if (value.costCents === null || value.netCents === null) return `No charge reported · ${estimate}`;
  const cost = `Cost ${formatCents(value.costCents)}`;
  if (value.outcome === 'cost-more') return `${cost} · ${estimate}, ${formatCents(-value.netCents)} less than the run cost: no money saved`;
  if (value.netCents === 0) return `${cost} · ${estimate}, as much as the run cost`;
  return `${cost} · ${estimate}, ${formatCents(value.netCents)} more than the run cost`;
}
