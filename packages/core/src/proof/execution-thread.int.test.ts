// Proven Code on its own thread: the reports are those of executeProject on the main thread, an
// abort reaches the sandbox, a thread that ends fails its jobs and the next job gets a new one,
// and an idle thread ends by itself.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { executeProject } from './execute-project.js';
import { ExecutionThread } from './execution-thread.js';
import { staticPage } from './fixtures/correct.js';
import { pageUncaughtException } from './fixtures/faulty.js';
import type { ExecutionReport } from './report.js';
import type { StepLine } from './proof-steps.js';

const bwrapInstalled = needTool({ tool: 'bubblewrap', available: existsSync('/usr/bin/bwrap') }, 'Proven Code on its own thread');
const chromiumInstalled =
  bwrapInstalled && needTool({ tool: 'chromium', available: existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') }, "Proven Code's page checks on its own thread");

/** What a report says, without its timings (a skipped check's reason included, so a mismatch says why). */
const said = (report: ExecutionReport) => ({
  executed: report.executed,
  notExecutedReason: report.notExecutedReason,
  checks: report.checks.map(({ check, runtime, status, files, summary, reason, problems }) => ({ check, runtime, status, files, summary, reason, problems })),
});

/** A Node program that never ends by itself: its start is watched for the whole start window. */
const runsForever = {
  'package.json': JSON.stringify({ name: 'forever', private: true, scripts: { start: 'node index.js' } }),
  'index.js': "setInterval(() => console.log('still here'), 1000);\n",
};
/** A Node program that prints and ends. */
const printsOnce = { 'index.js': "console.log('hello');\n" };
const noSandbox = { ...process.env, WOLFPACK_SANDBOX: 'off' };

let thread: ExecutionThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

describe.skipIf(!chromiumInstalled)('ExecutionThread: pages checked in Chromium', () => {
  it('reports what executeProject on this thread reports, a correct page and a broken one', { timeout: 120_000 }, async () => {
    thread = new ExecutionThread();
    for (const files of [staticPage, pageUncaughtException.files]) {
      // One after the other: two Chromiums starting at once on a busy 2-core machine is a test of
      // the machine, not of the thread.
      const here = await executeProject(files);
      const there = await thread.execute(files);
      expect(said(there)).toEqual(said(here));
    }
    const broken = await thread.execute(pageUncaughtException.files);
    const failed = broken.checks.find((c) => c.check === 'page-load' && c.status === 'failed');
    expect(failed?.problems[0]).toMatchObject({ path: 'app.js', line: 4 });
    expect(failed?.problems[0]?.message).toMatch(/uncaught ReferenceError: renderItem is not defined/);
  });
});

describe.skipIf(!bwrapInstalled)('ExecutionThread: the sandbox from the thread', () => {
  it("passes the caller's abort on: a program watched for its start window stops when asked", { timeout: 60_000 }, async () => {
    thread = new ExecutionThread();
    const controller = new AbortController();
    const states: string[] = [];
    // Aborted as soon as the thread says the start is being watched: an event, not a guessed
    // delay, so a busy machine cannot turn it into a race with the window.
    const aborting = thread.execute(runsForever, {
      startMs: 30_000,
      signal: controller.signal,
      onStep: ({ step }) => {
        states.push(step.state);
        if (step.state === 'running') controller.abort();
      },
    });
    await aborting.catch(() => undefined);
    // 'stopped', not 'passed' at the window's end: the abort reached the sandbox on the thread.
    expect(states).toEqual(['running', 'stopped']);
    expect(thread.running).toBe(0);
  });

  it("tells each step from the thread as it starts and ends, and a step cut short by an abort ends 'stopped'", { timeout: 60_000 }, async () => {
    thread = new ExecutionThread();
    const lines: StepLine[] = [];
    const passed = await thread.execute(printsOnce, { onStep: (line) => lines.push(line) });
    expect(passed.checks.find((c) => c.check === 'start')).toMatchObject({ status: 'passed' });
    expect(lines.map((l) => [l.step.state, l.message.replace(/\d+\.\d s/, 'N s')])).toEqual([
      ['running', 'Starting the app…'],
      ['passed', 'Started the app in N s'],
    ]);
    expect(lines[1]!.step).toMatchObject({ id: lines[0]!.step.id, startedAt: lines[0]!.step.startedAt });

    lines.length = 0;
    const controller = new AbortController();
    const aborting = thread.execute(runsForever, { startMs: 10_000, signal: controller.signal, onStep: (line) => lines.push(line) });
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await aborting.catch(() => undefined);
    expect(lines.map((l) => l.step.state)).toEqual(['running', 'stopped']);
    expect(lines[1]!.message).toMatch(/^Start stopped after \d+\.\d s: the run was stopped$/);
    expect(lines[1]!.step.elapsedMs).toBeLessThan(10_000);
  });

  it("ends a step cut short by the project's time budget 'stopped', with the budget's reason", { timeout: 60_000 }, async () => {
    thread = new ExecutionThread();
    const lines: StepLine[] = [];
    const slowTest = {
      'package.json': JSON.stringify({ name: 'slow', private: true, scripts: { test: 'node --test' } }),
      'test/slow.test.js': "import test from 'node:test';\n\ntest('waits', async () => {\n  await new Promise((resolve) => setTimeout(resolve, 20_000));\n});\n",
    };
    await thread.execute(slowTest, { timeLimitMs: 2000, onStep: (line) => lines.push(line) });
    const ended = lines.find((l) => l.step.state !== 'running')!;
    expect(lines[0]!.message).toBe('Running the tests…');
    expect(ended.step.state).toBe('stopped');
    expect(ended.message).toMatch(/^Tests stopped after \d+\.\d s: the project's 2 s time budget for running code was used up/);
    expect(ended.step.elapsedMs).toBeGreaterThanOrEqual(1500);
    expect(ended.step.elapsedMs).toBeLessThan(15_000);
  });

  it('fails the jobs of a thread that ends, and starts a new thread for the next job', { timeout: 60_000 }, async () => {
    thread = new ExecutionThread();
    const job = thread.execute(runsForever, { startMs: 10_000 }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(thread.running).toBe(1);
    await thread.close();
    expect(await job).toBe("Proven Code's checks were stopped: the server is closing");
    expect(thread.running).toBe(0);
    expect(thread.alive).toBe(false);
    const next = await thread.execute(printsOnce);
    expect(next.checks.find((c) => c.check === 'start')).toMatchObject({ status: 'passed' });
    expect(thread.alive).toBe(true);
  });

  it('ends an idle thread after its idle time, and a new job starts one again', { timeout: 60_000 }, async () => {
    let ended = 0;
    let told!: () => void;
    const endedOnce = new Promise<void>((resolve) => (told = resolve));
    thread = new ExecutionThread({ idleMs: 100, onIdleEnd: () => (ended++, told()) });
    await thread.execute(printsOnce);
    expect(thread.alive).toBe(true);
    expect(ended).toBe(0);
    // Told once it has ended, however long the machine takes to end it.
    await endedOnce;
    expect(thread.alive).toBe(false);
    expect(ended).toBe(1);
    expect((await thread.execute(printsOnce)).executed).toBe(true);
  });

  it('sends the thread nothing it cannot take: a sandbox object is left out, the thread finds its own', { timeout: 60_000 }, async () => {
    thread = new ExecutionThread();
    const sandbox = { run: () => Promise.reject(new Error('not this one')) };
    const report = await thread.execute(printsOnce, { sandbox } as never);
    expect(report.checks.find((c) => c.check === 'start')).toMatchObject({ status: 'passed' });
  });
});

describe('ExecutionThread: the sandbox turned off', () => {
  it('answers as executeProject does, without starting a thread for it', async () => {
    thread = new ExecutionThread();
    const [here, there] = await Promise.all([executeProject(staticPage, { env: noSandbox }), thread.execute(staticPage, { env: noSandbox })]);
    expect(there.executed).toBe(false);
    expect(there.notExecutedReason).toMatch(/^not executed: no sandbox on this server/);
    expect(said(there)).toEqual(said(here));
    expect(thread.alive).toBe(false);
  });
});
