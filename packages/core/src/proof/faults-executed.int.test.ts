/**
 * The faulty-engine corpus through the real pipeline with the REAL execution gate: the defects
 * only running the code shows (a script that throws at start, a failing test, a Python syntax
 * error, a stub a test catches, a missing export, a page that throws) are found in the sandbox,
 * repaired within two rounds or reported with the problem named; correct projects of every kind
 * run clean, with no repair call. Cases whose dependencies come from the npm registry are left to
 * `pnpm bench proof` (tests do not reach the registry).
 */
import { describe, expect, it } from 'vitest';
import { FAULT_CASES, runFaultCase, type FaultCase } from '../pipeline/faults/index.js';
import { createExecutionGate } from './execution-gate.js';
import { findSandbox } from './sandbox.js';

const sandbox = await findSandbox({ env: {} });
const needsRegistry = (fault: FaultCase) => /"(dependencies|devDependencies)"\s*:\s*\{\s*"/.test(fault.files['package.json'] ?? '');
const cases = FAULT_CASES.filter((c) => (c.needsExecution || c.defect === null) && !needsRegistry(c));

describe.skipIf(!('sandbox' in sandbox))('the corpus with the execution gate (bubblewrap)', () => {
  it('covers the runtime defects and correct projects that need no registry', () => {
    expect(cases.filter((c) => c.needsExecution).length).toBeGreaterThanOrEqual(3);
    expect(new Set(cases.filter((c) => c.defect === null).map((c) => c.kind))).toEqual(new Set(['python', 'static-web']));
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, fault) => {
    const gate = createExecutionGate({ env: {} });
    const { result, outcome } = await runFaultCase(fault, { verify: gate.check });
    expect(result.notes).toEqual([]);
    expect(result.ok).toBe(true);
    if (fault.defect === null) {
      // A false alarm costs money and trust: a correct project passes with no repair call.
      expect(outcome.verification.passed).toBe(true);
      expect(result.repairCalls).toBe(0);
      const report = await gate.reportFor(outcome.files);
      expect(report.executed).toBe(true);
      expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    } else {
      expect(result.detected).toBe(true);
      expect(result.honest).toBe(true);
    }
  }, 120_000);
});
