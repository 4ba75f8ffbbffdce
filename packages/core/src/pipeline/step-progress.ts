/**
 * The steps of Checking and Proven Code (an install, the type check, a build…) as Activity Feed
 * lines, and what clients need to show them live: a step's start line and end line share its id
 * and start time, and while no end line has arrived a client counts the running line's elapsed
 * time itself from `startedAt`, so the server sends two lines a step, not one a second.
 */
import type { LogLevel, LogStep } from '../schemas/events.js';

/** One feed line of a step: what it says, at which level, and the step it belongs to. */
export interface StepLine {
  level: LogLevel;
  message: string;
  step: LogStep;
}

/** Where step lines go (the pipeline turns them into `log` events). */
export type StepSink = (line: StepLine) => void;

/** How a step ended: passed (`done`: "Installed 12 dependencies"), or not, and why. */
export type StepEnd = { state: 'passed'; done: string } | { state: 'failed' | 'skipped' | 'stopped'; why: string };

/** Seconds with one decimal, as a finished step's line says its time: "4.2 s". */
export function stepSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

const WHY_CHARS = 160;

function shortWhy(why: string): string {
  const line = why.split('\n')[0]!.trim();
  return line.length > WHY_CHARS ? `${line.slice(0, WHY_CHARS - 1)}…` : line;
}

/** The line a step starts with: "Installing 12 dependencies…". */
export function stepStartLine(running: string, id: string, startedAt: Date): StepLine {
  return { level: 'info', message: `${running}…`, step: { id, state: 'running', startedAt: startedAt.toISOString() } };
}

/**
 * The line a step ends with, saying how it ended and after how long: "Installed 12 dependencies in
 * 4.2 s", "Type check failed in 3.1 s: …", "Tests stopped after 9.0 s: the run was stopped".
 * `noun` names the step in the endings other than a pass ("Type check").
 */
export function stepEndLine(noun: string, id: string, startedAt: Date, elapsedMs: number, end: StepEnd): StepLine {
  const ms = Math.max(0, Math.round(elapsedMs));
  const time = stepSeconds(ms);
  const step: LogStep = { id, state: end.state, startedAt: startedAt.toISOString(), elapsedMs: ms };
  switch (end.state) {
    case 'passed':
      return { level: 'success', message: `${end.done} in ${time}`, step };
    case 'failed':
      return { level: 'warning', message: `${noun} failed in ${time}: ${shortWhy(end.why)}`, step };
    case 'skipped':
      return { level: 'info', message: `${noun} skipped after ${time}: ${shortWhy(end.why)}`, step };
    case 'stopped':
      return { level: 'warning', message: `${noun} stopped after ${time}: ${shortWhy(end.why)}`, step };
    default: {
      const unreachable: never = end;
      return unreachable;
    }
  }
}

/** A running step's elapsed time in whole seconds ("7 s"), from its start to `nowMs`; never negative (clocks differ). */
export function runningElapsed(startedAt: string, nowMs: number): string {
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return '';
  return `${Math.max(0, Math.floor((nowMs - start) / 1000))} s`;
}

/** The ids of steps whose start line is among these lines and whose end line is not. */
export function runningStepIds(lines: Iterable<{ step?: LogStep | undefined }>): Set<string> {
  const running = new Set<string>();
  const ended = new Set<string>();
  for (const { step } of lines) {
    if (!step) continue;
    if (step.state !== 'running') {
      ended.add(step.id);
      running.delete(step.id);
    } else if (!ended.has(step.id)) running.add(step.id);
  }
  return running;
}
