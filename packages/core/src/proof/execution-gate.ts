import { createHash } from 'node:crypto';
import type { ProjectCheck, VerifyCheck } from '../pipeline/verify.js';
import { executeProject, type ExecuteOptions, type ProjectExecutor } from './execute-project.js';
import type { ExecCheckName, ExecutionReport } from './report.js';
import type { StepSink } from './proof-steps.js';

/** How an executed check is named among the pipeline's checks (Python's compile and imports are syntax and imports). */
const AS_VERIFY_CHECK: Record<ExecCheckName, VerifyCheck> = {
  install: 'install',
  syntax: 'syntax',
  imports: 'imports',
  tests: 'tests',
  start: 'start',
  'page-load': 'page-load',
  build: 'build',
  render: 'render',
};

/** What the repair prompt gets beside a problem: the command and the output that shows it. */
const DETAIL_CHARS = 2000;

export interface ExecutionGate {
  /** The pipeline's extra check (Checking and Proven Code): runs the project, reports what failed. */
  check: ProjectCheck;
  /**
   * The execution report of exactly these files: the last one when the files did not change
   * since, else a new run. `note` hears, as a sentence, when the run waits for a sandbox; `step`,
   * each step of a new run as it starts and ends (a reused report has none).
   */
  reportFor(files: Readonly<Record<string, string>>, signal?: AbortSignal, note?: (message: string) => void, step?: StepSink): Promise<ExecutionReport>;
}

export interface ExecutionGateOptions extends ExecuteOptions {
  /** What runs the project. @default executeProject, on this thread */
  execute?: ProjectExecutor;
}

/**
 * Proven Code's execution gate for one run: runs the project in the sandbox (see executeProject)
 * and hands the pipeline what failed, with the command and output for the repair prompt. The
 * same files are run once: Proven Code after an unchanged Checking reuses its report.
 */
export function createExecutionGate(options: ExecutionGateOptions = {}): ExecutionGate {
  const { execute = executeProject, ...executeOptions } = options;
  let last: { key: string; report: ExecutionReport } | undefined;
  const reportFor = async (files: Readonly<Record<string, string>>, signal?: AbortSignal, note?: (message: string) => void, step?: StepSink) => {
    const key = filesKey(files);
    if (last?.key !== key) {
      const onWait = note ? (ahead: number) => note(waitingForSandbox(ahead)) : undefined;
      last = { key, report: await execute(files, { ...executeOptions, ...(signal ? { signal } : {}), ...(onWait ? { onWait } : {}), ...(step ? { onStep: step } : {}) }) };
    }
    return last.report;
  };
  return {
    reportFor,
    check: async (files, context) => asVerifyReport(await reportFor(files, context.signal, context.note, context.step)),
  };
}

/** The Activity Feed's line when a project waits for a sandbox, `ahead` others waiting before it. */
export function waitingForSandbox(ahead: number): string {
  const before = ahead === 0 ? 'it runs next' : `${ahead} ${ahead === 1 ? 'project waits' : 'projects wait'} before it`;
  return `Waiting for a free sandbox: the server is running as many projects as it runs at once, and ${before}.`;
}

/** The report as the pipeline's checks: what ran on which file, and the problems of what failed. */
export function asVerifyReport(report: ExecutionReport): Awaited<ReturnType<ProjectCheck>> {
  const byFile = new Map<string, VerifyCheck[]>();
  for (const c of report.checks) {
    if (c.status === 'skipped') continue;
    for (const path of c.files) byFile.set(path, [...new Set([...(byFile.get(path) ?? []), AS_VERIFY_CHECK[c.check]])]);
  }
  const problems = report.checks
    .filter((c) => c.status === 'failed')
    .flatMap((c) =>
      c.problems.map((p) => {
        const detail = [p.command ? `$ ${p.command}` : '', p.output ?? ''].filter(Boolean).join('\n').slice(0, DETAIL_CHARS);
        return { path: p.path, check: AS_VERIFY_CHECK[c.check], message: p.message, ...(p.line ? { line: p.line } : {}), ...(detail ? { detail } : {}) };
      }),
    );
  // The installed dependencies: the type check then reads their real declarations.
  return { checked: [...byFile].map(([path, checks]) => ({ path, checks })), problems, ...(report.nodeModules ? { nodeModules: report.nodeModules } : {}) };
}

function filesKey(files: Readonly<Record<string, string>>): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort()) hash.update(path).update('\0').update(files[path]!).update('\0');
  return hash.digest('hex');
}
