// The step lines of Checking and Proven Code: a start line and an end line per step, sharing the
// step's id and start time, the end saying how it ended and after how long; clients find the steps
// still running and count their time from the start line.
import { describe, expect, it } from 'vitest';
import { runningElapsed, runningStepIds, stepEndLine, stepStartLine, type StepLine } from '../pipeline/step-progress.js';
import { logEvent } from '../schemas/events.js';
import { checkResult, skipped } from './check-context.js';
import { runStep, type StepWords } from './proof-steps.js';
import type { ExecCheck } from './report.js';

const INSTALL: StepWords = { running: 'Installing 12 dependencies', passed: 'Installed 12 dependencies', noun: 'Installing 12 dependencies' };
const passed = checkResult('tests', 'node', { status: 'passed', files: ['a.test.js'], summary: '3 tests passed' });
const failed = checkResult('tests', 'node', { status: 'failed', files: ['a.test.js'], problems: [{ path: 'a.test.js', message: 'test "adds" failed: expected 3' }] });
const outOfTime = "the project's 20 s time budget for running code was used up by the checks before it";

/** Runs `work` as a step that takes `ms`, and gives the lines it sent. */
async function linesOf(work: () => Promise<ExecCheck[]>, context: { signal?: AbortSignal; budget?: { spentReason(): string } } = {}, ms = 30): Promise<StepLine[]> {
  const lines: StepLine[] = [];
  await runStep({ step: (line) => lines.push(line), ...context }, INSTALL, async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return work();
  }, (c) => c).catch(() => undefined);
  return lines;
}

describe('runStep', () => {
  it('sends a start line, then an end line with the time the step took, both of the same step', async () => {
    const before = Date.now();
    const [start, end, ...rest] = await linesOf(async () => [passed], {}, 120);
    expect(rest).toEqual([]);
    expect(start).toMatchObject({ level: 'info', message: 'Installing 12 dependencies…', step: { state: 'running' } });
    expect(start!.step.elapsedMs).toBeUndefined();
    expect(Date.parse(start!.step.startedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(end!.step).toMatchObject({ id: start!.step.id, state: 'passed', startedAt: start!.step.startedAt });
    expect(end!.step.elapsedMs).toBeGreaterThanOrEqual(115);
    expect(end!.step.elapsedMs).toBeLessThan(2000);
    expect(end!.level).toBe('success');
    expect(end!.message).toMatch(/^Installed 12 dependencies in 0\.\d s$/);
    // Both lines are valid feed events.
    for (const line of [start!, end!]) expect(logEvent.parse({ type: 'log', id: 'x', timestamp: new Date().toISOString(), ...line }).step).toEqual(line.step);
  });

  it('ends failed with the first problem when a check failed, even beside one that passed', async () => {
    const [, end] = await linesOf(async () => [passed, failed]);
    expect(end).toMatchObject({ level: 'warning', step: { state: 'failed' } });
    expect(end!.message).toMatch(/^Installing 12 dependencies failed in 0\.\d s: test "adds" failed: expected 3$/);
  });

  it('ends skipped with the reason when nothing passed or failed', async () => {
    const [, end] = await linesOf(async () => [skipped('tests', 'node', [], 'the tests could not run here: no network')]);
    expect(end).toMatchObject({ level: 'info', step: { state: 'skipped' } });
    expect(end!.message).toMatch(/^Installing 12 dependencies skipped after 0\.\d s: the tests could not run here: no network$/);
  });

  it('ends stopped when the time budget ran out (a deadline) or the run was stopped (an abort)', async () => {
    const [, deadline] = await linesOf(async () => [skipped('tests', 'node', [], outOfTime)], { budget: { spentReason: () => outOfTime } });
    expect(deadline).toMatchObject({ level: 'warning', step: { state: 'stopped' } });
    expect(deadline!.message).toContain(`stopped after 0.`);
    expect(deadline!.message).toContain(outOfTime);
    const controller = new AbortController();
    const [, aborted] = await linesOf(async () => {
      controller.abort();
      return [failed];
    }, { signal: controller.signal });
    expect(aborted!.step.state).toBe('stopped');
    expect(aborted!.message).toMatch(/^Installing 12 dependencies stopped after 0\.\d s: the run was stopped$/);
  });

  it('ends the line of a step that threw, and the error goes on', async () => {
    const lines: StepLine[] = [];
    const thrown = runStep({ step: (line) => lines.push(line) }, INSTALL, () => Promise.reject(new Error('npm crashed')), () => []);
    await expect(thrown).rejects.toThrow('npm crashed');
    expect(lines.map((l) => l.step.state)).toEqual(['running', 'failed']);
    expect(lines[1]!.message).toMatch(/failed in 0\.\d s: npm crashed$/);
  });

  it('says the passed line from the checks when the words depend on them', async () => {
    const lines: StepLine[] = [];
    const words: StepWords = { running: 'Running the tests', passed: (checks) => checks[0]?.summary ?? 'Tests passed', noun: 'Tests' };
    await runStep({ step: (line) => lines.push(line) }, words, async () => [passed], (c) => c);
    expect(lines[1]!.message).toMatch(/^3 tests passed in 0\.\d s$/);
  });

  it('only runs the work when no one listens', async () => {
    expect(await runStep({}, INSTALL, async () => 7, () => [])).toBe(7);
  });
});

describe('step lines on the client', () => {
  const startedAt = new Date('2026-12-05T03:00:00.000Z');
  const start = stepStartLine('Type checking 4 TypeScript files', 'a', startedAt);
  const end = stepEndLine('Type check', 'a', startedAt, 3140, { state: 'failed', why: '2 type errors, first in src/a.ts: x' });
  const other = stepStartLine('Running the tests', 'b', startedAt);

  it('ends a line with its seconds, one decimal', () => {
    expect(end.message).toBe('Type check failed in 3.1 s: 2 type errors, first in src/a.ts: x');
    expect(stepEndLine('Build', 'c', startedAt, 4249, { state: 'passed', done: 'Built the app with vite' }).message).toBe('Built the app with vite in 4.2 s');
  });

  it('finds the steps still running: a start line whose end line has not come', () => {
    expect([...runningStepIds([start, other])]).toEqual(['a', 'b']);
    expect([...runningStepIds([start, other, end])]).toEqual(['b']);
    // Newest first, as the feed shows them, gives the same.
    expect([...runningStepIds([end, other, start])]).toEqual(['b']);
    // Lines of runs stored before steps have none.
    expect(runningStepIds([{ step: undefined }, {}]).size).toBe(0);
  });

  it('counts a running step in whole seconds from its start, never below zero', () => {
    expect(runningElapsed(start.step.startedAt, startedAt.getTime() + 7900)).toBe('7 s');
    expect(runningElapsed(start.step.startedAt, startedAt.getTime() - 2000)).toBe('0 s');
    expect(runningElapsed('not a date', Date.now())).toBe('');
  });
});
