/**
 * The build screen's run as a pure state machine (spec core §4 Run and Stage status). Server
 * events and the client's own actions go through {@link reducePipeline}; every pipeline event is
 * handled in the one `switch (event.type)` of {@link applyPipelineEvent}, which also says which side
 * effects (storage, counters, toasts) the event calls for, so all of it is testable without React.
 */
import {
  PIPELINE_STAGES,
  settleFailedStages,
  stageStatusAfter,
  type StageStatus as CoreStageStatus,
  type LogStep,
  type PipelineEvent,
  type PipelineProgress,
  type PipelineRole,
  type VerificationSummary,
} from '@wolfpack/core';

/**
 * Pending until a stage event arrives; running while its `ok` is false, complete once true; failed,
 * not run or not in this run by core's one rule (stage-status.ts), the CLI's too.
 */
export type StageStatus = CoreStageStatus;

export interface StageView {
  role: PipelineRole;
  /** 1-based position, shown while the stage is pending. */
  number: number;
  status: StageStatus;
  /** Seconds the stage took so far. */
  executionTime: number;
  /** Generic engine label, when the server named one. */
  engine: string | undefined;
  /** Why a failed stage failed ("the engines produced no files"), when known. */
  reason?: string | undefined;
}

/**
 * Where the run stands. `starting`: the request is out, no event yet. `reconnecting`: the
 * connection dropped and the client is reattaching. `interrupted`: the server stopped mid-run
 * and the run can be resumed. `disconnected`: reattaching gave up; the user can try again.
 * `unauthorized`: the server wants a signed-in user.
 */
export type RunPhase =
  | 'idle'
  | 'starting'
  | 'running'
  | 'reconnecting'
  | 'interrupted'
  | 'disconnected'
  | 'complete'
  | 'failed'
  | 'unauthorized';

/** Feed item types with a colour (spec core §3); any other type is shown grey. */
export type FeedItemType = 'info' | 'success' | 'warning' | 'error';

/** One line of the Activity Feed. */
export interface FeedItem {
  id: string;
  type: FeedItemType | (string & {});
  message: string;
  timestamp: string;
  /** The step of Checking or Proven Code this line starts or ends (server lines only; see core's step-progress.ts). */
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

export interface PipelineState {
  phase: RunPhase;
  runId: string | null;
  conversationId: string | null;
  /** The `id:` of the newest event seen, sent as Last-Event-ID when reattaching. */
  lastEventId: string | null;
  stages: StageView[];
  /**
   * The stages this run does when not all five, from the `run` event (or the start, which knows
   * a repair before the server says so); null for a build of all five.
   */
  onlyStages: readonly PipelineRole[] | null;
  progress: PipelineProgress | null;
  /** Oldest first. */
  feed: FeedItem[];
  result: RunResult | null;
  /** The banner is hidden (Continue Building) while the result stays known. */
  resultDismissed: boolean;
  error: string | null;
  /**
   * The run stopped because the balance cannot cover its next stage (an error event with code
   * PAYMENT_REQUIRED): the build screen links to Settings, and the run can be resumed after a top-up.
   */
  paymentRequired: boolean;
  /**
   * What the run has been charged so far, in cents (its latest `cost` event); null until
   * the first, and for runs on free engines, which send none.
   */
  spentCents: number | null;
  /** 1-based attempt while reconnecting, else 0. */
  reconnectAttempt: number;
}

/** A side effect an event calls for; the runner's owner carries them out. */
export type RunEffect =
  | { type: 'run-started'; runId: string }
  | { type: 'progress'; progress: PipelineProgress }
  | { type: 'completed'; result: RunResult }
  | { type: 'failed'; error: string }
  /** The run stopped before a stage it cannot pay for; it stays resumable, so its id is kept. */
  | { type: 'payment-required'; error: string }
  /** The stored run is unknown to the server (reloaded after the database was reset): drop its id. */
  | { type: 'run-forgotten' };

/** The client's own messages and transitions besides server events. */
export type PipelineAction =
  /** `onlyStages`: the run does these stages alone (a repair), so the others show as not in it. */
  | { type: 'start'; onlyStages?: readonly PipelineRole[] | undefined }
  | { type: 'event'; event: PipelineEvent; id?: string | undefined }
  | { type: 'log'; item: FeedItem }
  | { type: 'attach'; runId: string }
  | { type: 'reconnecting'; attempt: number }
  /** A reattach answered: events flow again. */
  | { type: 'connected' }
  | { type: 'resuming' }
  /** With `paymentRequired`, the resume was refused for credits; `error` is the server's sentence. */
  | { type: 'interrupted'; paymentRequired?: boolean; error?: string }
  | { type: 'disconnected' }
  | { type: 'unauthorized' }
  | { type: 'fail'; error: string; paymentRequired?: boolean }
  | { type: 'clear-feed' }
  | { type: 'dismiss-result' }
  | { type: 'reset' };

/** Stages in display order, all pending. */
export function pendingStages(): StageView[] {
  return PIPELINE_STAGES.map((role, index) => ({
    role,
    number: index + 1,
    status: 'pending',
    executionTime: 0,
    engine: undefined,
  }));
}

export const initialPipelineState: PipelineState = {
  phase: 'idle',
  runId: null,
  conversationId: null,
  lastEventId: null,
  stages: pendingStages(),
  onlyStages: null,
  progress: null,
  feed: [],
  result: null,
  resultDismissed: false,
  error: null,
  paymentRequired: false,
  spentCents: null,
  reconnectAttempt: 0,
};

/**
 * The stages of a run that does `only` these (all five when null): the others are `skipped`, the
 * ones it does keep their status.
 */
export function limitStages(stages: readonly StageView[], only: readonly PipelineRole[] | null): StageView[] {
  return stages.map((stage): StageView => {
    if (only === null || only.includes(stage.role)) return stage.status === 'skipped' ? { ...stage, status: 'pending' } : stage;
    return { ...stage, status: 'skipped', executionTime: 0, engine: undefined };
  });
}

/** Phases in which a run is under way (the start button reads 'Pack in action...'). */
export function isRunActive(phase: RunPhase): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'reconnecting';
}

/** Newest feed items beyond this are dropped, so a long session cannot grow the page without end. */
export const FEED_LIMIT = 500;

function appendFeed(feed: FeedItem[], item: FeedItem): FeedItem[] {
  // Replays after a reattach or resume may repeat a server log line; its id makes it the same line.
  if (feed.some((existing) => existing.id === item.id)) return feed;
  const next = [...feed, item];
  return next.length > FEED_LIMIT ? next.slice(next.length - FEED_LIMIT) : next;
}

/** A run that stopped for credits and now sends events again (it was resumed) is no longer stopped. */
function movedOn(state: PipelineState): PipelineState {
  return state.paymentRequired ? { ...state, paymentRequired: false, error: null } : state;
}

/** Progress as shown once the run completed: 100 %, nothing remaining. */
function finishedProgress(progress: PipelineProgress | null): PipelineProgress {
  const total = progress?.total ?? PIPELINE_STAGES.length;
  return {
    current: total,
    total,
    percent: 100,
    elapsedSeconds: progress?.elapsedSeconds ?? 0,
    estimatedRemainingSeconds: 0,
  };
}

/**
 * Applies one server event: the new state and the side effects it calls for. `eventId` is the
 * event's SSE `id:` (kept for Last-Event-ID).
 */
export function applyPipelineEvent(
  state: PipelineState,
  event: PipelineEvent,
  eventId?: string,
): { state: PipelineState; effects: RunEffect[] } {
  const base: PipelineState = eventId === undefined ? state : { ...state, lastEventId: eventId };
  switch (event.type) {
    case 'run': {
      const phase = base.phase === 'complete' || base.phase === 'failed' ? base.phase : 'running';
      // The server's word on which stages the run does replaces the client's guess from the start.
      const onlyStages = event.stages ?? null;
      return {
        state: {
          ...movedOn(base),
          phase,
          runId: event.runId,
          conversationId: event.conversationId,
          onlyStages,
          stages: limitStages(base.stages, onlyStages),
          reconnectAttempt: 0,
        },
        effects: [{ type: 'run-started', runId: event.runId }],
      };
    }
    case 'stage': {
      const stages = base.stages.map((stage) =>
        stage.role === event.role
          ? { ...stage, ...stageStatusAfter(event, stage, base.progress), executionTime: event.executionTime, engine: event.engine ?? stage.engine }
          : stage,
      );
      const finished = base.phase === 'complete' || base.phase === 'failed';
      return {
        state: {
          ...movedOn(base),
          phase: finished ? base.phase : 'running',
          stages,
          progress: event.progress,
          reconnectAttempt: 0,
        },
        effects: [{ type: 'progress', progress: event.progress }],
      };
    }
    case 'log':
      return {
        state: {
          ...base,
          feed: appendFeed(base.feed, {
            id: event.id,
            type: event.level,
            message: event.message,
            timestamp: event.timestamp,
            ...(event.step ? { step: event.step } : {}),
          }),
        },
        effects: [],
      };
    case 'cost':
      // Events flow again: a run stopped for credits was resumed.
      return { state: { ...movedOn(base), spentCents: event.spentCents }, effects: [] };
    case 'complete': {
      const result: RunResult = {
        projectId: event.projectId,
        filesGenerated: event.filesGenerated,
        verification: event.verification,
        executionSeconds: event.executionSeconds ?? base.progress?.elapsedSeconds ?? 0,
        onlyStages: base.onlyStages,
      };
      return {
        state: {
          ...base,
          phase: 'complete',
          progress: finishedProgress(base.progress),
          result,
          resultDismissed: false,
          error: null,
          reconnectAttempt: 0,
        },
        effects: [{ type: 'completed', result }],
      };
    }
    case 'error': {
      const feed = appendFeed(base.feed, clientFeedItem('error', `Error: ${event.error}`, eventId ? `event-${eventId}` : undefined));
      if (event.code === 'PAYMENT_REQUIRED') {
        // Not a failure: the server keeps the run interrupted, to be resumed after a top-up.
        return {
          state: { ...base, phase: 'interrupted', error: event.error, paymentRequired: true, reconnectAttempt: 0, feed },
          effects: [{ type: 'payment-required', error: event.error }],
        };
      }
      if (event.code === 'SERVICE_UNAVAILABLE' && base.runId) {
        // Not a failure either: the server's database went away (or filled up), and the run is
        // left interrupted with its finished stages, to be resumed once the database is back.
        // (A run that could not even store its start has no id to resume: it failed.)
        return { state: { ...base, phase: 'interrupted', error: event.error, paymentRequired: false, reconnectAttempt: 0, feed }, effects: [] };
      }
      // The stage under way failed with the run; the stages after it never ran.
      const stages = settleFailedStages(base.stages, event.error);
      return {
        state: { ...base, phase: 'failed', stages, error: event.error, paymentRequired: false, reconnectAttempt: 0, feed },
        effects: [{ type: 'failed', error: event.error }],
      };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

let clientItemCounter = 0;

/** A feed item written by the client itself (not a server `log` event). */
export function clientFeedItem(type: FeedItem['type'], message: string, id?: string, now: Date = new Date()): FeedItem {
  clientItemCounter += 1;
  return { id: id ?? `client-${clientItemCounter}`, type, message, timestamp: now.toISOString() };
}

/** The state after one action. Pure. */
export function reducePipeline(state: PipelineState, action: PipelineAction): PipelineState {
  switch (action.type) {
    case 'start': {
      // A new run starts with every stage it does pending; the feed keeps earlier lines until cleared.
      const onlyStages = action.onlyStages ?? null;
      return { ...initialPipelineState, phase: 'starting', onlyStages, stages: limitStages(pendingStages(), onlyStages), feed: state.feed };
    }
    case 'event':
      return applyPipelineEvent(state, action.event, action.id).state;
    case 'log':
      return { ...state, feed: appendFeed(state.feed, action.item) };
    case 'attach':
      return { ...initialPipelineState, phase: 'reconnecting', runId: action.runId, feed: state.feed };
    case 'reconnecting':
      return { ...state, phase: 'reconnecting', reconnectAttempt: action.attempt };
    case 'connected':
      return state.phase === 'reconnecting' ? { ...state, phase: 'running', reconnectAttempt: 0 } : state;
    case 'resuming':
      return { ...state, phase: 'running', error: null, paymentRequired: false, reconnectAttempt: 0 };
    case 'interrupted':
      return action.paymentRequired
        ? { ...state, phase: 'interrupted', paymentRequired: true, error: action.error ?? state.error, reconnectAttempt: 0 }
        : { ...state, phase: 'interrupted', reconnectAttempt: 0 };
    case 'disconnected':
      return { ...state, phase: 'disconnected', reconnectAttempt: 0 };
    case 'unauthorized':
      return { ...state, phase: 'unauthorized', reconnectAttempt: 0 };
    case 'fail':
      return { ...state, phase: 'failed', error: action.error, paymentRequired: action.paymentRequired ?? false, reconnectAttempt: 0 };
    case 'clear-feed':
      return { ...state, feed: [] };
    case 'dismiss-result':
      return { ...state, resultDismissed: true };
    case 'reset':
      return { ...initialPipelineState, feed: state.feed };
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
