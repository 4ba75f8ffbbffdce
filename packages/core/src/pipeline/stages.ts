import type { ContentPart } from '../engines/engine.js';
import type { PipelineRole } from '../schemas/events.js';
import { formatFilesForPrompt, selectFilesForContext } from './context-budget.js';
import type { CallPurpose, EngineRunner, Emit } from './engine-runner.js';
import { mapConcurrent } from './event-channel.js';
import { applyLimits, detectIncomplete, parseFileBlocks } from './file-blocks.js';
import { formatPlan, parsePlan, type PlannedFile, type ProjectPlan } from './plan.js';
import {
  BUILD_ALL_SYSTEM,
  BUILDING_SYSTEM,
  buildingUser,
  completionUser,
  PLANNING_SYSTEM,
  planningUser,
  POLISHING_SYSTEM,
  polishingUser,
  REPAIR_SYSTEM,
  repairUser,
} from './prompts/index.js';
import { formatProblems, verifyProject, type VerifyReport } from './verify.js';

export interface StageState {
  plan: ProjectPlan | null;
  files: Record<string, string>;
  report: VerifyReport | null;
}

export interface StageContext {
  idea: string;
  ideaText: string;
  images: ContentPart[];
  budgetChars: number;
  buildConcurrency: number;
  repairRounds: number;
  completionAttempts: number;
  runner: EngineRunner;
  position: number;
  cycle: number;
  role: PipelineRole;
  emit: Emit;
  state: StageState;
}

export interface StageResult {
  ok: boolean;
  engine: string;
}

type StageHandler = (ctx: StageContext) => Promise<StageResult>;

const MAX_POLISHED_FILES = 8;

async function ask(ctx: StageContext, system: string, user: string, positionOffset = 0, purpose: CallPurpose = 'stage', signal?: AbortSignal) {
  return ctx.runner.call(ctx.position + positionOffset, ctx.role, ctx.cycle, { system, user, images: ctx.images, purpose, ...(signal ? { signal } : {}) }, ctx.emit);
}

function filesForPrompt(ctx: StageContext, files: Record<string, string>): string {
  return formatFilesForPrompt(selectFilesForContext(files, ctx.idea, ctx.budgetChars));
}

/** Parses an answer into complete, safe files; reports what it had to drop. */
function takeFiles(ctx: StageContext, text: string, truncatedByEngine: boolean): Record<string, string> {
  const parsed = parseFileBlocks(text);
  for (const problem of parsed.problems) ctx.emit('warning', problem.message);
  const out: Record<string, string> = {};
  const last = parsed.files.at(-1);
  for (const file of parsed.files) {
    // An answer cut at the token limit leaves its last file unfinished even if it looks closed.
    const cut = (parsed.truncated || truncatedByEngine) && file === last;
    const reason = cut ? 'the answer was cut off' : detectIncomplete(file);
    if (reason) {
      ctx.emit('warning', `${file.path} was incomplete (${reason}); it was not saved.`);
      continue;
    }
    out[file.path] = file.content;
  }
  return out;
}

/** Sends an incomplete file back for completion, a bounded number of times. */
async function completeFile(ctx: StageContext, path: string, reason: string, previous: string, signal?: AbortSignal): Promise<string | null> {
  let why = reason;
  let last = previous;
  for (let attempt = 1; attempt <= ctx.completionAttempts; attempt++) {
    ctx.emit('warning', `${path} was incomplete (${why}); asking for the complete file (attempt ${attempt} of ${ctx.completionAttempts}).`);
    const { text, result } = await ask(ctx, BUILDING_SYSTEM, completionUser(ctx.ideaText, path, why, last.slice(0, 20_000)), 0, 'completion', signal);
    const parsed = parseFileBlocks(text);
    const file = parsed.files.find((f) => f.path === path) ?? (parsed.files.length === 1 ? { ...parsed.files[0]!, path } : undefined);
    if (!file) {
      why = 'the answer held no file';
      continue;
    }
    const incomplete = parsed.truncated || result.finishReason === 'length' ? 'the answer was cut off' : detectIncomplete(file);
    if (!incomplete) return file.content;
    why = incomplete;
    last = file.content;
  }
  ctx.emit('error', `${path} is still incomplete after ${ctx.completionAttempts} attempts and was not saved.`);
  return null;
}

/** `signal` aborts when another file of the same stage failed: the stage fails anyway. */
async function buildPlannedFile(ctx: StageContext, planText: string, planned: PlannedFile, signal: AbortSignal): Promise<Record<string, string>> {
  const { text, result } = await ask(ctx, BUILDING_SYSTEM, buildingUser(ctx.ideaText, planText, planned.path, planned.purpose), 0, 'stage', signal);
  const parsed = parseFileBlocks(text);
  const out: Record<string, string> = {};
  // A model that names the one file differently (or not at all) still wrote the planned file.
  const main = parsed.files.find((f) => f.path === planned.path) ?? (parsed.files.length === 1 ? { ...parsed.files[0]!, path: planned.path } : undefined);
  if (!main) {
    const content = await completeFile(ctx, planned.path, 'the answer held no file', text.slice(0, 4000), signal);
    if (content !== null) out[planned.path] = content;
    return out;
  }
  const cut = parsed.truncated || result.finishReason === 'length';
  const reason = cut ? 'the answer was cut off' : detectIncomplete(main);
  const content = reason ? await completeFile(ctx, planned.path, reason, main.content, signal) : main.content;
  if (content !== null) out[planned.path] = content;
  // Extra files a model adds (a helper it imports) are kept when complete.
  for (const extra of parsed.files) {
    if (extra.path !== main.path && !detectIncomplete(extra)) out[extra.path] = extra.content;
  }
  return out;
}

function mergeFiles(ctx: StageContext, incoming: Record<string, string>): string[] {
  const limited = applyLimits({ ...ctx.state.files, ...incoming });
  for (const problem of limited.problems) ctx.emit('warning', problem.message);
  const changed = Object.keys(incoming).filter((p) => limited.files[p] !== undefined && ctx.state.files[p] !== limited.files[p]);
  ctx.state.files = limited.files;
  return changed;
}

const planning: StageHandler = async (ctx) => {
  const existing = Object.keys(ctx.state.files).length > 0 ? filesForPrompt(ctx, ctx.state.files) : '';
  const { text, engine } = await ask(ctx, PLANNING_SYSTEM, planningUser(ctx.ideaText, existing));
  const plan = parsePlan(text);
  if (plan.files.length === 0) {
    ctx.emit('warning', `Engine ${engine.key} gave no file plan; Building will write the project in one pass.`);
    ctx.state.plan = { summary: text.slice(0, 4000), files: [] };
  } else {
    const names = plan.files.slice(0, 8).map((f) => f.path).join(', ');
    ctx.emit('success', `Planned ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}: ${names}${plan.files.length > 8 ? ', …' : ''}`);
    ctx.state.plan = plan;
  }
  return { ok: true, engine: engine.key };
};

const building: StageHandler = async (ctx) => {
  const plan = ctx.state.plan ?? { summary: ctx.idea, files: [] };
  const planText = formatPlan(plan);
  let engineKey = ctx.runner.primaryFor(ctx.position).key;
  let built: Record<string, string> = {};
  if (plan.files.length > 0) {
    const parts = await mapConcurrent(plan.files, ctx.buildConcurrency, (f, _i, signal) => buildPlannedFile(ctx, planText, f, signal));
    built = Object.assign({}, ...parts) as Record<string, string>;
  }
  // No plan, or nothing usable came back: ask for the whole project at once, on the next engine too.
  for (let offset = 0; Object.keys(built).length === 0 && offset < 2; offset++) {
    const { text, engine, result } = await ask(ctx, BUILD_ALL_SYSTEM, `${ctx.ideaText}\n\nPlan:\n${planText}`, offset);
    engineKey = engine.key;
    built = takeFiles(ctx, text, result.finishReason === 'length');
  }
  const changed = mergeFiles(ctx, built);
  const bytes = changed.reduce((sum, p) => sum + new TextEncoder().encode(ctx.state.files[p] ?? '').length, 0);
  ctx.emit(changed.length > 0 ? 'success' : 'warning', `Wrote ${changed.length} file${changed.length === 1 ? '' : 's'} (${(bytes / 1024).toFixed(1)} KB).`);
  return { ok: true, engine: engineKey };
};

/** Verify, then send the problems back for repair until the checks pass or the rounds run out. */
async function verifyAndRepair(ctx: StageContext): Promise<{ report: VerifyReport; engine: string }> {
  let report = verifyProject(ctx.state.files);
  let engineKey = '';
  ctx.emit(report.passed ? 'success' : 'warning', summarize(report));
  for (let round = 1; !report.passed && round <= ctx.repairRounds; round++) {
    const involved = new Set(report.problems.map((p) => p.path));
    if (ctx.state.files['package.json'] !== undefined) involved.add('package.json');
    const subset = Object.fromEntries(Object.entries(ctx.state.files).filter(([p]) => involved.has(p)));
    const { text, engine, result } = await ask(ctx, REPAIR_SYSTEM, repairUser(ctx.ideaText, formatProblems(report), filesForPrompt(ctx, subset)), 0, 'repair');
    engineKey = engine.key;
    const changed = mergeFiles(ctx, takeFiles(ctx, text, result.finishReason === 'length'));
    report = verifyProject(ctx.state.files);
    ctx.emit(report.passed ? 'success' : 'warning', `Repair round ${round}: ${changed.length} file(s) changed. ${summarize(report)}`);
  }
  ctx.state.report = report;
  return { report, engine: engineKey };
}

function summarize(report: VerifyReport): string {
  if (report.passed) return `All ${report.checked.length} files passed the checks.`;
  const files = new Set(report.problems.map((p) => p.path));
  return `${report.problems.length} problem(s) in ${files.size} file(s): ${formatProblems(report).split('\n').slice(0, 3).join('; ')}`;
}

const checking: StageHandler = async (ctx) => {
  const { engine } = await verifyAndRepair(ctx);
  return { ok: true, engine };
};

const polishing: StageHandler = async (ctx) => {
  const { text, engine, result } = await ask(ctx, POLISHING_SYSTEM, polishingUser(ctx.ideaText, filesForPrompt(ctx, ctx.state.files)));
  if (/^\s*UNCHANGED\s*\.?\s*$/i.test(text)) {
    ctx.emit('info', 'Polishing found nothing to improve.');
    return { ok: true, engine: engine.key };
  }
  const proposed = Object.entries(takeFiles(ctx, text, result.finishReason === 'length')).slice(0, MAX_POLISHED_FILES);
  const before = verifyProject(ctx.state.files);
  const brokenBefore = new Set(before.problems.map((p) => `${p.path}\u0000${p.check}\u0000${p.message}`));
  const kept: string[] = [];
  for (const [path, content] of proposed) {
    const previous = ctx.state.files[path];
    const trial = { ...ctx.state.files, [path]: content };
    // A polish that breaks a check is reverted: Polishing may only improve.
    const fresh = verifyProject(trial).problems.filter((p) => !brokenBefore.has(`${p.path}\u0000${p.check}\u0000${p.message}`));
    if (fresh.length > 0) {
      ctx.emit('warning', `Kept the earlier ${path}: the polished version failed ${fresh[0]!.check} (${fresh[0]!.message}).`);
      continue;
    }
    if (previous !== content) {
      mergeFiles(ctx, { [path]: content });
      kept.push(path);
    }
  }
  ctx.emit(kept.length > 0 ? 'success' : 'info', kept.length > 0 ? `Polished ${kept.join(', ')}.` : 'Polishing changed nothing.');
  return { ok: true, engine: engine.key };
};

const provenCode: StageHandler = async (ctx) => {
  const { report, engine } = await verifyAndRepair(ctx);
  if (report.passed) {
    const checks = new Set(report.checked.flatMap((c) => c.checks));
    ctx.emit('success', `Proven Code: ${report.checked.length} files verified (${[...checks].join(', ') || 'no checks apply'}).`);
    return { ok: true, engine };
  }
  ctx.emit('error', `Proven Code gate failed:\n${formatProblems(report)}`);
  return { ok: false, engine };
};

export const STAGE_HANDLERS: Record<PipelineRole, StageHandler> = {
  Planning: planning,
  Building: building,
  Checking: checking,
  Polishing: polishing,
  'Proven Code': provenCode,
};
