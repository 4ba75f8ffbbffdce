/** Planning and Building: decide the files, then write each one. */
import { mapConcurrent } from './event-channel.js';
import { detectIncomplete, parseFileBlocks } from './file-blocks.js';
import { formatPlan, parsePlan, type PlannedFile } from './plan.js';
import { BUILD_ALL_SYSTEM, BUILDING_SYSTEM, buildingUser, completionUser, PLANNING_SYSTEM, planningUser } from './prompts/index.js';
import { prescanModules } from './scan-module.js';
import { ask, filesForPrompt, mergeFiles, readAnswer, type StageContext, type StageHandler } from './stage-context.js';

/** Sends an incomplete file back for completion, a bounded number of times. */
async function completeFile(ctx: StageContext, path: string, reason: string, previous: string, signal?: AbortSignal): Promise<string | null> {
  let why = reason;
  let last = previous;
  for (let attempt = 1; attempt <= ctx.completionAttempts; attempt++) {
    ctx.emit('warning', `${path} was incomplete (${why}); asking for the complete file (attempt ${attempt} of ${ctx.completionAttempts}).`);
    const { text } = await ask(ctx, BUILDING_SYSTEM, completionUser(ctx.ideaText, path, why, last.slice(0, 20_000)), 0, 'completion', signal);
    const parsed = parseFileBlocks(text);
    await prescanModules(parsed.files);
    const file = parsed.files.find((f) => f.path === path) ?? (parsed.files.length === 1 ? { ...parsed.files[0]!, path } : undefined);
    if (!file) {
      why = 'the answer held no file';
      continue;
    }
    // Cut off means this file's block never closed, not merely that the answer hit the limit.
    const incomplete = file.truncated ? 'the answer was cut off' : detectIncomplete(file);
    if (!incomplete) return file.content;
    why = incomplete;
    last = file.content;
  }
  ctx.emit('error', `${path} is still incomplete after ${ctx.completionAttempts} attempts and was not saved.`);
  return null;
}

/** `signal` aborts when another file of the same stage failed: the stage fails anyway. */
async function buildPlannedFile(ctx: StageContext, planText: string, planned: PlannedFile, signal: AbortSignal): Promise<Record<string, string>> {
  const { text } = await ask(ctx, BUILDING_SYSTEM, buildingUser(ctx.ideaText, planText, planned.path, planned.purpose), 0, 'stage', signal);
  const parsed = parseFileBlocks(text);
  // Building's files tend to arrive together: parse them in esbuild's service, not one by one on this thread.
  await prescanModules(parsed.files);
  // A block under an unsafe path is dropped; say so, or the file just seems to be missing.
  for (const problem of parsed.problems) if (problem.kind === 'unsafe-path') ctx.emit('warning', problem.message);
  const out: Record<string, string> = {};
  // A model that names the one file differently (or not at all) still wrote the planned file.
  const main = parsed.files.find((f) => f.path === planned.path) ?? (parsed.files.length === 1 ? { ...parsed.files[0]!, path: planned.path } : undefined);
  if (!main) {
    const content = await completeFile(ctx, planned.path, 'the answer held no file', text.slice(0, 4000), signal);
    if (content !== null) out[planned.path] = content;
    return out;
  }
  // A model that answers with the whole project and runs out of tokens cut only its last block:
  // the planned file is complete when its own block closed, whatever the finish reason.
  const reason = main.truncated ? 'the answer was cut off' : detectIncomplete(main);
  const content = reason ? await completeFile(ctx, planned.path, reason, main.content, signal) : main.content;
  if (content !== null) out[planned.path] = content;
  // Extra files a model adds (a helper it imports) are kept when complete.
  for (const extra of parsed.files) {
    if (extra.path !== main.path && !detectIncomplete(extra)) out[extra.path] = extra.content;
  }
  return out;
}

/** How a run whose engines wrote no file ends: the stage's words and the run's error. */
export const NO_FILES = {
  reason: 'the engines produced no files',
  error: 'The engines produced no files for this idea. Try again or describe the project in more detail.',
} as const;

export const planning: StageHandler = async (ctx) => {
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

export const building: StageHandler = async (ctx) => {
  const plan = ctx.state.plan ?? { summary: ctx.idea, files: [] };
  const planText = formatPlan(plan);
  let engineKey = ctx.runner.primaryFor(ctx.position).key;
  let built: Record<string, string> = {};
  if (plan.files.length > 0) {
    const parts = await mapConcurrent(plan.files, ctx.buildConcurrency, (f, _i, signal) => buildPlannedFile(ctx, planText, f, signal));
    built = Object.assign({}, ...parts) as Record<string, string>;
  }
  // No plan, or nothing usable came back: ask for the whole project at once, on the next engine too.
  // A file cut off here is left out; the imports check finds it missing and Checking writes it.
  for (let offset = 0; Object.keys(built).length === 0 && offset < 2; offset++) {
    const { text, engine } = await ask(ctx, BUILD_ALL_SYSTEM, `${ctx.ideaText}\n\nPlan:\n${planText}`, offset);
    engineKey = engine.key;
    const answer = await readAnswer(ctx, text);
    if (answer.operations.length > 0) ctx.emit('warning', `Building writes files only; ${answer.operations.length} DELETE/MOVE line(s) were ignored.`);
    built = answer.files;
  }
  const changed = mergeFiles(ctx, built);
  const bytes = changed.reduce((sum, p) => sum + new TextEncoder().encode(ctx.state.files[p] ?? '').length, 0);
  ctx.emit(changed.length > 0 ? 'success' : 'warning', `Wrote ${changed.length} file${changed.length === 1 ? '' : 's'} (${(bytes / 1024).toFixed(1)} KB).`);
  // Nothing to check, polish or prove: the run ends here rather than "completing" three empty stages.
  if (Object.keys(ctx.state.files).length === 0) return { ok: false, engine: engineKey, failure: NO_FILES };
  return { ok: true, engine: engineKey };
};
