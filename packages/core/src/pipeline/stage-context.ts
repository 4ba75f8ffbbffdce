/**
 * What every stage handler shares: the run's state, the engine call, and turning an answer into
 * files the project may take.
 */
import type { ContentPart } from '../engines/engine.js';
import type { PipelineRole } from '../schemas/events.js';
import { formatFilesForPrompt, selectFilesForContext } from './context-budget.js';
import type { CallPurpose, EngineRunner, Emit } from './engine-runner.js';
import type { FileOperation } from './file-operations.js';
import { applyLimits, detectIncomplete, parseFileBlocks } from './file-blocks.js';
import { prescanModules } from './scan-module.js';
import type { ProjectPlan } from './plan.js';
import type { RunMemory } from './run-memory.js';
import type { ProjectCheck, VerifyReport } from './verify.js';

export interface StageState {
  plan: ProjectPlan | null;
  files: Record<string, string>;
  report: VerifyReport | null;
  memory: RunMemory;
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
  /** A check beyond the static ones (the execution gate), when one is plugged in. */
  extraCheck?: ProjectCheck | undefined;
  signal?: AbortSignal | undefined;
}

export interface StageResult {
  ok: boolean;
  engine: string;
  /**
   * The stage failed so that no later stage can do anything (Building wrote no file): the run ends
   * after this stage's event with `reason` as the stage's words and `error` as the run's.
   */
  failure?: { reason: string; error: string } | undefined;
}

export type StageHandler = (ctx: StageContext) => Promise<StageResult>;

/** `positionOffset` moves the call to a later engine in modelOrder (a retry on another engine). */
export async function ask(ctx: StageContext, system: string, user: string, positionOffset = 0, purpose: CallPurpose = 'stage', signal?: AbortSignal) {
  return ctx.runner.call(ctx.position + positionOffset, ctx.role, ctx.cycle, { system, user, images: ctx.images, purpose, ...(signal ? { signal } : {}) }, ctx.emit);
}

export function filesForPrompt(ctx: StageContext, files: Record<string, string>): string {
  return formatFilesForPrompt(selectFilesForContext(files, ctx.idea, ctx.budgetChars));
}

export interface Answer {
  /** Complete files, by path. */
  files: Record<string, string>;
  operations: FileOperation[];
  /** Files whose block the answer never closed: cut off at the token limit (or by a skipped fence). */
  cut: string[];
}

/**
 * Parses an answer into complete, safe files and its operations, and reports what it dropped.
 * Only a block left open is cut off: when an engine stops at its token limit, the files it closed
 * before are complete, whatever the finish reason says about the answer as a whole.
 */
export async function readAnswer(ctx: StageContext, text: string): Promise<Answer> {
  const parsed = parseFileBlocks(text);
  await prescanModules(parsed.files);
  for (const problem of parsed.problems) ctx.emit('warning', problem.message);
  const files: Record<string, string> = {};
  const cut: string[] = [];
  for (const file of parsed.files) {
    const reason = file.truncated ? 'the answer was cut off' : detectIncomplete(file);
    if (reason) {
      if (file.truncated) cut.push(file.path);
      ctx.emit('warning', `${file.path} was incomplete (${reason}); it was not saved.`);
      continue;
    }
    files[file.path] = file.content;
  }
  return { files, operations: parsed.operations, cut };
}

/** Replaces the project's files within the size limits; returns the paths that changed. */
export function commitFiles(ctx: StageContext, next: Record<string, string>): string[] {
  const limited = applyLimits(next);
  for (const problem of limited.problems) ctx.emit('warning', problem.message);
  const before = ctx.state.files;
  const after = limited.files;
  // A new version over the limits leaves the old one in place rather than no file at all.
  for (const path of Object.keys(next)) if (after[path] === undefined && before[path] !== undefined) after[path] = before[path];
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]);
  ctx.state.files = after;
  return changed;
}

/** Adds or replaces files; returns the paths that changed. */
export function mergeFiles(ctx: StageContext, incoming: Record<string, string>): string[] {
  return commitFiles(ctx, { ...ctx.state.files, ...incoming });
}
