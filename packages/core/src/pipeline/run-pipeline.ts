import { AppError } from '../errors.js';
import type { CallBudget } from '../billing/call-purse.js';
import type { ContentPart, Engine } from '../engines/engine.js';
import type { Attachment } from '../schemas/attachments.js';
import { PIPELINE_STAGES, type CostEvent, type LogEvent, type PipelineRole, type StageEvent, type VerificationSummary } from '../schemas/events.js';
import { contextBudgetChars } from './context-budget.js';
import { EngineRunner, newLogId, type EngineCallRecord, type Emit } from './engine-runner.js';
import { withEvents } from './event-channel.js';
import { pipelineProgress } from './progress.js';
import type { ProjectPlan } from './plan.js';
import { ideaSection } from './prompts/index.js';
import { emptyMemory, snapshotMemory, type RunMemory } from './run-memory.js';
import { NO_FILES } from './stage-building.js';
import { STAGE_HANDLERS, type StageResult, type StageState } from './stages.js';
import { staticPartOf } from './stage-repair.js';
import { coverage, verifyProject, type ProjectCheck, type VerifyReport } from './verify.js';

/** Where a run stands after a finished stage; enough to resume it without redoing that stage. */
export interface PipelineCheckpoint {
  /** Stages finished so far, over all cycles (0 .. stages x cycles). */
  completedStages: number;
  plan: ProjectPlan | null;
  files: Record<string, string>;
  stages: StageRecord[];
  /** Milliseconds of stage work so far (what progress and savings count). */
  executionMs: number;
  /** Problems seen and repairs tried so far; absent in checkpoints stored before it existed. */
  memory?: RunMemory;
}

export interface StageRecord {
  cycle: number;
  role: PipelineRole;
  ok: boolean;
  /** The engine that finished the stage (after any fallback); '' when the stage needed none. */
  engine: string;
  /** Why a stage that failed the run failed ("the engines produced no files"), as its stage event says. */
  reason?: string;
  durationMs: number;
  tokens: number;
}

export interface PipelineInput {
  idea: string;
  attachments?: Attachment[];
  /** How many times the stages repeat. @default 1 */
  cycles?: number;
  /**
   * The stages each cycle does, in pipeline order. @default all five. "Repair again" does
   * `['Proven Code']` alone on `existingFiles`.
   */
  stages?: readonly PipelineRole[];
  /** In modelOrder: stage n starts with engines[n mod count], then falls back in this order. */
  engines: Engine[];
  /** Files of the project a continued run builds on. */
  existingFiles?: Record<string, string>;
  /** Resume after this checkpoint instead of starting over. */
  checkpoint?: PipelineCheckpoint;
  signal?: AbortSignal;
  /** Files Building writes at once. @default 10 */
  buildConcurrency?: number;
  /** Repair rounds in Checking and in Proven Code. @default 2 */
  repairRounds?: number;
  /** Times an incomplete file is sent back for completion. @default 2 */
  completionAttempts?: number;
  /**
   * A check run with the static ones in Checking and Proven Code (the execution gate): its
   * problems are repaired, guarded against regressions and reported like theirs.
   */
  extraCheck?: ProjectCheck;
  now?: () => number;
  /**
   * Called after each finished stage, before its completion event, with the stage's engine calls:
   * persist both together and a resumed run neither redoes nor re-charges that stage.
   */
  onCheckpoint?: (checkpoint: PipelineCheckpoint, stageCalls: EngineCallRecord[]) => Promise<void> | void;
  /**
   * Asked before every engine call, on the engine about to be called (CallPurse): the call's
   * output cap and what it holds, or a refusal (an AppError PAYMENT_REQUIRED) that stops the run
   * before that call. A stage that calls no engine (Checking with nothing to fix, a Proven Code
   * that passes) never asks. A grant may come with a hold still being taken: the call starts at
   * once and its answer counts only once the hold is in. Without one, every call gets the engine's
   * full cap and nothing is held.
   */
  budget?: CallBudget;
  /** What the run was charged before this attempt (a resumed run), where its `cost` events start. @default 0 */
  spentCents?: number;
}

export interface PipelineOutcome {
  files: Record<string, string>;
  verification: VerificationSummary;
  /** What the static checks say of the final files (the verification record's static part). */
  staticReport: VerifyReport;
  stages: StageRecord[];
  executionMs: number;
}

export type PipelineStreamEvent = Omit<StageEvent, never> | LogEvent | CostEvent;

const TEXT_ATTACHMENT_LIMIT = 40_000;

/**
 * The staged generation: Planning, Building, Checking, Polishing, Proven Code, `cycles` times.
 * Yields stage and log events as they happen and returns the files with their verification.
 * Throws an AppError when no engine can do a stage.
 */
export async function* runPipeline(input: PipelineInput): AsyncGenerator<PipelineStreamEvent, PipelineOutcome> {
  const now = input.now ?? Date.now;
  const cycles = input.cycles ?? 1;
  const roles = PIPELINE_STAGES.filter((role) => !input.stages || input.stages.includes(role));
  if (roles.length === 0) throw new AppError('BAD_REQUEST', 'A run must do at least one stage.');
  const total = roles.length * cycles;
  const checkpoint = input.checkpoint;
  const state: StageState = {
    plan: checkpoint?.plan ?? null,
    files: { ...(checkpoint?.files ?? input.existingFiles ?? {}) },
    report: null,
    memory: checkpoint?.memory ? snapshotMemory(checkpoint.memory) : emptyMemory(),
  };
  const stages: StageRecord[] = [...(checkpoint?.stages ?? [])];
  let executionMs = checkpoint?.executionMs ?? 0;
  const startedAt = now() - executionMs;
  let stageCalls: EngineCallRecord[] = [];
  let spentCents = input.spentCents ?? 0;
  /** Where the stage under way sends its events. */
  let push: ((event: PipelineStreamEvent) => void) | null = null;
  const runner = new EngineRunner(
    input.engines,
    (record) => {
      stageCalls.push(record);
      // What the run has cost so far, after every call that costs money.
      if (record.pricePer1kTokensCents > 0) {
        spentCents += record.billedCents;
        push?.({ type: 'cost', spentCents });
      }
    },
    input.signal,
    input.budget,
  );
  const shared = {
    idea: input.idea,
    ideaText: ideaSection(input.idea, attachmentsText(input.attachments ?? [])),
    images: imageParts(input.attachments ?? []),
    budgetChars: Math.min(...input.engines.map((e) => contextBudgetChars(e.contextTokens))),
    buildConcurrency: input.buildConcurrency ?? 10,
    repairRounds: input.repairRounds ?? 2,
    completionAttempts: input.completionAttempts ?? 2,
    runner,
    extraCheck: input.extraCheck,
    signal: input.signal,
  };

  for (let position = checkpoint?.completedStages ?? 0; position < total; position++) {
    input.signal?.throwIfAborted();
    const cycle = Math.floor(position / roles.length) + 1;
    const role = roles[position % roles.length]!;
    const primary = runner.primaryFor(position);
    runner.startStage({ position, cycle, role });
    const stageStart = now();
    yield { type: 'stage', role, ok: false, executionTime: 0, progress: pipelineProgress(position, total, startedAt, now()), engine: primary.key };
    if (position % roles.length === 0) {
      yield log('info', cycles > 1 ? `Cycle ${cycle} of ${cycles}: ${role} with engine ${primary.key}` : `${role} with engine ${primary.key}`);
    } else {
      yield log('info', `${role} with engine ${primary.key}`);
    }
    stageCalls = [];
    const handler = STAGE_HANDLERS[role];
    const { ok, engine, failure } = yield* withEvents<PipelineStreamEvent, StageResult>((send) => {
      push = send;
      const emit: Emit = (level, message, step) => send(log(level, message, step));
      return handler({ ...shared, position, cycle, role, emit, state });
    });
    push = null;
    const durationMs = now() - stageStart;
    executionMs += durationMs;
    stages.push({ cycle, role, ok, engine, ...(failure ? { reason: failure.reason } : {}), durationMs, tokens: stageCalls.reduce((sum, c) => sum + c.totalTokens, 0) });
    await input.onCheckpoint?.(
      { completedStages: position + 1, plan: state.plan, files: { ...state.files }, stages: [...stages], executionMs, memory: snapshotMemory(state.memory) },
      stageCalls,
    );
    yield {
      type: 'stage',
      role,
      ok,
      executionTime: Math.round(durationMs / 100) / 10,
      progress: pipelineProgress(position + 1, total, startedAt, now()),
      engine: engine || primary.key,
      ...(failure ? { reason: failure.reason } : {}),
    };
    if (failure) throw new AppError('BAD_GATEWAY', failure.error);
  }

  const report = state.report ?? verifyProject(state.files);
  // A run without Building (a repair of a project with no files) can still end with none.
  if (Object.keys(state.files).length === 0) throw new AppError('BAD_GATEWAY', NO_FILES.error);
  return {
    files: state.files,
    // Proven Code's last verification already ran the static checks on these files: not again.
    staticReport: state.report ? staticPartOf(state.report) : verifyProject(state.files),
    verification: {
      passed: report.passed,
      // Only files a check read count as checked (a Python file no check reads does not).
      checkedFiles: coverage(report).covered.length,
      problems: report.problems.map((p) => ({ path: p.path, check: p.check, message: p.message })),
    },
    stages,
    executionMs,
  };
}

function log(level: LogEvent['level'], message: string, step?: LogEvent['step']): LogEvent {
  return { type: 'log', id: newLogId(), level, message, timestamp: new Date().toISOString(), ...(step ? { step } : {}) };
}

function attachmentsText(attachments: Attachment[]): string {
  return attachments
    .filter((a) => !a.mimeType.startsWith('image/'))
    .map((a) => {
      const body = a.content.length > TEXT_ATTACHMENT_LIMIT ? `${a.content.slice(0, TEXT_ATTACHMENT_LIMIT)}\n[truncated]` : a.content;
      return `--- ${a.filename} ---\n${body}`;
    })
    .join('\n\n');
}

function imageParts(attachments: Attachment[]): ContentPart[] {
  return attachments
    .filter((a) => a.mimeType.startsWith('image/') && a.content.startsWith('data:'))
    .map((a) => ({ type: 'image', dataUrl: a.content, mimeType: a.mimeType }));
}
