/**
 * Bundled web apps through the real execution gate: installed with the real npm from a local
 * registry serving the real Vite, React and their dependencies (packed from this workspace), built
 * in the sandbox, rendered in Chromium in the sandbox. Correct apps pass clean with no repair
 * call; each defect is found at its source line and repaired, through the real pipeline.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_CASES } from '../pipeline/faults/cases-bundled.js';
import { runFaultCase } from '../pipeline/faults/index.js';
import { changed, REACT_JS, REACT_TS } from '../pipeline/faults/projects.js';
import { verifyProject } from '../pipeline/verify.js';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { buildVerificationRecord } from '../verification/verification-record.js';
import { createExecutionGate } from './execution-gate.js';
import { executeProject, type ExecuteOptions } from './execute-project.js';
import { dataRouterCrash, PROCESS_ENV_LINE, routerWithoutProvider, SAVED_MAP_LINE, USE_NAVIGATE_LINE, viteProcessEnv, viteRouterApp } from './fixtures/bundled.js';
import { executionProblems, type ExecCheck, type ExecutionReport } from './report.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from './testing/fake-npm-registry.js';
import { workspaceTree } from './testing/workspace-tree.js';

const sandboxed = needTool(await sandboxCheck(), 'the bundled-app checks (build and render in the sandbox)');

const check = (report: ExecutionReport, name: ExecCheck['check']) => report.checks.find((c) => c.check === name);

describe.skipIf(!sandboxed)('bundled web apps, built and rendered in the sandbox', () => {
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let options: ExecuteOptions;
  beforeAll(async () => {
    const packed = await workspaceTree(['vite@8', 'react@19', 'react-dom@19', '@vitejs/plugin-react@6', 'typescript@5', '@types/react@19', '@types/react-dom@19', 'react-router@7']);
    registry = await startFakeNpmRegistry({}, packed);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-bundle-test-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    // What is found, not how fast: a TypeScript app's own tsc -b, its two builds and Chromium took
    // 12-20 s of the default 20 s on this 2-core machine while other suites ran (load 7-12), a build
    // starved of CPU is given its wait back past its 30 s (up to 90 s), and a spent budget skips the
    // render. The budget has a test of its own below.
    options = { env: {}, install: { cacheDir, env: { npm_config_registry: registry.url } }, timeLimitMs: 120_000 };
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('builds a correct React + Vite + TypeScript app with its own build script and renders it with no errors, instead of starting its dev server', async () => {
    const report = await executeProject(REACT_TS, options);
    expect(registry.requests).toContain('/vite');
    // What went wrong, if anything did, before the shape of the check.
    expect(executionProblems(report).map((p) => `${p.check}: ${p.message}`)).toEqual([]);
    const summary = /^built with vite, and again in development mode for the render: \d+ files, \d+ KB$/;
    expect(check(report, 'build')).toMatchObject({ status: 'passed', runtime: 'web', command: 'npm run build (tsc -b && vite build)', summary: expect.stringMatching(summary) });
    // The source maps say what the build covered.
    expect(check(report, 'build')!.files).toEqual(expect.arrayContaining(['index.html', 'src/App.tsx', 'src/main.tsx']));
    expect(check(report, 'render')).toMatchObject({ status: 'passed', summary: 'page rendered: 1 route, no errors (clicks and other interactions are not exercised)' });
    expect(check(report, 'start')).toMatchObject({ status: 'skipped', reason: 'the app is built with vite and its page rendered instead of starting its dev server' });
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    // Its build and render are what prove it: both run, it passes.
    expect(report.checks.filter((c) => c.proves).map((c) => c.check)).toEqual(['build', 'render']);
    expect(buildVerificationRecord({ version: 1, paths: Object.keys(REACT_TS), staticReport: verifyProject(REACT_TS), execution: report }).verdict).toBe('passed');
  }, 180_000);

  it('is unproven when the checks before its build used up the time budget, and says it was not built and rendered, and why', async () => {
    // A slow test spends the budget, as the checks before the build do on a busy server.
    const files = changed(REACT_TS, { 'test/slow.test.js': "import { test } from 'node:test';\n\ntest('takes its time', () => new Promise((resolve) => setTimeout(resolve, 10_000)));\n" });
    const report = await executeProject(files, { ...options, timeLimitMs: 2000 });
    const spent = "the project's 2 s time budget for running code was used up by the checks before it";
    expect(check(report, 'install')!.status).toBe('passed');
    expect(check(report, 'build')).toMatchObject({ status: 'skipped', reason: spent, proves: true });
    expect(check(report, 'render')).toMatchObject({ status: 'skipped', reason: spent, proves: true });
    const record = buildVerificationRecord({ version: 1, paths: Object.keys(files), staticReport: verifyProject(files), execution: report });
    expect(record.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(record.verdict).toBe('unproven');
    expect(record.notProven.startsWith(`the app was not built and rendered (${spent});`)).toBe(true);
  }, 180_000);

  it('names the source line of a crash in the first render, from the source maps', async () => {
    const crashing = BUNDLED_CASES.find((c) => c.id === 'render-crash-first-visit')!;
    const report = await executeProject(crashing.files, options);
    expect(check(report, 'build')!.status).toBe('passed');
    const render = check(report, 'render')!;
    expect(render.status).toBe('failed');
    const line = crashing.files['src/App.tsx']!.split('\n').findIndex((l) => l.includes('recent.map')) + 1;
    expect(render.problems[0]).toMatchObject({ path: 'src/App.tsx', line, message: "uncaught TypeError: Cannot read properties of null (reading 'map')" });
    // The stack is the source's too: no hashed bundle name where a map says better.
    expect(render.problems[0]!.output).toMatch(new RegExp(`src/App\\.tsx:${line}:\\d+`));
  }, 180_000);

  it("names React Router's own message and the source line when the app uses it outside a <Router>, from the development build", async () => {
    const report = await executeProject(routerWithoutProvider, options);
    expect(check(report, 'build')).toMatchObject({ status: 'passed', command: 'npm run build (tsc -b && vite build)' });
    const render = check(report, 'render')!;
    expect(render).toMatchObject({ status: 'failed', command: 'open index.html of NODE_ENV=development vite build --minify false --sourcemap in Chromium' });
    expect(render.problems).toHaveLength(1);
    expect(render.problems[0]).toMatchObject({ path: 'src/App.tsx', line: USE_NAVIGATE_LINE, message: 'uncaught Error: useNavigate() may be used only in the context of a <Router> component.' });
    // The stack reads as source: the app's line, and the package's frames by their package.
    expect(render.problems[0]!.output).toMatch(new RegExp(`at App \\(src/App\\.tsx:${USE_NAVIGATE_LINE}:\\d+\\)`));
    expect(render.problems[0]!.output).toMatch(/at useNavigate \(node_modules\/react-router\/dist\/development\/[\w.-]+\.mjs:\d+:\d+\)/);
  }, 180_000);

  it("places a crash React Router's error boundary only logs at the source line its stack names", async () => {
    const report = await executeProject(dataRouterCrash, options);
    const problems = check(report, 'render')!.problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatchObject({ path: 'src/Books.tsx', line: SAVED_MAP_LINE, message: expect.stringMatching(/^console error: .*TypeError: Cannot read properties of null \(reading 'map'\)$/) });
      expect(problem.output).toMatch(new RegExp(`at Books \\(src/Books\\.tsx:${SAVED_MAP_LINE}:\\d+\\)`));
    }
    expect(problems[0]!.message).toBe("console error: Error handled by React Router default ErrorBoundary: TypeError: Cannot read properties of null (reading 'map')");
  }, 180_000);

  it("fails the build where the project's own tsc -b does: browser code reading process.env without Node's types", async () => {
    const report = await executeProject(viteProcessEnv, options);
    const build = check(report, 'build')!;
    expect(build).toMatchObject({ status: 'failed', command: 'npm run build (tsc -b && vite build)' });
    // TS2591 is TS2580's wording when the tsconfig names its `types`.
    expect(build.problems).toEqual([expect.objectContaining({ path: 'src/App.tsx', line: PROCESS_ENV_LINE, message: expect.stringMatching(/^tsc failed in the build: TS25(80|91): Cannot find name 'process'\./) })]);
    expect(check(report, 'render')).toMatchObject({ status: 'skipped', reason: 'the vite build failed, so there was no page to render' });

    const correct = await executeProject(viteRouterApp, options);
    expect(correct.checks.filter((c) => c.status !== 'passed' && c.status !== 'skipped')).toEqual([]);
    expect(check(correct, 'render')).toMatchObject({ status: 'passed' });
  }, 180_000);

  it('reports a build error at the file and line the bundler names, and renders nothing', async () => {
    const broken = BUNDLED_CASES.find((c) => c.id === 'build-error-missing-export')!;
    const report = await executeProject(broken.files, options);
    const build = check(report, 'build')!;
    expect(build.status).toBe('failed');
    expect(build.problems[0]).toMatchObject({ path: 'src/App.jsx', line: 2, message: 'the vite build failed: [MISSING_EXPORT] "formatCount" is not exported by "src/format.js".' });
    expect(check(report, 'render')).toMatchObject({ status: 'skipped', reason: 'the vite build failed, so there was no page to render' });
  }, 180_000);

  it('finds an app that mounts nothing, an asset that is not there, and an unhandled rejection', async () => {
    const empty = await executeProject(BUNDLED_CASES.find((c) => c.id === 'empty-root')!.files, options);
    expect(check(empty, 'render')!.problems).toEqual([expect.objectContaining({ path: 'index.html', message: 'the app rendered nothing into #root: the page stays blank' })]);

    const missing = await executeProject(BUNDLED_CASES.find((c) => c.id === 'missing-asset')!.files, options);
    expect(check(missing, 'render')!.problems).toEqual([expect.objectContaining({ message: 'loads logo.svg, which is not in the project (404)' })]);

    const rejecting = changed(REACT_JS, {
      'src/main.jsx': `${REACT_JS['src/main.jsx']!}\nfetchTotals();\nasync function fetchTotals() {\n  throw new Error('totals are not ready');\n}\n`,
    });
    const rejected = await executeProject(rejecting, options);
    const thrown = rejecting['src/main.jsx']!.split('\n').findIndex((l) => l.includes('throw')) + 1;
    expect(check(rejected, 'render')!.problems).toEqual([expect.objectContaining({ path: 'src/main.jsx', line: thrown, message: 'uncaught Error: totals are not ready' })]);
  }, 180_000);

  it.each(BUNDLED_CASES.map((c) => [c.id, c] as const))('the corpus through the pipeline: %s', async (_id, fault) => {
    const gate = createExecutionGate(options);
    const { result, outcome } = await runFaultCase(fault, { verify: gate.check });
    expect(result.notes).toEqual([]);
    expect(result.ok).toBe(true);
    if (fault.defect === null) {
      // A false alarm costs money and trust: a correct app passes with no repair call.
      expect(outcome.verification.passed).toBe(true);
      expect(result.repairCalls).toBe(0);
    } else {
      expect(result.detected).toBe(true);
      expect(result.repaired).toBe(true);
      expect(result.repairCalls).toBeLessThanOrEqual(2);
    }
  }, 180_000);
});
