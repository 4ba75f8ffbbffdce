/** What a check found wrong in a generated project, and the names of the checks: shared by the static checks and the type check. */

/** Checks that read the files without running them (verify.ts). */
export type StaticCheck = 'json' | 'syntax' | 'imports' | 'package-json' | 'html' | 'types' | 'duplicates';
/** Checks that run the project; an execution gate plugged in as a ProjectCheck (verify.ts) reports them. */
export type ExecutionCheck = 'install' | 'tests' | 'start' | 'page-load' | 'build' | 'render';
export type VerifyCheck = StaticCheck | ExecutionCheck;

export interface VerifyProblem {
  path: string;
  check: VerifyCheck;
  message: string;
  /** 1-based line, when the check knows it. */
  line?: number;
  /** What shows it, for the repair prompt: the command and its trimmed output (a stack trace, the failing assertion). */
  detail?: string;
}
