/**
 * What running a project proved, check by check. Shaped for the verification record: every check
 * says which files it covered, whether it passed, failed (with problems a repair prompt can
 * quote) or was skipped and why. A check may appear twice for one runtime when part of its files
 * ran and part could not (Python imports of packages this server cannot install).
 */

export type ExecCheckName = 'install' | 'syntax' | 'imports' | 'tests' | 'start' | 'page-load' | 'build' | 'render';
export type ExecRuntime = 'node' | 'python' | 'web';
export type ExecStatus = 'passed' | 'failed' | 'skipped';

export interface ExecProblem {
  /** Project-relative path of the file at fault (the test file, the module that threw, the page). */
  path: string;
  /** 1-based line, when the output names one. */
  line?: number;
  /** One sentence: what went wrong. */
  message: string;
  /** The command that showed it, as a person would type it in the project folder. */
  command?: string;
  /** Trimmed output that shows it: the stack trace, the failing assertion (at most ~2 KB). */
  output?: string;
}

export interface ExecCheck {
  check: ExecCheckName;
  runtime: ExecRuntime;
  status: ExecStatus;
  /** Files this check covered; for a skipped check, the files it would have covered. */
  files: string[];
  /** What ran, e.g. `node --test test/sum.test.js` or `npm test (vitest run)`. */
  command?: string;
  /** Why it was skipped, as a sentence. */
  reason?: string;
  /** What was shown, for a summary: "3 tests passed", "listened on a port", "ran and exited 0". */
  summary?: string;
  problems: ExecProblem[];
  durationMs: number;
  /** Test counts, when the runner's output gave them. */
  tests?: { passed: number; failed: number };
  /**
   * This check proves what kind of project it is: a bundled app's build and render, the start of a
   * server or program, a static page's load. Skipped, the project is not proven, whatever else passed.
   */
  proves?: boolean;
}

export interface ExecutionReport {
  /** False when nothing ran (no sandbox here); every check is then skipped with the reason. */
  executed: boolean;
  /** "not executed: no sandbox on this server (…)" when `executed` is false. */
  notExecutedReason?: string;
  sandbox?: 'bubblewrap';
  /** What the sandbox could not contain on this machine (see Sandbox.notes). */
  sandboxNotes?: string[];
  runtimes: ExecRuntime[];
  checks: ExecCheck[];
  durationMs: number;
  /**
   * The host folder where the Node dependencies were installed (the read-only cache), when they
   * were: the static type check reads the packages' real declarations there.
   */
  nodeModules?: string;
}

/** The first failed check's problems first: what a repair should look at. */
export function executionProblems(report: ExecutionReport): (ExecProblem & { check: ExecCheckName })[] {
  return report.checks.filter((c) => c.status === 'failed').flatMap((c) => c.problems.map((p) => ({ ...p, check: c.check })));
}

/** Whether anything that ran failed. A report that did not execute has not failed, and has not passed either. */
export function executionFailed(report: ExecutionReport): boolean {
  return report.checks.some((c) => c.status === 'failed');
}

function describe(check: ExecCheck): string {
  const head = `${check.runtime} ${check.check}: ${check.status}`;
  if (check.status === 'skipped') return `${head} (${check.reason ?? 'no reason given'})`;
  const what = check.summary ? ` (${check.summary})` : '';
  return `${head}${what}${check.command ? ` — ${check.command}` : ''}`;
}

/**
 * Plain text for logs and repair prompts: one line per check, then each problem with its file,
 * line, command and output.
 */
export function formatExecutionReport(report: ExecutionReport): string {
  if (!report.executed) return report.notExecutedReason ?? 'not executed';
  const lines = report.checks.map(describe);
  for (const problem of executionProblems(report)) {
    const where = problem.line !== undefined ? `${problem.path}:${problem.line}` : problem.path;
    lines.push('', `${where}: ${problem.message}${problem.command ? ` (while running ${problem.command})` : ''}`);
    if (problem.output) lines.push(problem.output);
  }
  return lines.join('\n');
}

/**
 * What comes before the assumption in the summary of a start that passed on one (`still running
 * after 5 s; assumed to be a scheduler`), for the verification record. Here, not beside the start
 * verdict, because the web app reads records: this module imports nothing of Node's.
 */
export const ASSUMED = '; assumed to be ';

