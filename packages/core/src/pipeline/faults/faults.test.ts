/**
 * The faulty-engine corpus through the real pipeline: every defect is detected, and either
 * repaired within two rounds or reported as failed with the problem named; correct projects pass
 * clean with no repair call. Cases that only running the code shows are run with a simulated
 * execution check, to prove the hook carries their problems into repairs and verdicts.
 */
import { describe, expect, it } from 'vitest';
import type { ProjectCheck } from '../verify.js';
import { FAULT_CASES, fixedFiles, runFaultCase, summarizeFaults, type FaultCase, type FaultResult } from './index.js';

const staticCases = FAULT_CASES.filter((c) => !c.needsExecution);
const runtimeCases = FAULT_CASES.filter((c) => c.needsExecution);
const results = new Map<string, FaultResult>();

function explain(result: FaultResult): string {
  return `${result.id}: ${result.notes.join('; ') || 'ok'} (problems: ${result.problems.join(' | ') || 'none'})`;
}

describe('the faulty-engine corpus, static checks only', () => {
  it('has unique ids, one defect or none per case, and correct projects of every kind', () => {
    expect(new Set(FAULT_CASES.map((c) => c.id)).size).toBe(FAULT_CASES.length);
    const correctKinds = new Set(FAULT_CASES.filter((c) => c.defect === null).map((c) => c.kind));
    expect([...correctKinds].sort()).toEqual(['bundled-web', 'node-js', 'node-ts', 'python', 'static-web']);
    expect(FAULT_CASES.filter((c) => c.defect !== null).every((c) => c.expect !== undefined)).toBe(true);
  });

  it.each(staticCases.map((c) => [c.id, c] as const))('%s', async (_id, fault) => {
    const { result } = await runFaultCase(fault);
    results.set(fault.id, result);
    expect(result.ok, explain(result)).toBe(true);
    if (fault.defect === null) {
      expect(result).toMatchObject({ passed: true, problems: [], repairCalls: 0, completionCalls: 0 });
    } else if (fault.engineFixes) {
      expect(result.repaired, explain(result)).toBe(true);
      expect(result.rounds).toBeLessThanOrEqual(2);
    } else {
      expect(result.passed).toBe(false);
      expect(result.problems.some((p) => fault.expect!.test(p)), explain(result)).toBe(true);
    }
  }, 30_000);

  it('meets the targets over the whole corpus', () => {
    const totals = summarizeFaults(staticCases, [...results.values()]);
    expect(totals.run).toBe(staticCases.length);
    expect(totals.targets).toEqual({ everyCase: true, repairRate: true, correctClean: true });
  });
});

/** Stands in for the execution gate: a problem on each file that still differs from the fix. */
function simulatedGate(fault: FaultCase): ProjectCheck {
  const fixed = fixedFiles(fault);
  return async (files) => {
    const broken = Object.keys(fault.fix?.files ?? {}).filter((p) => files[p] !== fixed[p]);
    return {
      checked: Object.keys(files).map((path) => ({ path, checks: ['start' as const] })),
      problems: broken.map((path) => ({ path, check: 'start' as const, message: `node ${path} exited with code 1 (simulated)` })),
    };
  };
}

describe('the runtime cases, with an execution check plugged in', () => {
  it.each(runtimeCases.map((c) => [c.id, c] as const))('%s', async (_id, fault) => {
    const { result, outcome } = await runFaultCase(fault, { verify: simulatedGate(fault) });
    expect(result.ok, explain(result)).toBe(true);
    expect(result.repaired).toBe(true);
    // Files the execution check ran count as checked, Python included.
    expect(outcome.verification.checkedFiles).toBe(Object.keys(outcome.files).length);
  }, 30_000);

  it('without one, the static checks pass them: that is why they are marked needsExecution', async () => {
    const { result } = await runFaultCase(runtimeCases[0]!);
    expect(result.passed).toBe(true);
    expect(result.notes).toContain('the run says the project passed, but the defect is still there');
  });
});
