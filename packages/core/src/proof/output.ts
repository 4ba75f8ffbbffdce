/**
 * Turning what a sandboxed program printed into problems a person (and a repair prompt) can act
 * on: the project file and line a stack trace points at, and the output trimmed to what shows it.
 */
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import type { SandboxResult } from './sandbox.js';
import type { ExecProblem } from './report.js';

/** About 2 KB: enough for an assertion and the top of its stack, small enough for a prompt. */
export const MAX_PROBLEM_OUTPUT = 2000;

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Text without terminal colour codes (some tools keep them on whatever NO_COLOR says). */
export const withoutColours = (text: string): string => text.replace(ANSI, '');
// Frames inside the runtime say nothing about the project and crowd out those that do.
// Node prints `at fn (node:internal/…)`; its TAP reporter the same without `at`.
const RUNTIME_FRAME = /^\s*((at\s+)?\S.*\((node:|internal\/)[^)]*\)|(at\s+)?(node:|internal\/)\S+|at new Promise \(<anonymous>\)|File "\/usr\/lib\/python3[^"]*", line \d+.*)\s*$/;

/**
 * Output without colour codes and runtime-internal stack frames, and with the project folder as
 * the user knows it (relative paths), cut in the middle when longer than `max`.
 */
export function trimOutput(text: string, max = MAX_PROBLEM_OUTPUT): string {
  const cleaned = withoutColours(text)
    .split('\n')
    .filter((line) => !RUNTIME_FRAME.test(line))
    .join('\n')
    .replaceAll(`file://${SANDBOX_PROJECT_DIR}/`, '')
    .replaceAll(`${SANDBOX_PROJECT_DIR}/`, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (cleaned.length <= max) return cleaned;
  const head = Math.floor(max * 0.6);
  const tail = max - head - 30;
  return `${cleaned.slice(0, head)}\n… (${cleaned.length - head - tail} characters cut) …\n${cleaned.slice(-tail)}`;
}

export interface Location {
  path: string;
  line?: number;
}

// `/project/src/a.js:12:5`, `file:///project/src/a.js:12`, `File "/project/a.py", line 3`, and
// relative paths as tsc and test runners print them: `src/a.ts(3,5)`, `src/a.ts:3:5`.
const FRAME = new RegExp(
  String.raw`(?:(?:file://)?${SANDBOX_PROJECT_DIR}/|(?<![\w/.-]))([\w.-]+(?:/[\w.-]+)*)(?::(\d+)|", line (\d+)|\((\d+),\d+\))?`,
  'g',
);

/**
 * Project files a stack trace or error message points at, in the order printed, restricted to
 * files of the project (never node_modules). Node prints the innermost frame first, Python last.
 */
export function projectLocations(text: string, files: ReadonlySet<string>): Location[] {
  const found: Location[] = [];
  for (const match of text.matchAll(FRAME)) {
    const path = match[1]!;
    if (!files.has(path)) continue;
    const line = match[2] ?? match[3] ?? match[4];
    found.push(line !== undefined ? { path, line: Number(line) } : { path });
  }
  return found;
}

/** The most telling location: Node's first frame with a line, Python's last; else any mention. */
export function bestLocation(text: string, files: ReadonlySet<string>, order: 'first' | 'last'): Location | undefined {
  const all = projectLocations(text, files);
  const withLine = all.filter((l) => l.line !== undefined);
  const pick = order === 'first' ? withLine[0] : withLine[withLine.length - 1];
  return pick ?? all[0];
}

/** The line that says what went wrong: the last "SomethingError: …" line, else the last non-empty line. */
export function errorLine(text: string): string {
  const lines = text.replace(ANSI, '').split('\n').map((l) => l.trim()).filter(Boolean);
  const error = [...lines].reverse().find((l) => /^([\w.]*(Error|Exception)|AssertionError|panic|Traceback)\b.*:/.test(l) || /^\w*Error\b/.test(l));
  return (error ?? lines[lines.length - 1] ?? '').slice(0, 300);
}

/** Both streams, stderr first (where the error usually is). */
export function combinedOutput(result: SandboxResult): string {
  return [result.stderr, result.stdout].filter((s) => s.trim() !== '').join('\n');
}

/** Seconds, to a tenth, for sentences. */
export const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** A sentence for a run ended by a limit, e.g. "it was stopped after 15 s (the time limit)". */
export function limitSentence(result: SandboxResult, wallMs: number): string | undefined {
  switch (result.stopped) {
    case 'time':
      return result.givenBackMs
        ? `it was still running after ${seconds(wallMs + result.givenBackMs)} s (its ${seconds(wallMs)} s, and ${seconds(result.givenBackMs)} s more for the time it waited for a CPU on a busy machine) and was stopped (the time limit)`
        : `it was still running after ${seconds(wallMs)} s and was stopped (the time limit)`;
    case 'cpu':
      return 'it used up its CPU time and was stopped';
    case 'cpu-budget':
      return 'it kept the CPU busy past its budget and was stopped (the preview CPU limit)';
    case 'memory':
      return 'it ran out of memory (the sandbox memory limit)';
    case 'output':
      return 'it printed more than the output limit and was stopped';
    case 'processes':
      return 'it started more processes than the sandbox allows (the process limit)';
    case 'file-size':
      return 'it wrote a file larger than the sandbox allows';
    case 'disk':
      return 'it filled the disk space the sandbox gives it (its copy or /tmp was full)';
    case 'aborted':
      return 'the run was cancelled';
    default:
      return undefined;
  }
}

/**
 * One problem from a failed run: located by its stack trace (falling back to `fallbackPath`),
 * with the error line as message unless a better one is given, and the trimmed output.
 */
export function problemFromRun(
  result: SandboxResult,
  options: { files: ReadonlySet<string>; fallbackPath: string; order: 'first' | 'last'; message?: string; command: string },
): ExecProblem {
  const output = combinedOutput(result);
  const location = bestLocation(output, options.files, options.order) ?? { path: options.fallbackPath };
  const message = options.message ?? (errorLine(output) || `it exited with status ${result.exitCode ?? result.signal}`);
  return { ...location, message, command: options.command, output: trimOutput(output) };
}
