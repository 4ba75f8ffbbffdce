/**
 * Checking and Proven Code: verify, then send the problems back for repair until the checks pass
 * or the rounds run out. Rounds learn: one that changed nothing or left the same problem says so
 * in the next prompt and moves to another engine, and no round may bring back a problem an
 * earlier version had and lost (see run-memory.ts).
 */
import { applyFileChanges } from './file-operations.js';
import { REPAIR_SYSTEM, repairUser } from './prompts/index.js';
import { markReplaced, problemKey, problemLine, regressions, remember, type FailedRepair, type RunMemory } from './run-memory.js';
import { prescanModules } from './scan-module.js';
import { ask, commitFiles, filesForPrompt, readAnswer, type StageContext, type StageHandler } from './stage-context.js';
import { describeCoverage, formatProblems, verifyProject, type VerifyProblem, type VerifyReport } from './verify.js';

/** The static part of a report {@link verifyAll} merged (the verification record keeps it apart). */
const staticParts = new WeakMap<VerifyReport, VerifyReport>();

/** What the static checks alone found, for a report of {@link verifyAll}'s; the report itself when nothing was merged into it. */
export function staticPartOf(report: VerifyReport): VerifyReport {
  return staticParts.get(report) ?? report;
}

/** The static checks and, when one is plugged in, the extra check, as one report. */
export async function verifyAll(ctx: StageContext, files: Readonly<Record<string, string>>): Promise<VerifyReport> {
  await prescanModules(Object.entries(files).map(([path, content]) => ({ path, content })));
  const report = verifyProject(files);
  if (!ctx.extraCheck || (ctx.role !== 'Checking' && ctx.role !== 'Proven Code')) return report;
  staticParts.set(report, structuredClone(report));
  const extra = await ctx.extraCheck(files, { role: ctx.role, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  for (const entry of extra.checked) {
    const own = report.checked.find((c) => c.path === entry.path);
    if (own) own.checks.push(...entry.checks.filter((c) => !own.checks.includes(c)));
    else report.checked.push({ path: entry.path, checks: [...entry.checks] });
  }
  report.problems.push(...extra.problems);
  report.passed = report.problems.length === 0;
  return report;
}

/** One log line for a verification: what passed and was covered, or the first problems. */
export function summarize(report: VerifyReport): string {
  if (report.passed) return `No problems: ${describeCoverage(report)}.`;
  const files = new Set(report.problems.map((p) => p.path));
  return `${report.problems.length} problem(s) in ${files.size} file(s): ${formatProblems(report).split('\n').slice(0, 3).join('; ')}`;
}

/** The files a repair needs to see: those with problems, those a problem names, the manifest. */
function involvedFiles(files: Record<string, string>, problems: VerifyProblem[], alsoChanged: readonly string[]): Record<string, string> {
  const involved = new Set([...problems.map((p) => p.path), ...alsoChanged]);
  if (files['package.json'] !== undefined) involved.add('package.json');
  for (const path of Object.keys(files)) if (problems.some((p) => p.message.includes(path))) involved.add(path);
  return Object.fromEntries(Object.entries(files).filter(([p]) => involved.has(p)));
}

/** What the next round is told about a round that did not work. */
function previousAttemptNote(failed: FailedRepair, report: VerifyReport): string {
  const current = new Set(report.problems.map(problemLine));
  const still = failed.unresolved.filter((line) => current.has(line));
  // Problems that are gone since (another stage changed the files) make the old round irrelevant.
  if (still.length === 0 && failed.changed.length > 0) return '';
  const lines = [`Your previous repair (round ${failed.round} of ${failed.role}, engine ${failed.engine}) did not work.`];
  if (failed.changed.length > 0) lines.push(`It changed: ${failed.changed.join(', ')}.`);
  else if (failed.refused.length === 0 && failed.cut.length === 0) lines.push('It changed no file: answer with complete files in the format above (and DELETE:/MOVE: lines), not with prose or a diff.');
  else lines.push('None of its changes could be kept.');
  if (failed.refused.length > 0) lines.push(`Refused, because they brought back a problem fixed earlier: ${failed.refused.join('; ')}.`);
  if (failed.cut.length > 0) lines.push(`It was cut off at the token limit in: ${failed.cut.join(', ')}. Write only the files you change.`);
  if (still.length > 0) lines.push('These problems are still there:', ...still);
  lines.push('Take a different approach this time; the fresh output of the checks is above.');
  return lines.join('\n');
}

function revert(files: Record<string, string>, before: Readonly<Record<string, string>>, path: string): void {
  if (before[path] === undefined) delete files[path];
  else files[path] = before[path];
}

/**
 * Which changed files bring back an earlier fixed problem: those whose revert alone removes a
 * regression (the static checks decide, they are cheap); when only the extra check sees the
 * regression, the changed files it names, else the whole answer.
 */
function culprits(memory: RunMemory, report: VerifyReport, before: Record<string, string>, after: Record<string, string>, changed: string[], found: VerifyProblem[]): string[] {
  const base = regressions(memory, report, verifyProject(after)).length;
  const guilty = changed.filter((path) => {
    const trial = { ...after };
    revert(trial, before, path);
    return regressions(memory, report, verifyProject(trial)).length < base;
  });
  if (guilty.length > 0) return guilty;
  const named = changed.filter((path) => found.some((p) => p.path === path));
  return named.length > 0 ? named : changed;
}

interface RoundOutcome {
  report: VerifyReport;
  changed: string[];
  refused: string[];
  cut: string[];
}

/** One repair round: ask, apply what is safe, refuse regressions per file, verify. */
async function repairRound(ctx: StageContext, report: VerifyReport, offset: number): Promise<RoundOutcome & { engine: string }> {
  const memory = ctx.state.memory;
  const lastFailed = memory.lastFailed;
  const note = lastFailed ? previousAttemptNote(lastFailed, report) : '';
  const subset = involvedFiles(ctx.state.files, report.problems, lastFailed?.changed ?? []);
  // The output that shows each problem (a stack trace, the failing assertion) goes with it.
  const user = repairUser(ctx.ideaText, formatProblems(report, 50, { details: true }), filesForPrompt(ctx, subset), note);
  const { text, engine } = await ask(ctx, REPAIR_SYSTEM, user, offset, 'repair');
  const answer = await readAnswer(ctx, text);
  const before = ctx.state.files;
  const applied = applyFileChanges(before, answer.files, answer.operations);
  for (const warning of applied.warnings) ctx.emit('warning', warning);

  let trial = await verifyAll(ctx, applied.files);
  const refused: string[] = [];
  const back = regressions(memory, report, trial);
  if (back.length > 0) {
    for (const path of culprits(memory, report, before, applied.files, applied.changed, back)) {
      revert(applied.files, before, path);
      const shown = problemLine(back.find((p) => p.path === path) ?? back[0]!);
      refused.push(`${path} (${shown})`);
      const kept = before[path] === undefined ? `Left out the new ${path}` : `Kept the earlier ${path}`;
      ctx.emit('warning', `${kept}: the repair brought back a problem fixed earlier (${shown}).`);
    }
    trial = await verifyAll(ctx, applied.files);
  }
  // A version that had problems and was replaced is known bad (see isReplacedVersion).
  const broken = new Set(report.problems.map((p) => p.path));
  const changed = commitFiles(ctx, applied.files);
  for (const path of changed) if (broken.has(path) && before[path] !== undefined) markReplaced(memory, path, before[path]);
  if (changed.some((p) => ctx.state.files[p] !== applied.files[p])) trial = await verifyAll(ctx, ctx.state.files);
  return { report: trial, changed, refused, cut: answer.cut, engine: engine.key };
}

/** Verify, then repair round by round until the checks pass or the rounds run out. */
export async function verifyAndRepair(ctx: StageContext): Promise<{ report: VerifyReport; engine: string }> {
  const memory = ctx.state.memory;
  let report = await verifyAll(ctx, ctx.state.files);
  remember(memory, report);
  let engineKey = '';
  ctx.emit(report.passed ? 'success' : 'warning', summarize(report));
  for (let round = 1; !report.passed && round <= ctx.repairRounds; round++) {
    const offset = memory.failedRounds;
    const next = ctx.runner.primaryFor(ctx.position + offset).key;
    if (memory.lastFailed && memory.lastFailed.engine !== next) {
      ctx.emit('info', `Repair round ${round} goes to engine ${next}: the last round (engine ${memory.lastFailed.engine}) did not fix it.`);
    }
    const outcome = await repairRound(ctx, report, offset);
    engineKey = outcome.engine;
    const after = new Set(outcome.report.problems.map(problemKey));
    const unresolved = report.problems.filter((p) => after.has(problemKey(p))).map(problemLine);
    if (outcome.changed.length === 0 || unresolved.length > 0) {
      memory.failedRounds += 1;
      memory.lastFailed = { role: ctx.role, round, engine: outcome.engine, changed: outcome.changed, refused: outcome.refused, cut: outcome.cut, unresolved };
    } else {
      memory.lastFailed = null;
    }
    report = outcome.report;
    remember(memory, report);
    const did = outcome.changed.length === 0 ? 'no file changed' : `${outcome.changed.length} file(s) changed`;
    ctx.emit(report.passed ? 'success' : 'warning', `Repair round ${round}: ${did}. ${summarize(report)}`);
  }
  ctx.state.report = report;
  return { report, engine: engineKey };
}

export const checking: StageHandler = async (ctx) => {
  const { engine } = await verifyAndRepair(ctx);
  return { ok: true, engine };
};

export const provenCode: StageHandler = async (ctx) => {
  const { report, engine } = await verifyAndRepair(ctx);
  if (report.passed) {
    // Only files a check read are called checked; the rest are named, not counted as proven.
    ctx.emit('success', `Proven Code: ${describeCoverage(report)}.`);
    return { ok: true, engine };
  }
  ctx.emit('error', `Proven Code gate failed:\n${formatProblems(report)}`);
  return { ok: false, engine };
};
