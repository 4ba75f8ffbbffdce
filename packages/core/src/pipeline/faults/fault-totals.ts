/** The corpus totals and targets, shared by faults.test.ts and `pnpm bench proof`. */
import type { FaultCase, FaultResult } from './fault-case.js';

export interface FaultTotals {
  /** Cases run (skipped ones excluded). */
  run: number;
  faults: number;
  detected: number;
  repaired: number;
  /** Fault cases whose engine fixes what it is told, and how many of them were repaired. */
  fixable: number;
  fixableRepaired: number;
  honest: number;
  correct: number;
  correctClean: number;
  /** Each target, met or not. */
  targets: {
    /** Every fault repaired within two rounds or reported failed with the problem named. */
    everyCase: boolean;
    /** At least 95 % repaired when the engine fixes what it is told. */
    repairRate: boolean;
    /** Every correct project passed with no problem and no repair call. */
    correctClean: boolean;
  };
}

export const REPAIR_RATE_TARGET = 0.95;

export function summarizeFaults(cases: readonly FaultCase[], results: readonly FaultResult[]): FaultTotals {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const faults = results.filter((r) => r.detected !== null);
  const correct = results.filter((r) => r.detected === null);
  const fixable = faults.filter((r) => byId.get(r.id)?.engineFixes);
  const fixableRepaired = fixable.filter((r) => r.repaired).length;
  return {
    run: results.length,
    faults: faults.length,
    detected: faults.filter((r) => r.detected).length,
    repaired: faults.filter((r) => r.repaired).length,
    fixable: fixable.length,
    fixableRepaired,
    honest: faults.filter((r) => r.honest).length,
    correct: correct.length,
    correctClean: correct.filter((r) => r.ok).length,
    targets: {
      everyCase: faults.every((r) => r.ok),
      repairRate: fixable.length === 0 || fixableRepaired / fixable.length >= REPAIR_RATE_TARGET,
      correctClean: correct.every((r) => r.ok),
    },
  };
}
