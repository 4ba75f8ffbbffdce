/**
 * The steps of Proven Code's execution (and of Checking's, which runs the same gate) as Activity
 * Feed lines: one when a step starts ("Installing 12 dependencies…"), one when it ends ("Installed
 * 12 dependencies in 4.2 s", "Tests failed in 3.1 s: …"). See step-progress.ts for the lines.
 */
import { randomUUID } from 'node:crypto';
import { stepEndLine, stepStartLine, type StepEnd, type StepSink } from '../pipeline/step-progress.js';
import type { ExecCheck } from './report.js';

export type { StepLine, StepSink } from '../pipeline/step-progress.js';

/** How a step is named: while it runs, when it passed, and as the subject of the other endings. */
export interface StepWords {
  /** "Installing 12 dependencies" (the line adds the ellipsis). */
  running: string;
  /** "Installed 12 dependencies" (the line adds " in 4.2 s"); a function when it depends on the checks. */
  passed: string | ((checks: readonly ExecCheck[]) => string);
  /** "Install", for "Install failed in 4.2 s", "Install stopped after 4.2 s". */
  noun: string;
}

/**
 * How the checks of a step ended: failed when one failed (with its first problem), passed when one
 * passed and none failed, else skipped (with the first reason). `aborted` (the run was stopped)
 * and a skip for `outOfTimeReason` (the project's time budget ran out) end it as stopped.
 */
export function stepOutcome(words: StepWords, checks: readonly ExecCheck[], cut: { aborted?: boolean; outOfTimeReason?: string } = {}): StepEnd {
  const failed = checks.find((c) => c.status === 'failed');
  if (!failed && checks.some((c) => c.status === 'passed')) return { state: 'passed', done: typeof words.passed === 'function' ? words.passed(checks) : words.passed };
  if (cut.aborted) return { state: 'stopped', why: 'the run was stopped' };
  if (failed) return { state: 'failed', why: failed.problems[0]?.message ?? failed.summary ?? 'see the report' };
  const reason = checks.find((c) => c.reason)?.reason ?? 'nothing ran';
  return { state: cut.outOfTimeReason !== undefined && reason === cut.outOfTimeReason ? 'stopped' : 'skipped', why: reason };
}

/** What {@link runStep} needs of a check's context (a CheckContext has it). */
export interface StepContext {
  step?: StepSink;
  signal?: AbortSignal;
  /** Says the reason a check gives when the project's time budget ran out (a deadline, not the project's fault). */
  budget?: { spentReason(): string };
}

/**
 * Runs `work` as one step: its start line, then its end line from the checks it gave (`checksOf`).
 * Without a sink it only runs `work`. A step that throws ends as stopped (aborted) or failed, and
 * the error goes on.
 */
export async function runStep<T>(ctx: StepContext, words: StepWords, work: () => Promise<T>, checksOf: (result: T) => readonly ExecCheck[]): Promise<T> {
  const sink = ctx.step;
  if (!sink) return work();
  const id = randomUUID();
  const startedAt = new Date();
  const started = performance.now();
  sink(stepStartLine(words.running, id, startedAt));
  let end: StepEnd | undefined;
  try {
    const result = await work();
    end = stepOutcome(words, checksOf(result), { aborted: ctx.signal?.aborted === true, ...(ctx.budget ? { outOfTimeReason: ctx.budget.spentReason() } : {}) });
    return result;
  } catch (error) {
    end = ctx.signal?.aborted ? { state: 'stopped', why: 'the run was stopped' } : { state: 'failed', why: error instanceof Error ? error.message : String(error) };
    throw error;
  } finally {
    sink(stepEndLine(words.noun, id, startedAt, performance.now() - started, end ?? { state: 'stopped', why: 'the run was stopped' }));
  }
}
