/**
 * What every execution check gets: the sandbox, the host copy, the files, and the project's time
 * budget, shared so that one slow check leaves less time to the next instead of overrunning.
 */
import type { ExecCheck, ExecCheckName, ExecRuntime } from './report.js';
import type { Sandbox, SandboxResult } from './sandbox.js';
import type { ReadOnlyBind } from './bwrap-args.js';
import type { StepSink } from './proof-steps.js';

export interface CheckContext {
  sandbox: Sandbox;
  /** Host copy of the project (the sandbox's read-only seed). */
  dir: string;
  files: Readonly<Record<string, string>>;
  paths: ReadonlySet<string>;
  budget: Budget;
  /** Read-only binds every command gets (the support scripts). */
  binds: ReadOnlyBind[];
  /** How long a start may run before it counts as started. */
  startMs: number;
  /** The wall time one command (the tests) may take: WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS. */
  commandMs: number;
  signal?: AbortSignal;
  /** Where the checks' steps are told as feed lines (see proof-steps.ts); none: not told. */
  step?: StepSink;
}

/**
 * The project's sandbox time: each command gets at most what is left. The clock starts with the
 * first sandboxed command, so the dependency install (outside the sandbox, budgeted on its own)
 * does not eat into it.
 */
export class Budget {
  private deadline: number | undefined;
  constructor(readonly totalMs: number) {}

  remainingMs(): number {
    this.deadline ??= performance.now() + this.totalMs;
    return Math.max(0, Math.round(this.deadline - performance.now()));
  }

  /** The wall time for a command that would like `wantedMs`, or 0 when the budget is spent. */
  wallFor(wantedMs: number): number {
    const left = this.remainingMs();
    return left < 250 ? 0 : Math.min(wantedMs, left);
  }

  spentReason(): string {
    return `the project's ${Math.round(this.totalMs / 1000)} s time budget for running code was used up by the checks before it`;
  }
}

/** A check result with the defaults filled in. */
export function checkResult(
  check: ExecCheckName,
  runtime: ExecRuntime,
  fields: Partial<ExecCheck> & Pick<ExecCheck, 'status' | 'files'>,
): ExecCheck {
  return { check, runtime, problems: [], durationMs: 0, ...fields };
}

/** A skipped check: the files it would have covered and why it did not run. */
export function skipped(check: ExecCheckName, runtime: ExecRuntime, files: string[], reason: string): ExecCheck {
  return checkResult(check, runtime, { status: 'skipped', files, reason });
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A check that could not run because the sandbox did not start: not the project's fault. */
export function sandboxFailed(check: ExecCheckName, runtime: ExecRuntime, files: string[], result: SandboxResult): ExecCheck | undefined {
  if (result.setupError === undefined) return undefined;
  return skipped(check, runtime, files, `the sandbox could not start (${result.setupError}); this is a fault of the server, not of the project`);
}
