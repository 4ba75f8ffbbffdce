import { describe, expect, it } from 'vitest';
import { monthLabel, savingsChartRows } from './savings-dashboard';

describe('savings dashboard', () => {
  it('labels months', () => {
    expect(monthLabel('2026-11')).toBe('Nov');
    expect(monthLabel('2026-01', true)).toBe('Jan 2026');
    expect(monthLabel('2026-13')).toBe('2026-13');
    expect(monthLabel('soon')).toBe('soon');
  });

  it('rounds the chart rows as the dashboard shows them', () => {
    expect(savingsChartRows([{ month: '2026-10', timeSavedHours: 5.04, costSavedDollars: 6.005, runs: 2 }])).toEqual([
      { month: '2026-10', label: 'Oct', hours: 5, dollars: 6.01, runs: 2 },
    ]);
  });
});
