/**
 * The checks that prove a bundled app (its build and render), in the real sandbox: skipped for
 * want of time, the verdict is unproven and says why, whatever else passed; run, it passes. A
 * slow test spends the project's time budget first, as the checks before the build do on a busy
 * server.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changed, REACT_TS } from '../pipeline/faults/projects.js';
import { verifyProject } from '../pipeline/verify.js';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { buildVerificationRecord } from '../verification/verification-record.js';
import { executeProject, type ExecuteOptions } from './execute-project.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from './testing/fake-npm-registry.js';
import { workspaceTree } from './testing/workspace-tree.js';

const sandboxed = needTool(await sandboxCheck(), 'the proving checks of a bundled app (build and render in the sandbox)');

describe.skipIf(!sandboxed)('a bundled app is proven by its build and render', () => {
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let options: ExecuteOptions;
  beforeAll(async () => {
    const packed = await workspaceTree(['vite@8', 'react@19', 'react-dom@19', '@vitejs/plugin-react@6', 'typescript@5', '@types/react@19', '@types/react-dom@19']);
    registry = await startFakeNpmRegistry({}, packed);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-proving-test-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    options = { env: {}, install: { cacheDir, env: { npm_config_registry: registry.url } } };
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('is unproven when the time budget was used up before its build, and says it was not built and rendered, and why', async () => {
    const files = changed(REACT_TS, {
      'test/slow.test.js': "import { test } from 'node:test';\n\ntest('takes its time', () => new Promise((resolve) => setTimeout(resolve, 10_000)));\n",
    });
    const report = await executeProject(files, { ...options, timeLimitMs: 2000 });
    const spent = "the project's 2 s time budget for running code was used up by the checks before it";
    expect(report.executed).toBe(true);
    expect(report.checks.find((c) => c.check === 'install')).toMatchObject({ status: 'passed' });
    expect(report.checks.find((c) => c.check === 'build')).toMatchObject({ status: 'skipped', reason: spent, proves: true });
    expect(report.checks.find((c) => c.check === 'render')).toMatchObject({ status: 'skipped', reason: spent, proves: true });
    // Its dev server was never what proves it.
    expect(report.checks.find((c) => c.check === 'start')).not.toHaveProperty('proves');

    const record = buildVerificationRecord({ version: 1, paths: Object.keys(files), staticReport: verifyProject(files), execution: report });
    expect(record.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(record.verdict).toBe('unproven');
    expect(record.notProven).toMatch(new RegExp(`^the app was not built and rendered \\(${spent.replace(/[.()]/g, '\\$&')}\\);`));
  }, 180_000);

  it('passes once its build and render ran', async () => {
    const report = await executeProject(REACT_TS, options);
    expect(report.checks.filter((c) => c.proves).map((c) => [c.check, c.status])).toEqual([
      ['build', 'passed'],
      ['render', 'passed'],
    ]);
    const record = buildVerificationRecord({ version: 1, paths: Object.keys(REACT_TS), staticReport: verifyProject(REACT_TS), execution: report });
    expect(record.verdict).toBe('passed');
  }, 180_000);
});
