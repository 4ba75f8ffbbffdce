/** The Savings dashboard's pure pieces: month labels and chart rows (companion §2, §9). */
import type { SavingsReply } from '@wolfpack/core';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "2026-11" -> "Nov" (with the year: "Nov 2026"); anything else is returned as it is. */
export function monthLabel(key: string, withYear = false): string {
  const match = /^(\d{4})-(\d{2})$/.exec(key);
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !name) return key;
  return withYear ? `${name} ${match[1]}` : name;
}

export interface SavingsChartRow {
  month: string;
  label: string;
  /** Hours, 1 decimal. */
  hours: number;
  /** Dollars, 2 decimals. */
  dollars: number;
  runs: number;
}

/** The chart's rows, oldest first, rounded as the dashboard shows them. */
export function savingsChartRows(months: SavingsReply['months']): SavingsChartRow[] {
  return months.map((m) => ({
    month: m.month,
    label: monthLabel(m.month),
    hours: Math.round(m.timeSavedHours * 10) / 10,
    dollars: Math.round(m.costSavedDollars * 100) / 100,
    runs: m.runs,
  }));
}
