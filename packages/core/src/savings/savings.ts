/**
 * Savings estimates of a run (spec core §9, companion §9): time saved in hours = execution
 * seconds / 60 x 2.5, shown with 1 decimal; cost saved in dollars = seconds x 0.05, 2 decimals.
 */

export const TIME_SAVED_FACTOR = 2.5;
export const COST_SAVED_DOLLARS_PER_SECOND = 0.05;

export interface RunSavings {
  /** Hours, unrounded. */
  timeSavedHours: number;
  /** Dollars, unrounded. */
  costSavedDollars: number;
}

export function runSavings(executionSeconds: number): RunSavings {
  const seconds = Math.max(0, executionSeconds);
  return { timeSavedHours: (seconds / 60) * TIME_SAVED_FACTOR, costSavedDollars: seconds * COST_SAVED_DOLLARS_PER_SECOND };
}

/** '12.5h' style: 1 decimal plus h. */
export function formatHours(hours: number): string {
  return `${hours.toFixed(1)}h`;
}

/** '$3.25' style: dollars with 2 decimals. */
export function formatDollars(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

/** '7.4s': 1 decimal plus s (average run time). */
export function formatSeconds(seconds: number): string {
  return `${seconds.toFixed(1)}s`;
}

/** '83%': 0 decimals plus % (success rate given as 0..100). */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(0)}%`;
}

/** The year-month key monthly counters are stored under ('2026-11'). */
export function monthKey(date: Date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}
