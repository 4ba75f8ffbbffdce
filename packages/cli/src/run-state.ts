import {
  PIPELINE_STAGES,
  remainingEstimate,
  settleFailedStages,
  stageStatusAfter,
  stageStatusLabel,
  type ErrorCode,
  type LogLevel,
  type LogStep,
  type PipelineProgress,
  type PipelineRole,
  type StageStatus,
  type VerificationSummary,
} from '@wolfpack/core';
import type { RunStreamItem } from './run-stream.js';

/** How many activity lines the view keeps (the newest). */
export const LOG_LINES = 10;

/** Core's rule, the web's too: only a stage that finished its work is complete (stage-status.ts). */
export type { StageStatus };

export interface StageView {
  role: PipelineRole;
  status: StageStatus;
  /** Why a failed stage failed ("the engines produced no files"), when known. */
  reason?: string | undefined;
  engine?: string | undefined;
  /** Seconds the stage took, once finished. */
  seconds?: number | undefined;
}

export interface LogLine {
  /** The event's log id, or `local-N` for the CLI's own lines (reconnecting, resuming). */
  key: string;
  level: LogLevel;
  message: string;
  /** ISO time; the CLI's own lines use the time they were reduced. */
  timestamp: string;
  /** The step of Checking or Proven Code this line starts or ends (its running time ticks in the live view). */
  step?: LogStep | undefined;
}

export type RunOutcome =
  | { type: 'complete'; projectId: string; filesGenerated: number; verification?: VerificationSummary | undefined; executionSeconds?: number | undefined }
  | { type: 'error'; error: string; code?: ErrorCode | undefined };

/** Everything the live view draws, derived from the events received so far. */
export interface RunState {
  runId: string | undefined;
  /** Id of the newest event received (for `wolfpack attach --since`). */
  lastEventId: number;
  /**
   * The stages each cycle of this run does, in order: all five, or fewer when the `run` event names
   * them ("Repair again" does Proven Code alone). Only these are shown: the others are not this
   * run's work, neither done nor waiting.
   */
  plan: PipelineRole[];
  /** The current cycle's stages (those of `plan`). */
  stages: StageView[];
  cycle: number;
  cycles: number;
  progress: PipelineProgress | undefined;
  /** Local clock (ms) when `progress` arrived, so the view can keep elapsed time ticking. */
  progressAt: number | undefined;
  log: LogLine[];
  /** Set while the connection is being re-established ('Reconnecting…'); cleared by the next event. */
  notice: string | undefined;
  outcome: RunOutcome | undefined;
  /** What the run has been charged so far, in cents (its latest `cost` event); undefined before one, and on free engines. */
  spentCents: number | undefined;
  /** Local lines added so far, for their keys. */
  localLines: number;
}

/**
 * The state before any event. `only`: the stages the run is known to do before its `run` event
 * says so (a repair), so the first frame already shows them alone.
 */
export function initialRunState(runId?: string, only?: readonly PipelineRole[]): RunState {
  const plan = planOf(only);
  return {
    runId,
    lastEventId: 0,
    plan,
    stages: plan.map((role) => ({ role, status: 'pending' })),
    cycle: 1,
    cycles: 1,
    progress: undefined,
    progressAt: undefined,
    log: [],
    notice: undefined,
    outcome: undefined,
    spentCents: undefined,
    localLines: 0,
  };
}

/**
 * The view state after one more item of the run stream. Pure: `now` (ms) is passed in, so the
 * same events always give the same state.
 */
export function reduceRun(state: RunState, item: RunStreamItem, now: number): RunState {
  switch (item.type) {
    case 'reconnecting': {
      const seconds = Math.max(1, Math.round(item.delayMs / 1000));
      const notice = `Reconnecting… (attempt ${item.attempt} of ${item.maxAttempts})`;
      return withLocalLine({ ...state, notice }, 'warning', `Connection lost (${item.reason}). Reconnecting in ${seconds}s, attempt ${item.attempt} of ${item.maxAttempts}.`, now);
    }
    case 'resuming':
      return withLocalLine(
        { ...state, notice: 'Resuming the interrupted run…' },
        'warning',
        'The run was interrupted on the server; resuming it from its last finished stage.',
        now,
      );
    case 'event': {
      // Events after an error mean the run was resumed (a pause for credits ends with one): it goes on.
      const outcome = state.outcome?.type === 'error' && item.event.type !== 'error' ? undefined : state.outcome;
      return reduceEvent({ ...state, lastEventId: item.id, notice: undefined, outcome }, item.event, now);
    }
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}

function reduceEvent(state: RunState, event: Extract<RunStreamItem, { type: 'event' }>['event'], now: number): RunState {
  switch (event.type) {
    case 'run': {
      // The server's word on the run's stages; those it does keep what they showed.
      const plan = planOf(event.stages);
      const stages = plan.map((role): StageView => state.stages.find((stage) => stage.role === role) ?? { role, status: 'pending' });
      return { ...state, runId: event.runId, plan, stages };
    }
    case 'stage': {
      const { progress } = event;
      const size = state.plan.length;
      const cycles = Math.max(1, Math.ceil(progress.total / size));
      const after = stageStatusAfter(event, state.stages.find((stage) => stage.role === event.role), state.progress);
      // A start event's `current` is the stage's position; a finish event's is one past it.
      const position = after.status === 'running' ? progress.current : progress.current - 1;
      const cycle = Math.min(cycles, Math.floor(Math.max(0, position) / size) + 1);
      const base = cycle !== state.cycle ? state.plan.map((role): StageView => ({ role, status: 'pending' })) : state.stages;
      const stages = base.map((stage): StageView => {
        if (stage.role !== event.role) return stage;
        if (after.status === 'running') return { role: stage.role, status: 'running', engine: event.engine };
        return { role: stage.role, ...after, engine: event.engine ?? stage.engine, seconds: event.executionTime };
      });
      return { ...state, stages, cycle, cycles, progress, progressAt: now };
    }
    case 'cost':
      return { ...state, spentCents: event.spentCents };
    case 'log':
      return { ...state, log: [...state.log, { key: event.id, level: event.level, message: event.message, timestamp: event.timestamp, ...(event.step ? { step: event.step } : {}) }].slice(-LOG_LINES) };
    case 'complete': {
      const { projectId, filesGenerated, verification, executionSeconds } = event;
      return { ...state, outcome: { type: 'complete', projectId, filesGenerated, verification, executionSeconds } };
    }
    case 'error': {
      // Paused for credits the run stays resumable; any other error ends it: the stage under way
      // failed and the stages after it never ran.
      const stages = event.code === 'PAYMENT_REQUIRED' ? state.stages : settleFailedStages(state.stages, event.error);
      return withLocalLine({ ...state, stages, outcome: { type: 'error', error: event.error, code: event.code } }, 'error', `Error: ${event.error}`, now);
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The five stages in pipeline order, or those of them a run names. */
function planOf(only: readonly PipelineRole[] | undefined): PipelineRole[] {
  return only === undefined ? [...PIPELINE_STAGES] : PIPELINE_STAGES.filter((role) => only.includes(role));
}

/** Whether the run does fewer than the five stages (a repair), so views say which it does. */
export function isPartialRun(state: Pick<RunState, 'plan'>): boolean {
  return state.plan.length < PIPELINE_STAGES.length;
}

/** Each stage as `--json` and the plain lines report it: role, status, and its words ('Failed: …', 'Not run'). */
export function stageSummary(state: Pick<RunState, 'stages'>): { role: PipelineRole; status: StageStatus; label: string; reason?: string }[] {
  return state.stages.map((stage) => ({ role: stage.role, status: stage.status, label: stageStatusLabel(stage), ...(stage.reason ? { reason: stage.reason } : {}) }));
}

function withLocalLine(state: RunState, level: LogLevel, message: string, now: number): RunState {
  const localLines = state.localLines + 1;
  const line: LogLine = { key: `local-${localLines}`, level, message, timestamp: new Date(now).toISOString() };
  return { ...state, localLines, log: [...state.log, line].slice(-LOG_LINES) };
}

/**
 * Elapsed seconds and time left, moved on by the local clock while the run is going; time left is
 * null when unknown (no stage finished yet, the estimate ran out, or the run failed).
 */
export function liveTimes(state: RunState, now: number): { elapsedSeconds: number; remainingSeconds: number | null } | undefined {
  const { progress, progressAt } = state;
  if (progress === undefined || progressAt === undefined) return undefined;
  const since = state.outcome === undefined && state.notice === undefined ? Math.max(0, (now - progressAt) / 1000) : 0;
  return {
    elapsedSeconds: progress.elapsedSeconds + since,
    remainingSeconds: state.outcome?.type === 'error' ? null : remainingEstimate(progress, since),
  };
}

/** 75 → "1:15", 3700 → "1:01:40". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
