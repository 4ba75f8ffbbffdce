/**
 * The words Proven Code uses on screen, in one place so the banner and the project page never
 * disagree about what a verdict means. Only `passed` is ever worded (or coloured) as success:
 * `unproven` means nothing failed but what applies could not run, which proves nothing.
 */
import { summaryVerdict, type VerificationCheck, type VerificationProblem, type VerificationSummary, type VerificationVerdict } from '@wolfpack/core';

/** What the build screen's banner shows; `unknown`: the run reported no verification at all. */
export type BannerVerdict = VerificationVerdict | 'unknown';

/** The verdict of a finished run (see core's summaryVerdict). */
export const bannerVerdict: (summary: VerificationSummary | undefined) => BannerVerdict = summaryVerdict;

export const VERDICT_LABEL: Record<VerificationVerdict, string> = {
  passed: 'Passed',
  failed: 'Failed',
  unproven: 'Not proven',
};

export const CHECK_STATUS_LABEL: Record<VerificationCheck['status'], string> = {
  passed: 'Passed',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** Static checks read the files; execution checks ran them in the sandbox. */
export function checkKindLabel(kind: VerificationCheck['kind']): string {
  return kind === 'static' ? 'read' : 'ran';
}

/** `src/app.js:12`, or the path alone when the line is not known. */
export function problemLocation(problem: Pick<VerificationProblem, 'path' | 'line'>): string {
  return problem.line === undefined ? problem.path : `${problem.path}:${problem.line}`;
}

/** "3 passed, 1 failed" for a check that ran tests. */
export function testCounts(tests: NonNullable<VerificationCheck['tests']>): string {
  return `${tests.passed} passed, ${tests.failed} failed`;
}

/** "1.2 s" or "340 ms": how long a check took. */
export function formatCheckDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** How many problems the banner lists before pointing at the project page for the rest. */
export const BANNER_PROBLEM_LIMIT = 5;
