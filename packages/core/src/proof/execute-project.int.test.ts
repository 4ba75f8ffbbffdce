// The execution gate on real projects in the real sandbox: correct projects of every kind pass
// clean, each faulty one fails naming the file, line and output, and without a sandbox nothing runs.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { executeProject } from './execute-project.js';
import { findExecutable } from './sandbox.js';
import type { ExecCheck, ExecutionReport } from './report.js';
import { correctProjects } from './fixtures/correct.js';
import { createsMarker, faultyProjects, needsDatabase, pythonNeedsFlask, tinyGreetPackage, usesLocalPackage } from './fixtures/faulty.js';

const bwrapInstalled = needTool({ tool: 'bubblewrap', available: existsSync('/usr/bin/bwrap') }, 'the execution gate on real projects');
const chromiumInstalled =
  bwrapInstalled && needTool({ tool: 'chromium', available: existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') }, 'the execution gate\'s page checks');

const scratch = mkdtempSync(join(tmpdir(), 'wolfpack-exec-test-'));
chmodSync(scratch, 0o755); // the dependency cache inside must be readable by the sandbox user
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const find = (report: ExecutionReport, check: ExecCheck['check'], runtime?: ExecCheck['runtime']) =>
  report.checks.filter((c) => c.check === check && (runtime === undefined || c.runtime === runtime));

describe.skipIf(!bwrapInstalled)('executeProject: correct projects pass clean', () => {
  const cases = Object.entries(correctProjects).filter(([name]) => chromiumInstalled || !['staticPage', 'storagePage'].includes(name));
  it.each(cases)('%s', { timeout: 30_000 }, async (_name, files) => {
    const report = await executeProject(files);
    expect(report.executed).toBe(true);
    const problems = report.checks.flatMap((c) => c.problems);
    expect(problems).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(report.checks.some((c) => c.status === 'passed')).toBe(true);
  });

  it('says what each correct project showed', { timeout: 60_000 }, async () => {
    const node = await executeProject(correctProjects.nodeJs);
    expect(find(node, 'tests')[0]).toMatchObject({ status: 'passed', tests: { passed: 2, failed: 0 }, files: ['test/sum.test.js'] });
    expect(find(node, 'start')[0]).toMatchObject({ status: 'passed', summary: 'ran and exited 0', files: ['src/index.js'] });
    const server = await executeProject(correctProjects.httpServer);
    const start = find(server, 'start')[0]!;
    // Listening ends the wait, not the 3 s window: that summary is given only for a run the
    // sandbox stopped because it listened (one still running at the deadline says "still running").
    expect(start).toMatchObject({ status: 'passed', summary: 'started and listened on a port' });
    const python = await executeProject(correctProjects.pythonCli);
    expect(find(python, 'tests')[0]).toMatchObject({ status: 'passed', tests: { passed: 3, failed: 0 } });
    expect(find(python, 'syntax')[0]!.files).toHaveLength(6);
    const usage = await executeProject(correctProjects.pythonNeedsArguments);
    expect(find(usage, 'start')[0]!.summary).toMatch(/printed its usage/);
    const interactive = await executeProject(correctProjects.pythonInteractive);
    expect(find(interactive, 'start')[0]!.summary).toMatch(/still running after 3 s/);
    if (chromiumInstalled) {
      // Its storage works where it is rendered, as in the preview: loaded with both its files, no errors.
      const storage = await executeProject(correctProjects.storagePage);
      expect(find(storage, 'page-load')[0]).toMatchObject({ status: 'passed', files: ['index.html', 'notes.js'] });
    }
  });
});

describe.skipIf(!bwrapInstalled)('executeProject: faulty projects fail, naming file, line and output', () => {
  const cases = Object.entries(faultyProjects).filter(([name]) => chromiumInstalled || !name.startsWith('page'));
  it.each(cases)('%s', { timeout: 30_000 }, async (_name, { files, expect: wanted }) => {
    const report = await executeProject(files);
    const failed = find(report, wanted.check).filter((c) => c.status === 'failed');
    expect(failed, JSON.stringify(report.checks, null, 1)).toHaveLength(1);
    const problem = failed[0]!.problems[0]!;
    expect(problem.path).toBe(wanted.path);
    if (wanted.line !== undefined) expect(problem.line).toBe(wanted.line);
    expect(problem.message).toMatch(wanted.message);
    expect(problem.command).toBeTruthy();
    if (wanted.output) expect(problem.output).toMatch(wanted.output);
    if (problem.output) expect(problem.output.length).toBeLessThanOrEqual(2100);
  });

  it('reports a Python file that needs an uninstallable package as skipped with the reason, never passed', { timeout: 30_000 }, async () => {
    const report = await executeProject(pythonNeedsFlask);
    const imports = find(report, 'imports');
    expect(imports).toContainEqual(expect.objectContaining({ status: 'skipped', files: ['app.py'], reason: expect.stringMatching(/needs package flask, which this server cannot install/) }));
    expect(imports).toContainEqual(expect.objectContaining({ status: 'passed', files: ['util.py'] }));
    expect(find(report, 'start')[0]).toMatchObject({ status: 'skipped', files: ['app.py'], reason: expect.stringMatching(/flask/) });
    // Only its syntax was proven; nothing that would need flask passed.
    expect(report.checks.filter((c) => c.status === 'passed' && c.check !== 'syntax').flatMap((c) => c.files)).not.toContain('app.py');
  });
});

describe.skipIf(!bwrapInstalled)('executeProject: what the sandbox lacks is not blamed on the project', () => {
  it('skips the start of a server whose database is not there, saying so', { timeout: 30_000 }, async () => {
    const report = await executeProject(needsDatabase);
    expect(find(report, 'start')[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/needs a service at 127\.0\.0\.1:5432/), problems: [] });
  });
});

describe('executeProject without a sandbox', () => {
  it('runs nothing, says why, and skips every check with that reason', async () => {
    const marker = join(scratch, 'marker.txt');
    const report = await executeProject(createsMarker(marker), { env: { WOLFPACK_SANDBOX: 'off' } });
    expect(report.executed).toBe(false);
    expect(report.notExecutedReason).toMatch(/^not executed: no sandbox on this server/);
    expect(report.checks.length).toBeGreaterThan(0);
    for (const check of report.checks) expect(check).toMatchObject({ status: 'skipped', reason: report.notExecutedReason, problems: [] });
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!bwrapInstalled)('executeProject: dependencies', () => {
  const writeTree = (dir: string, files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  // An unreachable registry proves the install never needs the network.
  const install = () => ({ cacheDir: join(scratch, 'deps-cache'), allowLocalPackagesIn: [scratch], env: { npm_config_registry: 'http://127.0.0.1:9/' } });

  it('installs outside the sandbox, then reuses the cache offline without running npm again', { timeout: 90_000 }, async () => {
    const pkg = join(scratch, 'tiny-greet');
    writeTree(pkg, tinyGreetPackage);
    // npm through a wrapper that counts its runs: what the cache saves is the install itself.
    const npmRuns = join(scratch, 'npm-runs.log');
    const npm = join(scratch, 'counting-npm');
    writeFileSync(npm, `#!/bin/sh\necho run >> '${npmRuns}'\nexec '${findExecutable('npm')}' "$@"\n`, { mode: 0o755 });
    const runs = () => (existsSync(npmRuns) ? readFileSync(npmRuns, 'utf8').split('\n').filter(Boolean).length : 0);
    const first = await executeProject(usesLocalPackage(pkg), { install: { ...install(), npmPath: npm } });
    expect(runs()).toBe(1);
    expect(find(first, 'install')[0]).toMatchObject({ status: 'passed', summary: '1 package installed' });
    expect(find(first, 'tests')[0]).toMatchObject({ status: 'passed', tests: { passed: 1, failed: 0 } });
    expect(find(first, 'start')[0]).toMatchObject({ status: 'passed' });
    const second = await executeProject(usesLocalPackage(pkg), { install: { ...install(), npmPath: npm } });
    const cached = find(second, 'install')[0]!;
    expect(cached).toMatchObject({ status: 'passed', summary: '1 package from the cache' });
    expect(runs()).toBe(1);
    expect(find(second, 'tests')[0]!.status).toBe('passed');
  });

  it('says why dependencies could not be installed and skips what needed them', { timeout: 60_000 }, async () => {
    const missing = await executeProject(usesLocalPackage(join(scratch, 'no-such-package')), { install: install() });
    const failed = find(missing, 'install')[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.problems[0]).toMatchObject({ path: 'package.json', message: expect.stringMatching(/^dependencies could not be installed: npm install failed/) });
    expect(find(missing, 'tests')[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^dependencies could not be installed/) });
    expect(find(missing, 'start')[0]!.status).toBe('skipped');

    const git = { ...usesLocalPackage(scratch), 'package.json': JSON.stringify({ dependencies: { evil: 'git+https://example.com/evil.git' } }) };
    const refused = await executeProject(git, { install: install() });
    expect(find(refused, 'install')[0]!.problems[0]!.message).toMatch(/installs packages from the npm registry only/);
  });
});

describe.skipIf(!bwrapInstalled)('executeProject: time budget', () => {
  it('skips what the project budget no longer covers, saying so', { timeout: 30_000 }, async () => {
    const slow = {
      'package.json': JSON.stringify({ scripts: { test: 'node --test', start: 'node index.js' } }),
      'test/slow.test.js': "const test = require('node:test');\ntest('waits', () => new Promise((r) => setTimeout(r, 5000)));\n",
      'index.js': 'console.log("hi");\n',
    };
    const report = await executeProject(slow, { timeLimitMs: 1500 });
    // The 5 s test was cut at what the budget had left: skipped "for the budget" is said only of
    // tests the sandbox stopped at a wall shorter than their own 15 s, and run to the end they pass.
    expect(find(report, 'tests')[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/time budget/) });
    expect(find(report, 'start')[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/time budget/) });
  });

  it("stops tests at the operator's command time limit and fails them, saying how long they had", { timeout: 30_000 }, async () => {
    const slow = {
      'package.json': JSON.stringify({ scripts: { test: 'node --test' } }),
      'test/slow.test.js': "const test = require('node:test');\ntest('waits', () => new Promise((r) => setTimeout(r, 30000)));\n",
    };
    const report = await executeProject(slow, { env: { WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS: '1500' } });
    const tests = find(report, 'tests')[0]!;
    expect(tests.status).toBe('failed');
    // On a busy machine the time its processes waited for a CPU is given back, and said.
    expect(tests.problems[0]!.message).toMatch(
      /^the tests did not finish: it was still running after (1\.5 s|[\d.]+ s \(its 1\.5 s, and [\d.]+ s more for the time it waited for a CPU on a busy machine\)) and was stopped \(the time limit\)$/,
    );
    // Stopped at the setting (plus at most twice as much run-queue wait given back on a busy
    // machine, and the sandbox's own start and stop), long before the test's 30 s.
    expect(tests.durationMs).toBeLessThan(15_000);
  });
});
