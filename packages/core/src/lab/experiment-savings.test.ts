import { describe, expect, it } from 'vitest';
import {
  experimentSavingsPercent,
  experimentStatus,
  formatExperimentDollars,
  formatExperimentStatus,
  formatSavingsPercent,
  modelATotalCents,
} from './experiment-savings.js';

const costs = (wolfpackCostCents: number | null, wolfpackReplitAssemblyCostCents: number | null, replitOnlyCostCents: number | null) => ({
  wolfpackCostCents,
  wolfpackReplitAssemblyCostCents,
  replitOnlyCostCents,
});

describe('modelATotalCents', () => {
  it('adds the Wolfpack cost and the assembly cost', () => {
    expect(modelATotalCents(costs(120, 180, null))).toBe(300);
    expect(modelATotalCents(costs(0, 0, null))).toBe(0);
  });
  it('is unknown while either part is', () => {
    expect(modelATotalCents(costs(null, 180, null))).toBeNull();
    expect(modelATotalCents(costs(120, null, null))).toBeNull();
  });
});

describe('experimentSavingsPercent', () => {
  it('is Replit-only minus Model A, as a percent of Replit-only', () => {
    // Model A 300, Replit-only 2000: (2000 - 300) / 2000 = 85 %.
    expect(experimentSavingsPercent(costs(120, 180, 2000))).toBe(85);
    expect(experimentSavingsPercent(costs(0, 0, 1))).toBe(100);
    expect(experimentSavingsPercent(costs(500, 500, 1000))).toBe(0);
  });
  it('is negative when Model A costs more', () => {
    expect(experimentSavingsPercent(costs(900, 225, 1000))).toBe(-12.5);
    expect(experimentSavingsPercent(costs(2000, 0, 1000))).toBe(-100);
  });
  it('rounds to hundredths, half away from zero, exactly', () => {
    expect(experimentSavingsPercent(costs(2, 0, 3))).toBe(33.33); // 33.333…
    expect(experimentSavingsPercent(costs(1, 0, 3))).toBe(66.67); // 66.666…
    // 1/80000 = 0.00125 %: the half rounds away from zero, both ways.
    expect(experimentSavingsPercent(costs(79_999, 0, 80_000))).toBe(0);
    expect(experimentSavingsPercent(costs(0, 79_996, 80_000))).toBe(0.01); // 0.005 % → 0.01
    expect(experimentSavingsPercent(costs(80_004, 0, 80_000))).toBe(-0.01); // −0.005 % → −0.01
    // Floating point would give 14.285714… · 100 drift; integer arithmetic gives 57.14.
    expect(experimentSavingsPercent(costs(3, 0, 7))).toBe(57.14);
  });
  it('stays exact for the largest amounts', () => {
    expect(experimentSavingsPercent(costs(0, 1, 100_000_000))).toBe(100); // 99.999999 → 100.00
    expect(experimentSavingsPercent(costs(100_000_000, 100_000_000, 1))).toBe(-19_999_999_900);
  });
  it('is null when the Replit-only cost is 0 or any cost is unknown', () => {
    expect(experimentSavingsPercent(costs(100, 100, 0))).toBeNull();
    expect(experimentSavingsPercent(costs(null, 100, 1000))).toBeNull();
    expect(experimentSavingsPercent(costs(100, null, 1000))).toBeNull();
    expect(experimentSavingsPercent(costs(100, 100, null))).toBeNull();
  });
  it('refuses amounts that are not whole cents', () => {
    expect(() => experimentSavingsPercent(costs(1.5, 0, 10))).toThrow(RangeError);
    expect(() => experimentSavingsPercent(costs(1, -1, 10))).toThrow(RangeError);
  });
});

describe('experimentStatus', () => {
  it('follows the run, and is completed once the run is done and the costs are in', () => {
    expect(experimentStatus('running', false)).toBe('wolfpack_running');
    expect(experimentStatus('running', true)).toBe('wolfpack_running');
    expect(experimentStatus('completed', false)).toBe('wolfpack_complete');
    expect(experimentStatus('completed', true)).toBe('completed');
    expect(experimentStatus('failed', true)).toBe('wolfpack_failed');
    expect(experimentStatus('interrupted', false)).toBe('wolfpack_interrupted');
  });
});

describe('formatting', () => {
  it('shows statuses with spaces for underscores', () => {
    expect(formatExperimentStatus('wolfpack_running')).toBe('wolfpack running');
    expect(formatExperimentStatus('a_b_c')).toBe('a b c');
  });
  it('shows cents as dollars with 2 decimals', () => {
    expect(formatExperimentDollars(0)).toBe('$0.00');
    expect(formatExperimentDollars(5)).toBe('$0.05');
    expect(formatExperimentDollars(123_456)).toBe('$1234.56');
    expect(formatExperimentDollars(-250)).toBe('-$2.50');
  });
  it('shows savings with 2 decimals', () => {
    expect(formatSavingsPercent(85)).toBe('85.00%');
    expect(formatSavingsPercent(-12.5)).toBe('-12.50%');
  });
});
