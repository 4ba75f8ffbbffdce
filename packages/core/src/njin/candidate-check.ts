/**
 * Checks a candidate with the same static verification as Proven Code (verify.ts: JSON, syntax,
 * imports, package.json, HTML, types), on the whole project after the change. Callers often send a
 * few files of a larger project, so the files as sent may already have problems (an import of a
 * file that was not sent, say): only problems the candidate adds count against it.
 */
import type { VerifyCheck, VerifyProblem, VerifyReport } from '../pipeline/verify.js';
import type { NjinCheck } from '../schemas/njin.js';
import type { AppliedProposal, ProposalCheck } from './patch-apply.js';

/**
 * The static verification to run, one report per project: `verifyProjects` from
 * `@wolfpack/core/pipeline` (see runIteration).
 */
export type ProjectVerifier = (projects: readonly Readonly<Record<string, string>>[]) => VerifyReport[];

/** One check of a candidate, as the reply lists it. */
export type IterationCheck = NjinCheck;

/** Order checks are listed in; verification checks appear when they ran on some file. */
const PROPOSAL_CHECKS: readonly ProposalCheck[] = ['format', 'paths', 'applies'];
const VERIFY_CHECKS: readonly VerifyCheck[] = ['json', 'package-json', 'syntax', 'imports', 'html', 'types'];
/** Problems quoted in a failed check's detail; the rest are counted. */
const DETAIL_PROBLEMS = 5;
const FAILED_CHECK_CHARS = 300;

const OK_DETAIL: Record<ProposalCheck, string> = {
  format: 'The answer held the changed files.',
  paths: 'Every path stays inside the project.',
  applies: 'Every change applied to the files sent.',
};

// Messages name the importing files ("(in src/a.ts and 1 more file(s))"), which a candidate may
// legitimately change; the problem is the same one.
function problemKey(problem: VerifyProblem): string {
  return `${problem.path}\u0000${problem.check}\u0000${problem.message.replace(/ \(in [^)]*\)/g, '')}`;
}

/** Problems of the files as sent, counted by identity (line numbers move when code is added). */
export type ProblemBaseline = Map<string, number>;

export function problemBaseline(report: VerifyReport): ProblemBaseline {
  const counts: ProblemBaseline = new Map();
  for (const problem of report.problems) counts.set(problemKey(problem), (counts.get(problemKey(problem)) ?? 0) + 1);
  return counts;
}

/**
 * Problems in `report` that the baseline does not have. A request without any package.json is a
 * slice of a project whose manifest was not sent: "no package.json to declare it" says nothing
 * about the change there.
 */
export function newProblems(report: VerifyReport, baseline: ProblemBaseline, hasManifest: boolean): VerifyProblem[] {
  const left = new Map(baseline);
  const fresh: VerifyProblem[] = [];
  for (const problem of report.problems) {
    if (!hasManifest && problem.check === 'package-json' && problem.message.endsWith('no package.json to declare it')) continue;
    const key = problemKey(problem);
    const count = left.get(key) ?? 0;
    if (count > 0) left.set(key, count - 1);
    else fresh.push(problem);
  }
  return fresh;
}

function describe(problems: VerifyProblem[]): string {
  const lines = problems.slice(0, DETAIL_PROBLEMS).map((p) => `${p.path}: ${p.message}${p.line === undefined ? '' : ` (line ${p.line})`}`);
  const more = problems.length - DETAIL_PROBLEMS;
  if (more > 0) lines.push(`and ${more} more`);
  return lines.join('; ');
}

export function hasManifest(files: Readonly<Record<string, string>>): boolean {
  return Object.keys(files).some((path) => path === 'package.json' || path.endsWith('/package.json'));
}

/**
 * The checks of one candidate: first whether its answer could be read and applied safely, then,
 * when it could, every verification check that ran on the changed project (its `report`, which
 * the caller computes only for proposals without problems).
 */
export function checkCandidate(proposal: AppliedProposal, report: VerifyReport | undefined, baseline: ProblemBaseline, originalHasManifest: boolean): IterationCheck[] {
  const checks: IterationCheck[] = PROPOSAL_CHECKS.map((check) => {
    const problems = proposal.problems.filter((p) => p.check === check);
    return problems.length === 0
      ? { check, ok: true, detail: OK_DETAIL[check] }
      : { check, ok: false, detail: problems.map((p) => p.message).join(' ') };
  });
  if (proposal.problems.length > 0 || !report) return checks;

  const fresh = newProblems(report, baseline, originalHasManifest);
  const ran = new Set<VerifyCheck>(report.checked.flatMap((entry) => entry.checks));
  for (const problem of fresh) ran.add(problem.check);
  for (const check of VERIFY_CHECKS) {
    if (!ran.has(check)) continue;
    const problems = fresh.filter((p) => p.check === check);
    const files = report.checked.filter((entry) => entry.checks.includes(check)).length;
    checks.push(
      problems.length === 0
        ? { check, ok: true, detail: `No new problems in ${files} file${files === 1 ? '' : 's'}.` }
        : { check, ok: false, detail: describe(problems) },
    );
  }
  return checks;
}

/** Failed checks as the candidates list and the 422 show them: `syntax: src/a.ts: … (line 3)`. */
export function failedChecks(checks: readonly IterationCheck[]): string[] {
  return checks
    .filter((c) => !c.ok)
    .map((c) => {
      const text = `${c.check}: ${c.detail}`;
      return text.length > FAILED_CHECK_CHARS ? `${text.slice(0, FAILED_CHECK_CHARS - 1)}…` : text;
    });
}
