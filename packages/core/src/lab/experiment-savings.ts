/**
 * The cost-comparison lab's arithmetic (companion §5, §9): Model A (Wolfpack plus assembling the
 * result on Replit) against building the same thing on Replit alone.
 */

/** What the savings formula needs, all in whole cents. */
export interface ExperimentCosts {
  /** What the Wolfpack run cost; null while the run has not finished. */
  wolfpackCostCents: number | null;
  /** What assembling Wolfpack's output on Replit cost; null until submitted. */
  wolfpackReplitAssemblyCostCents: number | null;
  /** What building it on Replit alone cost; null until submitted. */
  replitOnlyCostCents: number | null;
}

/** Model A total = Wolfpack cost + assembly cost, in cents (null while either is unknown). */
export function modelATotalCents(costs: Pick<ExperimentCosts, 'wolfpackCostCents' | 'wolfpackReplitAssemblyCostCents'>): number | null {
  if (costs.wolfpackCostCents === null || costs.wolfpackReplitAssemblyCostCents === null) return null;
  return checkCents(costs.wolfpackCostCents, 'wolfpackCostCents') + checkCents(costs.wolfpackReplitAssemblyCostCents, 'wolfpackReplitAssemblyCostCents');
}

/**
 * Savings = (Replit-only − Model A total) / Replit-only × 100, as a percent with 2 decimals.
 *
 * Null when any cost is unknown, and when the Replit-only cost is 0 (the spec computes savings
 * only for a non-zero Replit-only cost: there is nothing to divide by). Negative when Model A cost
 * more. Rounding is exact: the percent is computed in hundredths with integer arithmetic
 * (10000 × difference ÷ Replit-only) and rounded half away from zero, so 1/3 gives 33.33, 2/3
 * gives 66.67 and −1/8 gives −12.5, with no floating-point drift.
 */
export function experimentSavingsPercent(costs: ExperimentCosts): number | null {
  const total = modelATotalCents(costs);
  if (total === null || costs.replitOnlyCostCents === null) return null;
  const replitOnly = checkCents(costs.replitOnlyCostCents, 'replitOnlyCostCents');
  if (replitOnly === 0) return null;
  // BigInt: 10000 × cents passes 2^53 only for absurd amounts, but exact is exact.
  const numerator = 10_000n * BigInt(replitOnly - total);
  const denominator = BigInt(replitOnly);
  const magnitude = numerator < 0n ? -numerator : numerator;
  const hundredths = (2n * magnitude + denominator) / (2n * denominator);
  return Number(numerator < 0n ? -hundredths : hundredths) / 100;
}

function checkCents(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of cents ≥ 0, not ${value}`);
  return value;
}

/** Experiment statuses Wolfpack uses; the spec leaves the values open and shows them with spaces. */
export const EXPERIMENT_STATUSES = ['wolfpack_running', 'wolfpack_complete', 'wolfpack_failed', 'wolfpack_interrupted', 'completed'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/**
 * An experiment's status from its Wolfpack run and whether its costs are in: the run's status
 * until both the run is complete and the costs are submitted, then 'completed'.
 */
export function experimentStatus(run: 'running' | 'completed' | 'failed' | 'interrupted', costsSubmitted: boolean): ExperimentStatus {
  switch (run) {
    case 'running':
      return 'wolfpack_running';
    case 'completed':
      return costsSubmitted ? 'completed' : 'wolfpack_complete';
    case 'failed':
      return 'wolfpack_failed';
    case 'interrupted':
      return 'wolfpack_interrupted';
    default: {
      const unreachable: never = run;
      return unreachable;
    }
  }
}

/** Status text as the spec shows it: underscores become spaces ('wolfpack_running' → 'wolfpack running'). */
export function formatExperimentStatus(status: string): string {
  return status.replaceAll('_', ' ');
}

/** Costs are stored in cents and shown as dollars with 2 decimals ('$12.34'; '−' first when negative). */
export function formatExperimentDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A savings percent as shown: 2 decimals and a percent sign ('85.00%', '-12.50%'). */
export function formatSavingsPercent(percent: number): string {
  return `${percent.toFixed(2)}%`;
}
