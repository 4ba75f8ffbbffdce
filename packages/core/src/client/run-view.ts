/**
 * A run as the web page and the CLI both show it: one state, one set of names, reduced from what
 * {@link followRun} yields. Pure (`now` is passed in), so the same items always give the same state;
 * each client draws it in its own way.
 */
import type { ErrorCode } from '../errors.js';
import { remainingEstimate, settleFailedStages, stageStatusAfter, type StageStatus } from '../pipeline/stage-status.js';
import { PIPELINE_STAGES, type LogStep, type PipelineEvent, type PipelineProgress, type PipelineRole, type VerificationSummary } from '../schemas/events.js';
import type { RunItem } from './follow-run.js';

/**
 * Where the run stands. `starting`: the request is out, no event yet. `reconnecting`: the
 * connection dropped and the client is reattaching. `interrupted`: the server stopped mid-run (or
 * the balance cannot pay for the next stage) and the run can be resumed. `disconnected`: the client
 * gave up reattaching. `unauthorized`: the server wants a signed-in user.
 */
export type RunPhase = 'idle' | 'starting' | 'running' | 'reconnecting' | 'interrupted' | 'disconnected' | 'complete' | 'failed' | 'unauthorized';

export interface StageView {
  role: PipelineRole;
  /** 1-based position in the pipeline. */
  number: number;
  status: StageStatus;
  /** Seconds the stage took so far. */
  executionTime: number;
  /** Generic engine label, when the server named one. */
  engine: string | undefined;
  /** Why a failed stage failed ("the engines produced no files"), when known. */
  reason?: string | undefined;
}

/** One line of the activity feed: a server `log` event, or the client's own words. */
export interface FeedItem {
  id: string;
  type: 'info' | 'success' | 'warning' | 'error' | (string & {});
  message: string;
  timestamp: string;
  /** The step of Checking or Proven Code this line starts or ends. */
  step?: LogStep;
}

/** What a completed run produced. */
export interface RunResult {
  projectId: string;
  filesGenerated: number;
  verification: VerificationSummary | undefined;
  /** Seconds of engine work, the base of the savings estimates. */
  executionSeconds: number;
  /** The stages the run did, when not all five ("Repair again": Proven Code only); null for a build. */
  onlyStages: readonly PipelineRole[] | null;
}

export interface RunView {
  phase: RunPhase;
  runId: string | null;
  conversationId: string | null;
  /** The newest stored event's id (0: none yet), sent as Last-Event-ID when reattaching. */
  lastEventId: number;
  /** The current cycle's stages, all five in order; those the run does not do are `skipped`. */
  stages: StageView[];
  /** The stages this run does when not all five (from the `run` event, or the start); null for all five. */
  onlyStages: readonly PipelineRole[] | null;
  cycle: number;
  cycles: number;
  progress: PipelineProgress | null;
  /** Local clock (ms) when `progress` arrived, so views keep elapsed time ticking. */
  progressAt: number | null;
  /** Oldest first, at most {@link FEED_LIMIT}. */
  feed: FeedItem[];
  result: RunResult | null;
  error: string | null;
  errorCode: ErrorCode | null;
  /** The run stopped because the balance cannot cover its next stage; it can be resumed after a top-up. */
  paymentRequired: boolean;
  /** What the run has been charged so far, in cents (its latest `cost` event); null before one. */
  spentCents: number | null;
  /** 1-based attempt while reconnecting, else 0. */
  reconnectAttempt: number;
  /** What the connection is doing ("Reconnecting… (attempt 2 of 10)"); null while events flow. */
  notice: string | null;
  /** Client lines added so far, for their ids. */
  localLines: number;
}

/** Feed lines beyond this are dropped, oldest first, so a long session cannot grow without end. */
export const FEED_LIMIT = 500;

/** The stages of a run that does `only` these (all five when null): the others are `skipped`. */
export function limitStages(stages: readonly StageView[], only: readonly PipelineRole[] | null): StageView[] {
  return stages.map((stage): StageView => {
    if (only === null || only.includes(stage.role)) return stage.status === 'skipped' ? { ...stage, status: 'pending' } : stage;
    return { ...stage, status: 'skipped', executionTime: 0, engine: undefined };
  });
}

function pendingStages(only: readonly PipelineRole[] | null): StageView[] {
  const all = PIPELINE_STAGES.map((role, index): StageView => ({ role, number: index + 1, status: 'pending', executionTime: 0, engine: undefined }));
  return limitStages(all, only);
}

/** The state before any event; `only`: the stages the run is known to do before its `run` event (a repair). */
export function initialRunView(phase: RunPhase = 'idle', runId: string | null = null, only: readonly PipelineRole[] | null = null): RunView {
  return {
    phase,
    runId,
    conversationId: null,
    lastEventId: 0,
    stages: pendingStages(only),
    onlyStages: only,
    cycle: 1,
    cycles: 1,
    progress: null,
    progressAt: null,
    feed: [],
    result: null,
    error: null,
    errorCode: null,
    paymentRequired: false,
    spentCents: null,
    reconnectAttempt: 0,
    notice: null,
    localLines: 0,
  };
}

/** Phases in which a run is under way. */
export function isRunActive(phase: RunPhase): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'reconnecting';
}

/** Whether the run does fewer than the five stages (a repair). */
export function isPartialRun(state: Pick<RunView, 'onlyStages'>): boolean {
  return state.onlyStages !== null && state.onlyStages.length < PIPELINE_STAGES.length;
}

/** Adds a feed line; one with an id already there (a replayed server line) is the same line. */
export function appendFeed(feed: readonly FeedItem[], item: FeedItem): FeedItem[] {
  if (feed.some((existing) => existing.id === item.id)) return feed as FeedItem[];
  const next = [...feed, item];
  return next.length > FEED_LIMIT ? next.slice(next.length - FEED_LIMIT) : next;
}

/** The state with one of the client's own lines added. */
export function withLocalLine(state: RunView, type: FeedItem['type'], message: string, now: number): RunView {
  const localLines = state.localLines + 1;
  return { ...state, localLines, feed: appendFeed(state.feed, { id: `local-${localLines}`, type, message, timestamp: new Date(now).toISOString() }) };
}

const finished = (phase: RunPhase) => phase === 'complete' || phase === 'failed';

/**
 * The state after one more item of {@link followRun}. Word of the connection goes into the feed
 * in each client's own words (see {@link withLocalLine}); the state says only where things stand.
 */
export function reduceRun(state: RunView, item: RunItem, now: number): RunView {
  switch (item.type) {
    case 'event':
      return reduceEvent({ ...state, lastEventId: item.id, notice: null, reconnectAttempt: 0 }, item.event, item.id, now);
    case 'connected':
      return state.phase === 'reconnecting' ? { ...state, phase: 'running', reconnectAttempt: 0, notice: null } : state;
    case 'reconnecting':
      return { ...state, phase: 'reconnecting', reconnectAttempt: item.attempt, notice: `Reconnecting… (attempt ${item.attempt} of ${item.maxAttempts})` };
    case 'resuming':
      return { ...state, phase: 'running', error: null, errorCode: null, paymentRequired: false, reconnectAttempt: 0, notice: 'Resuming the interrupted run…' };
    case 'interrupted':
      return finished(state.phase) ? state : { ...state, phase: 'interrupted', reconnectAttempt: 0, notice: null };
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}

/** A run that stopped for credits and now sends events again (it was resumed) is no longer stopped. */
function movedOn(state: RunView): RunView {
  return state.paymentRequired ? { ...state, paymentRequired: false, error: null, errorCode: null } : state;
}

function reduceEvent(state: RunView, event: PipelineEvent, id: number, now: number): RunView {
  switch (event.type) {
    case 'run': {
      // The server's word on which stages the run does replaces the client's guess from the start.
      const onlyStages = event.stages ?? null;
      const phase = finished(state.phase) ? state.phase : 'running';
      return { ...movedOn(state), phase, runId: event.runId, conversationId: event.conversationId, onlyStages, stages: limitStages(state.stages, onlyStages) };
    }
    case 'stage': {
      const { progress } = event;
      const size = Math.max(1, state.onlyStages?.length ?? PIPELINE_STAGES.length);
      const cycles = Math.max(1, Math.ceil(progress.total / size));
      const previous = state.stages.find((stage) => stage.role === event.role);
      const after = stageStatusAfter(event, previous, state.progress);
      // A start event's `current` is the stage's position; a finish event's is one past it.
      const position = after.status === 'running' ? progress.current : progress.current - 1;
      const cycle = Math.min(cycles, Math.floor(Math.max(0, position) / size) + 1);
      const base = cycle !== state.cycle ? pendingStages(state.onlyStages) : state.stages;
      const stages = base.map((stage): StageView =>
        stage.role === event.role ? { ...stage, ...after, executionTime: event.executionTime, engine: event.engine ?? stage.engine } : stage,
      );
      const phase = finished(state.phase) ? state.phase : 'running';
      return { ...movedOn(state), phase, stages, cycle, cycles, progress, progressAt: now };
    }
    case 'log':
      return {
        ...state,
        feed: appendFeed(state.feed, { id: event.id, type: event.level, message: event.message, timestamp: event.timestamp, ...(event.step ? { step: event.step } : {}) }),
      };
    case 'cost':
      // Events flow again: a run stopped for credits was resumed.
      return { ...movedOn(state), spentCents: event.spentCents };
    case 'complete': {
      const result: RunResult = {
        projectId: event.projectId,
        filesGenerated: event.filesGenerated,
        verification: event.verification,
        executionSeconds: event.executionSeconds ?? state.progress?.elapsedSeconds ?? 0,
        onlyStages: state.onlyStages,
      };
      return { ...state, phase: 'complete', progress: finishedProgress(state.progress), result, error: null, errorCode: null, paymentRequired: false };
    }
    case 'error': {
      const feed = appendFeed(state.feed, { id: `event-${id}`, type: 'error', message: `Error: ${event.error}`, timestamp: new Date(now).toISOString() });
      const errorCode = event.code ?? null;
      if (event.code === 'PAYMENT_REQUIRED') {
        // Not a failure: the server keeps the run interrupted, to be resumed after a top-up.
        return { ...state, phase: 'interrupted', error: event.error, errorCode, paymentRequired: true, feed };
      }
      if (event.code === 'SERVICE_UNAVAILABLE' && state.runId) {
        // Nor this: the server's database went away, and the run waits, interrupted with its
        // finished stages, to be resumed once the database is back. (A run that could not even
        // store its start has no id to resume: it failed.)
        return { ...state, phase: 'interrupted', error: event.error, errorCode, paymentRequired: false, feed };
      }
      // The stage under way failed with the run; the stages after it never ran.
      return { ...state, phase: 'failed', stages: settleFailedStages(state.stages, event.error), error: event.error, errorCode, paymentRequired: false, feed };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Progress as shown once the run completed: 100 %, nothing remaining. */
function finishedProgress(progress: PipelineProgress | null): PipelineProgress {
  const total = progress?.total ?? PIPELINE_STAGES.length;
  return { current: total, total, percent: 100, elapsedSeconds: progress?.elapsedSeconds ?? 0, estimatedRemainingSeconds: 0 };
}

/**
 * Elapsed seconds and time left, moved on by the local clock while the run goes on; time left is
 * null when unknown (no stage finished yet, the estimate ran out, or the run failed): views show "—".
 */
export function liveTimes(state: RunView, now: number): { elapsedSeconds: number; remainingSeconds: number | null } | undefined {
  const { progress, progressAt } = state;
  if (progress === null || progressAt === null) return undefined;
  const since = state.phase === 'running' && state.notice === null ? Math.max(0, (now - progressAt) / 1000) : 0;
  return {
    elapsedSeconds: progress.elapsedSeconds + since,
    remainingSeconds: state.phase === 'failed' ? null : remainingEstimate(progress, since),
  };
}
