/**
 * The faulty-engine corpus through the real pipeline with the REAL execution gate: the defects
 * only running the code shows (a script that throws at start, a failing test, a Python syntax
 * error, a stub a test catches, a missing export, a page that throws) are found in the sandbox,
 * repaired within two rounds or reported with the problem named; correct projects of every kind
 * run clean, with no repair call. Node cases install their dependencies with the real npm from a
 * local registry (fake-npm-registry.ts: the registry's wire format over loopback) into a cache of
 * their own. Cases that need a real compiler or bundler from the registry (tsc, Vite) run in
 * `pnpm bench proof`, against the npm registry itself, with all the others.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_CASES, runFaultCase, type FaultCase } from '../pipeline/faults/index.js';
import { createExecutionGate } from './execution-gate.js';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { CORPUS_PACKAGES, startFakeNpmRegistry, type FakeNpmRegistry } from './testing/fake-npm-registry.js';

const sandboxed = needTool(await sandboxCheck(), 'the fault corpus with the execution gate');
/** Every package the project declares is one the local registry serves. */
const servable = (fault: FaultCase) => {
  const manifest = fault.files['package.json'];
  if (manifest === undefined) return true;
  try {
    const json = JSON.parse(manifest) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    return Object.keys({ ...json.dependencies, ...json.devDependencies }).every((name) => name in CORPUS_PACKAGES);
  } catch {
    return true;
  }
};
const cases = FAULT_CASES.filter((c) => (c.needsExecution || c.defect === null) && servable(c));

describe.skipIf(!sandboxed)('the corpus with the execution gate (bubblewrap)', () => {
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  beforeAll(async () => {
    registry = await startFakeNpmRegistry(CORPUS_PACKAGES);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-proof-test-deps-'));
    // The sandbox user reads the installed packages.
    await chmod(cacheDir, 0o755);
  });
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('covers the runtime defects and correct projects of every kind', () => {
    expect(cases.filter((c) => c.needsExecution).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.files['package.json']?.includes('"chalk"')).length).toBeGreaterThanOrEqual(4);
    expect(new Set(cases.filter((c) => c.defect === null).map((c) => c.kind))).toEqual(new Set(['node-js', 'python', 'static-web']));
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, fault) => {
    const gate = createExecutionGate({ env: {}, install: { cacheDir, env: { npm_config_registry: registry.url } } });
    const { result, outcome } = await runFaultCase(fault, { verify: gate.check });
    if (fault.files['package.json']?.includes('"chalk"')) expect(registry.requests).toContain('/chalk');
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
