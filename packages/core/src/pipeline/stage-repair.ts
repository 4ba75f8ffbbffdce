/**
 * Checking and Proven Code: verify, then send the problems back for repair until the checks pass
 * or the rounds run out. Rounds learn: one that changed nothing or left the same problem says so
 * in the next prompt and moves to another engine, and no round may bring back a problem an
 * earlier version had and lost (see run-memory.ts).
 */
import { formatFilesForPrompt } from './context-budget.js';
import { applyFileChanges } from './file-operations.js';
import { REPAIR_SYSTEM, repairUser } from './prompts/index.js';
import { classifySpecifier, dirname, joinPath, resolveFile, stripQuery } from './resolve-imports.js';
import { markReplaced, problemKey, problemLine, regressions, remember, type FailedRepair, type RunMemory } from './run-memory.js';
import { prescanModules, scanModule } from './scan-module.js';
import { ask, commitFiles, readAnswer, type StageContext, type StageHandler } from './stage-context.js';
import { checkHtml } from './verify-html.js';
import { newLogId } from './engine-runner.js';
import { stepEndLine, stepStartLine, type StepEnd, type StepSink } from './step-progress.js';
import { isTypeScriptPath } from './verify-types.js';
import { coverage, describeCoverage, formatProblems, verifyProject, type VerifyProblem, type VerifyReport } from './verify.js';

/** The static part of a report {@link verifyAll} merged (the verification record keeps it apart). */
const staticParts = new WeakMap<VerifyReport, VerifyReport>();

/** What the static checks alone found, for a report of {@link verifyAll}'s; the report itself when nothing was merged into it. */
export function staticPartOf(report: VerifyReport): VerifyReport {
  return staticParts.get(report) ?? report;
}

/** Where the packages a report's type check read were installed (see verifyAll). */
const installedPackages = new WeakMap<VerifyReport, string>();

/**
 * The static checks and, when one is plugged in, the extra check, as one report. The extra check
 * runs first: when it installed the dependencies, the type check reads their real declarations
 * (a correct `z.infer<typeof Schema>` is not a stand-in's false alarm, a wrong use of a package
 * is caught) and stand-ins type only what could not be installed.
 */
export async function verifyAll(ctx: StageContext, files: Readonly<Record<string, string>>): Promise<VerifyReport> {
  await prescanModules(Object.entries(files).map(([path, content]) => ({ path, content })));
  if (!ctx.extraCheck || (ctx.role !== 'Checking' && ctx.role !== 'Proven Code')) return verifyProject(files);
  const step: StepSink = (line) => ctx.emit(line.level, line.message, line.step);
  const extra = await ctx.extraCheck(files, { role: ctx.role, note: (message) => ctx.emit('info', message), step, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const report = await typeCheckStep(step, files, () => verifyProject(files, extra.nodeModules ? { nodeModules: extra.nodeModules } : {}));
  staticParts.set(report, structuredClone(report));
  if (extra.nodeModules) installedPackages.set(report, extra.nodeModules);
  for (const entry of extra.checked) {
    const own = report.checked.find((c) => c.path === entry.path);
    if (own) own.checks.push(...entry.checks.filter((c) => !own.checks.includes(c)));
    else report.checked.push({ path: entry.path, checks: [...entry.checks] });
  }
  report.problems.push(...extra.problems);
  report.passed = report.problems.length === 0;
  return report;
}

/**
 * How long the type check waits after its start line: it runs on this thread and holds it for
 * seconds, so the line is given the time to be stored and sent first (the server stores a run's
 * events within about 50 ms, then sends them); on a machine too busy for that it arrives with the
 * end line.
 */
const TYPE_CHECK_HEADSTART_MS = 200;

/**
 * The static checks, told as the type check's step when there is TypeScript to check (the other
 * static checks take milliseconds; the type check, with the installed packages' declarations,
 * seconds).
 */
async function typeCheckStep(sink: StepSink, files: Readonly<Record<string, string>>, verify: () => VerifyReport): Promise<VerifyReport> {
  const typescript = Object.keys(files).filter(isTypeScriptPath).length;
  if (typescript === 0) return verify();
  const id = newLogId();
  const startedAt = new Date();
  const started = performance.now();
  sink(stepStartLine(`Type checking ${typescript} TypeScript ${typescript === 1 ? 'file' : 'files'}`, id, startedAt));
  await new Promise((resolve) => setTimeout(resolve, TYPE_CHECK_HEADSTART_MS));
  const report = verify();
  const typed = report.checked.some((c) => c.checks.includes('types'));
  const problems = report.problems.filter((p) => p.check === 'types');
  const end: StepEnd = !typed
    ? { state: 'skipped', why: 'the TypeScript files do not parse' }
    : problems.length > 0
      ? { state: 'failed', why: `${problems.length} type ${problems.length === 1 ? 'error' : 'errors'}, first in ${problems[0]!.path}: ${problems[0]!.message}` }
      : { state: 'passed', done: 'Type check passed' };
  sink(stepEndLine('Type check', id, startedAt, performance.now() - started, end));
  return report;
}

/** One log line for a verification: what passed and was covered, or the first problems. */
export function summarize(report: VerifyReport): string {
  if (report.passed) return formatProblems(report);
  const files = new Set(report.problems.map((p) => p.path));
  return `${report.problems.length} problem(s) in ${files.size} file(s): ${formatProblems(report).split('\n').slice(0, 3).join('; ')}`;
}

/** A success only when a check read a file: nothing failing in nothing checked is no success. */
function summaryLevel(report: VerifyReport): 'success' | 'warning' {
  return report.passed && coverage(report).covered.length > 0 ? 'success' : 'warning';
}

/** Checks that ran the code: their problems may show up far from where the code is wrong. */
const RAN_CODE: ReadonlySet<string> = new Set(['tests', 'start', 'page-load', 'build', 'render']);
/**
 * What the files around runtime problems (on their stacks, imported by the failing file) may add
 * to a repair prompt, beyond the files with problems: a few modules' worth, so the prompt stays
 * about the problem. A file that does not fit is named, not shown.
 */
const RELATED_CHARS = 30_000;

/**
 * Project files a run's output names, in the order printed: every frame of a stack, not only the
 * top one (`at f (src/a.js:3:5)`, `File "app/util.py", line 4`, `http://project.local/pricing.js:2:9`).
 */
export function filesNamedIn(output: string, files: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const token of output.split(/[\s()"'`,;<>[\]{}]+/)) {
    const path = token
      .replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '') // a URL's scheme and host: the page's origin
      .replace(/^\.?\/+/, '')
      .replace(/(:\d+)*[:.]?$/, ''); // a line and column, or the punctuation of a sentence
    if (files.has(path) && !found.includes(path)) found.push(path);
  }
  return found;
}

// `from .store import Store`, `from inventory.store import Store`, `import a.b as c, d`.
const PY_IMPORT = /^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)|import[ \t]+([\w., \t]+))/gm;

/** Local modules a Python file imports: relative ones from its package, absolute ones from the root or its folder. */
function pythonImports(path: string, content: string, files: ReadonlySet<string>): string[] {
  const dir = dirname(path);
  const found: string[] = [];
  const add = (bases: (string | null)[], module: string) => {
    const stem = module.replaceAll('.', '/');
    const candidates = bases.flatMap((base) => (base === null ? [] : [joinPath(base, `${stem}.py`), joinPath(base, `${stem}/__init__.py`)]));
    const hit = candidates.find((c): c is string => c !== null && files.has(c));
    if (hit !== undefined && hit !== path && !found.includes(hit)) found.push(hit);
  };
  for (const m of content.matchAll(PY_IMPORT)) {
    const names = (m[3] ?? m[4] ?? '').split(',').map((n) => n.trim().split(/\s+/)[0]!).filter(Boolean);
    if (m[4] !== undefined) {
      for (const name of names) add(['', dir], name);
      continue;
    }
    const dots = m[1]!.length;
    const bases = dots > 0 ? [joinPath(dir, '../'.repeat(dots - 1))] : ['', dir];
    if (m[2]) add(bases, m[2]);
    // `from pkg import module` names modules as well as names.
    for (const name of names) add(bases, m[2] ? `${m[2]}.${name}` : name);
  }
  return found;
}

/**
 * Project files `path` imports directly: relative and root-absolute specifiers resolved as the
 * imports check resolves them, a page's own scripts and stylesheets, a Python module's local imports.
 */
export function directImports(path: string, content: string, files: ReadonlySet<string>): string[] {
  if (path.endsWith('.py')) return pythonImports(path, content, files);
  const page = /\.html?$/i.test(path);
  const specifiers = page ? checkHtml(content).references.map((r) => r.url) : (scanModule(path, content)?.imports.map((i) => i.specifier) ?? []);
  const found: string[] = [];
  for (const raw of specifiers) {
    const specifier = stripQuery(raw);
    const kind = classifySpecifier(specifier);
    // In a page every URL without a scheme or a leading "/" is relative.
    const relative = kind.type === 'relative' || (page && kind.type !== 'ignored' && kind.type !== 'root');
    const candidate = relative ? joinPath(dirname(path), specifier) : kind.type === 'root' ? joinPath('', specifier.slice(1)) : null;
    const file = candidate === null ? null : resolveFile(candidate, files);
    if (file !== null && file !== path && !found.includes(file)) found.push(file);
  }
  return found;
}

/**
 * The files a repair needs to see, in this order: those with problems, those the last round
 * changed, those a problem names, the manifest; then, for a problem found by running the code,
 * the files on its stack and those the failing file imports. The error often shows where a bad
 * value is used (main.js), not where it was made (the pricing.js function that returned nothing).
 */
function involvedFiles(files: Record<string, string>, problems: VerifyProblem[], alsoChanged: readonly string[]): { shown: Array<[string, string]>; named: string[] } {
  const order: string[] = [];
  const add = (path: string) => {
    if (files[path] !== undefined && !order.includes(path)) order.push(path);
  };
  for (const p of problems) add(p.path);
  for (const path of alsoChanged) add(path);
  for (const path of Object.keys(files)) if (problems.some((p) => p.message.includes(path))) add(path);
  add('package.json');
  const paths = new Set(Object.keys(files));
  const named: string[] = [];
  let room = RELATED_CHARS;
  for (const problem of problems) {
    if (!RAN_CODE.has(problem.check) || problem.detail === undefined) continue;
    // The detail is `$ command` then the output; the command may list every file (a test run).
    const output = problem.detail.replace(/^\$ [^\n]*\n?/, '');
    const source = files[problem.path];
    for (const path of [...filesNamedIn(output, paths), ...(source === undefined ? [] : directImports(problem.path, source, paths))]) {
      if (order.includes(path) || named.includes(path)) continue;
      if (files[path]!.length > room) named.push(path);
      else {
        room -= files[path]!.length;
        order.push(path);
      }
    }
  }
  return { shown: order.map((path) => [path, files[path]!]), named };
}

/** The involved files for the prompt, in their order (the files with problems first), within the engine's room. */
function promptFiles(ctx: StageContext, involved: ReturnType<typeof involvedFiles>): string {
  const included: Array<[string, string]> = [];
  const omitted = [...involved.named];
  let used = 0;
  for (const [path, content] of involved.shown) {
    const cost = content.length + path.length + 16;
    if (used + cost <= ctx.budgetChars) {
      included.push([path, content]);
      used += cost;
    } else omitted.push(path);
  }
  return formatFilesForPrompt({ included, omitted });
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
function culprits(memory: RunMemory, report: VerifyReport, before: Record<string, string>, after: Record<string, string>, changed: string[], found: VerifyProblem[], nodeModules?: string): string[] {
  const options = nodeModules ? { nodeModules } : {};
  const base = regressions(memory, report, verifyProject(after, options)).length;
  const guilty = changed.filter((path) => {
    const trial = { ...after };
    revert(trial, before, path);
    return regressions(memory, report, verifyProject(trial, options)).length < base;
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
  const involved = involvedFiles(ctx.state.files, report.problems, lastFailed?.changed ?? []);
  // The output that shows each problem (a stack trace, the failing assertion) goes with it.
  const user = repairUser(ctx.ideaText, formatProblems(report, 50, { details: true }), promptFiles(ctx, involved), note);
  const { text, engine } = await ask(ctx, REPAIR_SYSTEM, user, offset, 'repair');
  const answer = await readAnswer(ctx, text);
  const before = ctx.state.files;
  const applied = applyFileChanges(before, answer.files, answer.operations);
  for (const warning of applied.warnings) ctx.emit('warning', warning);

  let trial = await verifyAll(ctx, applied.files);
  const refused: string[] = [];
  const back = regressions(memory, report, trial);
  if (back.length > 0) {
    for (const path of culprits(memory, report, before, applied.files, applied.changed, back, installedPackages.get(trial))) {
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
  ctx.emit(summaryLevel(report), summarize(report));
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
    ctx.emit(summaryLevel(report), `Repair round ${round}: ${did}. ${summarize(report)}`);
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
    ctx.emit(summaryLevel(report), `Proven Code: ${describeCoverage(report)}.`);
    return { ok: true, engine };
  }
  ctx.emit('error', `Proven Code gate failed:\n${formatProblems(report)}`);
  return { ok: false, engine };
};
