import { z } from 'zod';

/**
 * The verification record of one project version: every check Proven Code ran or could
 * not run, on which files, with what result. "Verified" is only ever said of files a check covered.
 */

/** How a check ended. `skipped` always carries the reason. */
export const verificationStatus = z.enum(['passed', 'failed', 'skipped']);

/**
 * The project's verdict. `unproven`: nothing failed, but something that applies could not run
 * (no sandbox on this server, dependencies that could not be installed, the check that proves the
 * project's kind: a bundled app built and rendered, a server started, a page loaded): never shown
 * as passed.
 */
export const verificationVerdict = z.enum(['passed', 'failed', 'unproven']);
export type VerificationVerdict = z.infer<typeof verificationVerdict>;

export const verificationProblem = z.object({
  path: z.string(),
  line: z.int().positive().optional(),
  message: z.string(),
  /** The command that showed it, as typed in the project folder. */
  command: z.string().optional(),
  /** Trimmed output that shows it: a stack trace, the failing assertion. */
  output: z.string().optional(),
});
export type VerificationProblem = z.infer<typeof verificationProblem>;

export const verificationCheck = z.object({
  /** syntax, json, imports, dependencies, types, html, paths, placeholders, install, tests, start, page-load… */
  check: z.string(),
  /** Read from the files (in memory) or run in the sandbox. */
  kind: z.enum(['static', 'execution']),
  /** node, python or web for executed checks. */
  runtime: z.string().optional(),
  status: verificationStatus,
  /** Files the check covered (for a skipped check: the files it would have covered). */
  files: z.array(z.string()),
  command: z.string().optional(),
  reason: z.string().optional(),
  /** "3 tests passed", "listened on a port". */
  summary: z.string().optional(),
  problems: z.array(verificationProblem),
  durationMs: z.int().nonnegative().optional(),
  tests: z.object({ passed: z.int().nonnegative(), failed: z.int().nonnegative() }).optional(),
  /** The check proves the project's kind (a bundled app's build and render, a start, a page load): skipped, the verdict is `unproven`. Absent in records from before it. */
  proves: z.boolean().optional(),
});
export type VerificationCheck = z.infer<typeof verificationCheck>;

export const verificationRecord = z.object({
  /** The project version it describes. */
  version: z.int().positive(),
  createdAt: z.string(),
  verdict: verificationVerdict,
  /** What was proven: "12 files checked (syntax, imports, types), 8 tests passed, starts cleanly". */
  proven: z.string(),
  /**
   * What was not: failures; what proves the project's kind and did not run, and why ("the app was
   * not built and rendered (…)"); other skipped checks; files no check covered. Empty when
   * everything was.
   */
  notProven: z.string(),
  /** Whether anything ran in the sandbox; `notExecutedReason` says why not. */
  executed: z.boolean(),
  notExecutedReason: z.string().optional(),
  coveredFiles: z.array(z.string()),
  uncoveredFiles: z.array(z.string()),
  checks: z.array(verificationCheck),
});
export type VerificationRecord = z.infer<typeof verificationRecord>;

/** GET /api/projects/{id}/verification: the current version's record (null before any). */
export const verificationReply = z.object({ verification: verificationRecord.nullable() });
export type VerificationReply = z.infer<typeof verificationReply>;
