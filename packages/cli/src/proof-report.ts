/**
 * How the CLI words Proven Code: the verdict of a run's `complete` event, a whole
 * verification record for `wolfpack verify`, and the exit code a verdict earns. Only `passed` is
 * ever said to pass: `unproven` (nothing failed, but what applies could not run) is "not proven".
 */
import { summaryVerdict as coreSummaryVerdict, type VerificationCheck, type VerificationProblem, type VerificationRecord, type VerificationSummary, type VerificationVerdict } from '@wolfpack/core';
import { EXIT_NOT_PROVEN, EXIT_STRICT } from './exit-code.js';
import { formatDate, plural } from './format.js';

/** A run's verdict; `unknown` when the run reported no verification at all. */
export type ProofVerdict = VerificationVerdict | 'unknown';

/** The verdict of a `complete` event (see core's summaryVerdict). */
export const summaryVerdict: (summary: VerificationSummary | undefined) => ProofVerdict = coreSummaryVerdict;

export const VERDICT_WORD: Record<ProofVerdict, string> = {
  passed: 'passed',
  failed: 'failed',
  unproven: 'not proven',
  unknown: 'not proven',
};

/** 0 for passed, 3 for failed (as `--strict`), 5 for anything not proven. */
export function verdictExitCode(verdict: ProofVerdict): number {
  if (verdict === 'passed') return 0;
  return verdict === 'failed' ? EXIT_STRICT : EXIT_NOT_PROVEN;
}

/**
 * The summary lines of a `complete` event that carries a verdict: the verdict, what was and was
 * not proven, and on a failure the problems, one per line.
 */
export function verdictSummaryLines(summary: VerificationSummary): string[] {
  const verdict = summaryVerdict(summary);
  const lines = [`Proven Code: ${VERDICT_WORD[verdict]}`];
  if (summary.proven) lines.push(`  Proven: ${summary.proven}`);
  if (summary.notProven) lines.push(`  Not proven: ${summary.notProven}`);
  if (verdict === 'failed' && summary.problems.length > 0) {
    lines.push(`  ${plural(summary.problems.length, 'problem')}:`);
    for (const problem of summary.problems) lines.push(plainText(`    ${problem.path} (${problem.check}): ${problem.message}`));
  }
  return lines;
}

/** Lines of a problem's output shown before the rest is cut; the whole is in `--json` and on the project page. */
const OUTPUT_MAX_LINES = 12;
const OUTPUT_MAX_WIDTH = 160;

/** Text from generated code without terminal control sequences: it must not move the cursor or recolour the terminal. */
export function plainText(text: string): string {
  return text.replace(/\u001B\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

/** Output of generated code, cut to a readable size, as plain text. */
export function trimOutput(output: string): string[] {
  const lines = plainText(output).replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, OUTPUT_MAX_LINES).map((line) => ([...line].length > OUTPUT_MAX_WIDTH ? `${[...line].slice(0, OUTPUT_MAX_WIDTH - 1).join('')}…` : line));
  if (lines.length > OUTPUT_MAX_LINES) shown.push(`… ${plural(lines.length - OUTPUT_MAX_LINES, 'more line')}`);
  return shown;
}

type Style = (format: 'bold' | 'green' | 'red' | 'yellow' | 'dim', text: string) => string;

const STATUS_STYLE: Record<VerificationCheck['status'], 'green' | 'red' | 'dim'> = { passed: 'green', failed: 'red', skipped: 'dim' };

/**
 * `wolfpack verify`'s report: one line per check (status, name, read or ran and on what runtime,
 * files, command, skip reason, tests), its problems below it with their output, then the verdict
 * and the two sentences.
 */
export function recordLines(record: VerificationRecord, style: Style = (_format, text) => text): string[] {
  const width = Math.max(0, ...record.checks.map((c) => c.check.length));
  const lines: string[] = [];
  for (const check of record.checks) {
    const how = check.kind === 'static' ? 'read' : `ran${check.runtime ? ` (${check.runtime})` : ''}`;
    const parts = [style(STATUS_STYLE[check.status], check.status.padEnd(7)), check.check.padEnd(width), how.padEnd(10), plural(check.files.length, 'file')];
    if (check.command) parts.push(`$ ${check.command}`);
    if (check.tests) parts.push(`tests: ${check.tests.passed} passed, ${check.tests.failed} failed`);
    if (check.status === 'skipped') parts.push(`skipped: ${check.reason ?? 'no reason given'}`);
    else if (check.summary) parts.push(check.summary);
    lines.push(parts.join('  '));
    for (const problem of check.problems) lines.push(...problemLines(problem));
  }
  if (record.checks.length > 0) lines.push('');
  const verdict = VERDICT_WORD[record.verdict];
  const color = record.verdict === 'passed' ? 'green' : record.verdict === 'failed' ? 'red' : 'yellow';
  lines.push(`${style('bold', 'Proven Code:')} ${style(color, verdict)} (version ${record.version}, checked ${formatDate(record.createdAt)})`);
  lines.push(`  Proven: ${record.proven}`);
  if (record.notProven) lines.push(`  Not proven: ${record.notProven}`);
  return lines;
}

function problemLines(problem: VerificationProblem): string[] {
  const where = problem.line === undefined ? problem.path : `${problem.path}:${problem.line}`;
  const lines = [`    ${plainText(where)}: ${plainText(problem.message)}`];
  if (problem.output) lines.push(...trimOutput(problem.output).map((line) => `      | ${line}`));
  return lines;
}
