/**
 * The build screen's run: core's one run view state (`@wolfpack/core/client`, the CLI draws the
 * same) plus what only the page has: its own feed lines, the banner it can hide, and the side
 * effects (storage, counters, toasts) each event calls for, so all of it is testable without React.
 */
import {
  appendFeed,
  FEED_LIMIT,
  initialRunView,
  isRunActive,
  limitStages,
  reduceRun,
  type FeedItem,
  type RunItem,
  type RunPhase,
  type RunResult,
  type RunView,
  type StageView,
} from '@wolfpack/core/client';
import type { PipelineEvent, PipelineProgress, PipelineRole, StageStatus } from '@wolfpack/core';

export { FEED_LIMIT, isRunActive, limitStages };
export type { FeedItem, RunPhase, RunResult, StageStatus, StageView };

export interface PipelineState extends RunView {
  /** The banner is hidden (Continue Building) while the result stays known. */
  resultDismissed: boolean;
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

/** The client's own transitions besides what the run client yields. */
export type PipelineAction =
  /** `onlyStages`: the run does these stages alone (a repair), so the others show as not in it. */
  | { type: 'start'; onlyStages?: readonly PipelineRole[] | undefined }
  | { type: 'event'; event: PipelineEvent; id?: number | undefined }
  | { type: 'item'; item: RunItem; now?: number }
  | { type: 'log'; item: FeedItem }
  | { type: 'attach'; runId: string }
  | { type: 'reconnecting'; attempt: number }
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

export const initialPipelineState: PipelineState = { ...initialRunView(), resultDismissed: false };

/** What one item of the run client does to the page: the new state and the effects it calls for. */
export function applyRunItem(state: PipelineState, item: RunItem, now: number = Date.now()): { state: PipelineState; effects: RunEffect[] } {
  // reduceRun spreads the state it is given, so the page's own fields ride along (and an item that
  // changes nothing returns the very same state, which React then skips).
  const next = reduceRun(state, item, now) as PipelineState;
  if (item.type !== 'event') return { state: next, effects: [] };
  const { event } = item;
  switch (event.type) {
    case 'run':
      return { state: next, effects: [{ type: 'run-started', runId: event.runId }] };
    case 'stage':
      return { state: next, effects: [{ type: 'progress', progress: event.progress }] };
    case 'complete':
      return { state: { ...next, resultDismissed: false }, effects: next.result ? [{ type: 'completed', result: next.result }] : [] };
    case 'error':
      if (next.paymentRequired) return { state: next, effects: [{ type: 'payment-required', error: event.error }] };
      // The database went away: the run waits, interrupted, to be resumed; nothing to store or toast.
      if (next.phase === 'interrupted') return { state: next, effects: [] };
      return { state: next, effects: [{ type: 'failed', error: event.error }] };
    default:
      return { state: next, effects: [] };
  }
}

/** Applies one server event numbered `id` (as the stream numbered it). */
export function applyPipelineEvent(state: PipelineState, event: PipelineEvent, id?: number, now?: number) {
  return applyRunItem(state, { type: 'event', id: id ?? state.lastEventId, event }, now);
}

let clientItemCounter = 0;

/** A feed item written by the page itself (not a server `log` event). */
export function clientFeedItem(type: FeedItem['type'], message: string, id?: string, now: Date = new Date()): FeedItem {
  clientItemCounter += 1;
  return { id: id ?? `client-${clientItemCounter}`, type, message, timestamp: now.toISOString() };
}

const fresh = (state: PipelineState, phase: RunPhase, runId: string | null, only: readonly PipelineRole[] | null = null): PipelineState => ({
  ...initialRunView(phase, runId, only),
  resultDismissed: false,
  feed: state.feed,
  localLines: state.localLines,
});

/** The state after one action. Pure. */
export function reducePipeline(state: PipelineState, action: PipelineAction): PipelineState {
  switch (action.type) {
    case 'start':
      // A new run starts with every stage it does pending; the feed keeps earlier lines until cleared.
      return fresh(state, 'starting', null, action.onlyStages ?? null);
    case 'event':
      return applyPipelineEvent(state, action.event, action.id).state;
    case 'item':
      return applyRunItem(state, action.item, action.now).state;
    case 'log':
      return { ...state, feed: appendFeed(state.feed, action.item) };
    case 'attach':
      return fresh(state, 'reconnecting', action.runId);
    case 'reconnecting':
      return { ...state, phase: 'reconnecting', reconnectAttempt: action.attempt };
    case 'connected':
    case 'resuming':
      return applyRunItem(state, action.type === 'connected' ? { type: 'connected' } : { type: 'resuming', runId: state.runId ?? '' }).state;
    case 'interrupted':
      return action.paymentRequired
        ? { ...state, phase: 'interrupted', paymentRequired: true, error: action.error ?? state.error, reconnectAttempt: 0, notice: null }
        : { ...state, phase: 'interrupted', reconnectAttempt: 0, notice: null };
    case 'disconnected':
      return { ...state, phase: 'disconnected', reconnectAttempt: 0, notice: null };
    case 'unauthorized':
      return { ...state, phase: 'unauthorized', reconnectAttempt: 0, notice: null };
    case 'fail':
      return { ...state, phase: 'failed', error: action.error, paymentRequired: action.paymentRequired ?? false, reconnectAttempt: 0, notice: null };
    case 'clear-feed':
      return { ...state, feed: [] };
    case 'dismiss-result':
      return { ...state, resultDismissed: true };
    case 'reset':
      return fresh(state, 'idle', null);
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
