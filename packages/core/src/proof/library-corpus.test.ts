/**
 * The library corpus (correct projects using zod, React, Koa, a Prisma client, date-fns, lodash,
 * axios) through the real pipeline where nothing can be installed: the static checks alone, and
 * the execution gate with the sandbox off. Their types are then checked against stand-ins, which
 * must not cost a single repair call. And the pipeline's type check reads the packages an extra
 * check says it installed (library-corpus.int.test.ts does it with the real gate and npm).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_CASES, LIBRARY_MISUSE_CASES } from '../pipeline/faults/cases-libraries.js';
import { runFaultCase, type FaultResult } from '../pipeline/faults/index.js';
import type { ProjectCheck } from '../pipeline/verify.js';
import { createExecutionGate } from './execution-gate.js';
import { writeLibraryNodeModules } from './testing/library-packages.js';

const explain = (result: FaultResult) => `${result.id}: ${result.notes.join('; ') || 'ok'} (problems: ${result.problems.join(' | ') || 'none'})`;
const cases = LIBRARY_CASES.map((c) => [c.id, c] as const);

describe('the library corpus where nothing can be installed: types against stand-ins', () => {
  it.each(cases)('%s passes the static checks clean', async (_id, fault) => {
    const { result } = await runFaultCase(fault);
    expect(result.ok, explain(result)).toBe(true);
    expect(result).toMatchObject({ passed: true, problems: [], repairCalls: 0, completionCalls: 0 });
  }, 30_000);

  it.each(cases)('%s passes the gate clean with the sandbox off', async (_id, fault) => {
    const gate = createExecutionGate({ env: { WOLFPACK_SANDBOX: 'off' } });
    const { result, outcome } = await runFaultCase(fault, { verify: gate.check });
    expect(result.ok, explain(result)).toBe(true);
    expect(result.repairCalls).toBe(0);
    // No stand-in's false alarm (the TS2702, "'z' only refers to a type") on any file.
    expect(outcome.staticReport.problems).toEqual([]);
    const report = await gate.reportFor(outcome.files);
    expect(report).toMatchObject({ executed: false, notExecutedReason: expect.stringContaining('WOLFPACK_SANDBOX=off') });
    expect(report.nodeModules).toBeUndefined();
  }, 30_000);
});

describe('the pipeline type-checks against the packages its extra check installed', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'wolfpack-library-corpus-'));
  const nodeModules = join(scratch, 'node_modules');
  beforeAll(() => writeLibraryNodeModules(nodeModules), 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  /** An extra check that ran nothing and installed the dependencies: only the type check changes. */
  const installedOnly: ProjectCheck = async () => ({ checked: [], problems: [], nodeModules });

  it.each(cases)('%s passes clean with no repair call', async (_id, fault) => {
    const { result } = await runFaultCase(fault, { verify: installedOnly });
    expect(result.ok, explain(result)).toBe(true);
    expect(result.repairCalls).toBe(0);
  }, 30_000);

  it.each(LIBRARY_MISUSE_CASES.map((c) => [c.id, c] as const))('%s is found by the type check and repaired in one round', async (_id, fault) => {
    const { result, calls } = await runFaultCase(fault, { verify: installedOnly });
    expect(result.ok, explain(result)).toBe(true);
    expect(result).toMatchObject({ detected: true, repaired: true, repairCalls: 1 });
    expect(calls.find((c) => c.kind === 'repair')!.user).toMatch(fault.expect!);
  }, 30_000);

  it('without installed packages the same misuse is invisible: stand-ins type the package any', async () => {
    const { result } = await runFaultCase(LIBRARY_MISUSE_CASES[0]!, { verify: async () => ({ checked: [], problems: [] }) });
    expect(result.detected).toBe(false);
    expect(result.notes).toContain('the run says the project passed, but the defect is still there');
  });
});
