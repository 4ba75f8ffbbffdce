import type { VerificationCheck, VerificationRecord } from '../schemas/verification.js';
import type { VerifyReport } from '../pipeline/verify.js';
import { ASSUMED, type ExecCheck, type ExecutionReport } from '../proof/report.js';

export interface VerificationInput {
  /** The project version the record describes. */
  version: number;
  /** Every file of that version. */
  paths: readonly string[];
  /** What the static checks found (in memory). */
  staticReport: VerifyReport;
  /** What running the project in the sandbox showed; absent when execution was not attempted. */
  execution?: ExecutionReport;
  now?: Date;
}

/**
 * One verification record from the static report and the execution report. The verdict is
 * `failed` when any check failed, `unproven` when nothing failed but the project was not run
 * (no sandbox, execution off) or the check that proves its kind did not run (a bundled app not
 * built and rendered, a server not started, a page not loaded), `passed` otherwise; a file is
 * "covered" only when a check that ran (passed or failed) read or ran it.
 */
export function buildVerificationRecord(input: VerificationInput): VerificationRecord {
  const checks = [...staticChecks(input.staticReport), ...(input.execution?.checks ?? []).map(executionCheck)];
  const coveredSet = new Set(checks.filter((c) => c.status !== 'skipped').flatMap((c) => c.files));
  const coveredFiles = input.paths.filter((p) => coveredSet.has(p));
  const uncoveredFiles = input.paths.filter((p) => !coveredSet.has(p));
  const executed = input.execution?.executed ?? false;
  const notExecutedReason = executed ? undefined : (input.execution?.notExecutedReason ?? 'not executed: running generated code is turned off on this server');
  const failed = checks.some((c) => c.status === 'failed');
  // A project with nothing runnable (only styles, data, documents) is proven by what could read it.
  const nothingToRun = input.execution !== undefined && input.execution.runtimes.length === 0;
  // Nothing checked is nothing proven.
  const anyRan = checks.some((c) => c.status !== 'skipped');
  // The rest passing says little of an app that was never built, a server never started.
  const kindProven = !checks.some((c) => c.proves === true && c.status === 'skipped');
  const verdict = failed ? 'failed' : anyRan && (executed || nothingToRun) && kindProven ? 'passed' : 'unproven';
  return {
    version: input.version,
    createdAt: (input.now ?? new Date()).toISOString(),
    verdict,
    proven: provenText(checks, coveredFiles.length),
    notProven: notProvenText(checks, uncoveredFiles, notExecutedReason),
    executed,
    ...(notExecutedReason ? { notExecutedReason } : {}),
    coveredFiles,
    uncoveredFiles,
    checks,
  };
}

/** One entry per static check, with the files it ran on and what it found. */
function staticChecks(report: VerifyReport): VerificationCheck[] {
  const files = new Map<string, string[]>();
  for (const { path, checks } of report.checked) {
    for (const check of checks) files.set(check, [...(files.get(check) ?? []), path]);
  }
  for (const problem of report.problems) if (!files.has(problem.check)) files.set(problem.check, [problem.path]);
  return [...files].map(([check, paths]) => {
    const problems = report.problems
      .filter((p) => p.check === check)
      .map((p) => ({ path: p.path, message: p.message, ...(p.line ? { line: p.line } : {}) }));
    return { check, kind: 'static', status: problems.length > 0 ? 'failed' : 'passed', files: paths, problems };
  });
}

function executionCheck(c: ExecCheck): VerificationCheck {
  return {
    check: c.check,
    kind: 'execution',
    runtime: c.runtime,
    status: c.status,
    files: c.files,
    ...(c.command ? { command: c.command } : {}),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.summary ? { summary: c.summary } : {}),
    problems: c.problems.map((p) => ({ ...p, ...(p.line ? { line: p.line } : {}) })),
    durationMs: Math.round(c.durationMs),
    ...(c.tests ? { tests: c.tests } : {}),
    ...(c.proves ? { proves: true } : {}),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "12 files checked (syntax, imports, types), 8 tests passed, starts cleanly, the page loads without errors". */
function provenText(checks: VerificationCheck[], covered: number): string {
  const ran = checks.filter((c) => c.status !== 'skipped');
  if (ran.length === 0) return 'Nothing was checked.';
  const names = [...new Set(ran.map((c) => c.check))];
  const parts = [`${plural(covered, 'file')} checked (${names.join(', ')})`];
  const passedTests = ran.filter((c) => c.check === 'tests' && c.status === 'passed').reduce((sum, c) => sum + (c.tests?.passed ?? 0), 0);
  if (passedTests > 0) parts.push(`${plural(passedTests, 'test')} passed`);
  if (ran.some((c) => c.check === 'start' && c.status === 'passed') && !ran.some((c) => c.check === 'start' && c.status === 'failed')) parts.push(startText(ran));
  if (ran.some((c) => c.check === 'page-load' && c.status === 'passed') && !ran.some((c) => c.check === 'page-load' && c.status === 'failed')) {
    parts.push('the page loads without errors');
  }
  // A bundled app: "built with vite", then what its render proved, in the render's own words.
  const build = ran.find((c) => c.check === 'build' && c.status === 'passed');
  if (build?.summary) parts.push(build.summary.split(':')[0]!);
  const render = ran.find((c) => c.check === 'render' && c.status === 'passed');
  if (render?.summary && !ran.some((c) => c.check === 'render' && c.status === 'failed')) parts.push(render.summary);
  return `${parts.join(', ')}.`;
}

/**
 * "starts cleanly", unless a start passed only on an assumption (a program still running at the
 * deadline, taken for a bot, a server or a prompt waiting for input): then what was assumed.
 */
function startText(ran: VerificationCheck[]): string {
  const assumed = ran.filter((c) => c.check === 'start' && c.summary?.includes(ASSUMED)).map((c) => c.summary!);
  return assumed.length === 0 ? 'starts cleanly' : `starts ${assumed.map((summary) => `(${summary})`).join(' and ')}`;
}

/**
 * What was not proven: failures; what proves the project's kind and did not run, and why; checks
 * that could not run and why; files nothing covered. When nothing ran at all, the reason for that
 * says it for every check.
 */
function notProvenText(checks: VerificationCheck[], uncovered: string[], notExecutedReason: string | undefined): string {
  const parts: string[] = [];
  for (const c of checks.filter((x) => x.status === 'failed')) {
    const tests = c.tests && c.tests.failed > 0 ? ` (${c.tests.failed} of ${c.tests.passed + c.tests.failed} tests)` : '';
    parts.push(`${c.check} failed${tests}: ${plural(c.problems.length, 'problem')}`);
  }
  const notRun = checks.filter((c) => c.proves === true && c.status === 'skipped' && c.reason !== notExecutedReason);
  parts.push(...notRunText(notRun));
  if (notExecutedReason) parts.push(notExecutedReason);
  for (const c of checks.filter((x) => x.status === 'skipped' && !notRun.includes(x))) parts.push(`${c.check} skipped: ${c.reason ?? 'no reason given'}`);
  if (uncovered.length > 0) {
    const shown = uncovered.slice(0, 5).join(', ') + (uncovered.length > 5 ? ', …' : '');
    parts.push(`${plural(uncovered.length, 'file')} not covered by any check (${shown})`);
  }
  return parts.length > 0 ? `${parts.join('; ')}.` : '';
}

/**
 * What proves the project's kind and did not run, in a user's words, with why: "the app was not
 * built and rendered (the project's 20 s time budget … was used up by the checks before it)".
 */
function notRunText(notRun: VerificationCheck[]): string[] {
  const why = (c: VerificationCheck) => ` (${c.reason ?? 'no reason given'})`;
  const parts: string[] = [];
  const build = notRun.find((c) => c.check === 'build');
  const render = notRun.find((c) => c.check === 'render');
  // A render is skipped because its build was: the build's reason is the one that says why.
  if (build) parts.push(`the app was not built and rendered${why(build)}`);
  else if (render) parts.push(`the built app was not rendered in a browser${why(render)}`);
  for (const start of notRun.filter((c) => c.check === 'start')) {
    const what = start.runtime === 'python' && start.files.length === 1 ? start.files[0]! : `the ${start.runtime === 'python' ? 'Python' : 'Node'} project`;
    parts.push(`${what} was not started${why(start)}`);
  }
  const pages = new Map<string, string[]>();
  for (const page of notRun.filter((c) => c.check === 'page-load')) {
    const reason = why(page);
    pages.set(reason, [...(pages.get(reason) ?? []), ...page.files]);
  }
  for (const [reason, files] of pages) parts.push(`${listOf(files)} ${files.length === 1 ? 'was' : 'were'} not loaded in a browser${reason}`);
  return parts;
}

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? 'the page') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
