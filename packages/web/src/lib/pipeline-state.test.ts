import type { PipelineEvent, PipelineProgress } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import {
  applyPipelineEvent,
  clientFeedItem,
  FEED_LIMIT,
  initialPipelineState,
  isRunActive,
  reducePipeline,
  type PipelineState,
} from './pipeline-state';

const progress = (current: number, percent: number): PipelineProgress => ({
  current,
  total: 5,
  percent,
  elapsedSeconds: current * 2,
  estimatedRemainingSeconds: (5 - current) * 2,
});

function run(events: PipelineEvent[], from: PipelineState = reducePipeline(initialPipelineState, { type: 'start' })) {
  return events.reduce((state, event, index) => reducePipeline(state, { type: 'event', event, id: String(index + 1) }), from);
}

describe('applyPipelineEvent', () => {
  it('remembers the run id and asks for it to be stored', () => {
    const start = reducePipeline(initialPipelineState, { type: 'start' });
    expect(start.phase).toBe('starting');
    const { state, effects } = applyPipelineEvent(start, { type: 'run', runId: 'r1', conversationId: 'c1' }, '1');
    expect(state).toMatchObject({ phase: 'running', runId: 'r1', conversationId: 'c1', lastEventId: '1' });
    expect(effects).toEqual([{ type: 'run-started', runId: 'r1' }]);
  });

  it('moves a stage from pending to running (ok false) to complete (ok true)', () => {
    let state = run([{ type: 'run', runId: 'r1', conversationId: 'c1' }]);
    expect(state.stages.map((s) => s.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    expect(state.stages.map((s) => s.number)).toEqual([1, 2, 3, 4, 5]);

    const running = applyPipelineEvent(
      state,
      { type: 'stage', role: 'Planning', ok: false, executionTime: 0, progress: progress(0, 0), engine: 'Engine A' },
      '2',
    );
    state = running.state;
    expect(state.stages[0]).toMatchObject({ role: 'Planning', status: 'running', engine: 'Engine A' });
    expect(running.effects).toEqual([{ type: 'progress', progress: progress(0, 0) }]);

    state = applyPipelineEvent(
      state,
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1.5, progress: progress(1, 20) },
      '3',
    ).state;
    expect(state.stages[0]).toMatchObject({ status: 'complete', executionTime: 1.5, engine: 'Engine A' });
    expect(state.stages[1]?.status).toBe('pending');
    expect(state.progress?.percent).toBe(20);
    expect(state.lastEventId).toBe('3');
  });

  it('adds log events to the feed once, even when a replay repeats them', () => {
    const log: PipelineEvent = { type: 'log', id: 'l1', level: 'success', message: 'Plan ready', timestamp: '2026-11-20T10:00:00Z' };
    const state = run([log, log]);
    expect(state.feed).toEqual([{ id: 'l1', type: 'success', message: 'Plan ready', timestamp: '2026-11-20T10:00:00Z' }]);
  });

  it('completes at 100 % with the result and the effects that store it', () => {
    const before = run([
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: progress(1, 20) },
    ]);
    const verification = { passed: false, checkedFiles: 3, problems: [{ path: 'src/a.ts', check: 'syntax', message: 'Unexpected token' }] };
    const { state, effects } = applyPipelineEvent(
      before,
      { type: 'complete', projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 12 },
      '9',
    );
    expect(state.phase).toBe('complete');
    expect(state.progress).toMatchObject({ percent: 100, current: 5, total: 5, estimatedRemainingSeconds: 0 });
    const result = { projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 12 };
    expect(state.result).toEqual(result);
    expect(effects).toEqual([{ type: 'completed', result }]);
    expect(isRunActive(state.phase)).toBe(false);
  });

  it('falls back to the elapsed time when the complete event has no execution seconds', () => {
    const state = run([
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: progress(2, 40) },
      { type: 'complete', projectId: 'p1', filesGenerated: 1 },
    ]);
    expect(state.result?.executionSeconds).toBe(4);
  });

  it("logs an error event as 'Error: ...' and asks for the 'Pipeline Failed' toast", () => {
    const { state, effects } = applyPipelineEvent(run([]), { type: 'error', error: 'Engines are busy.' }, '4');
    expect(state.phase).toBe('failed');
    expect(state.error).toBe('Engines are busy.');
    expect(state.feed.at(-1)).toMatchObject({ type: 'error', message: 'Error: Engines are busy.' });
    expect(effects).toEqual([{ type: 'failed', error: 'Engines are busy.' }]);
  });

  it('keeps a finished phase when late stage events are replayed', () => {
    const state = run([
      { type: 'complete', projectId: 'p1', filesGenerated: 1 },
      { type: 'stage', role: 'Polishing', ok: true, executionTime: 1, progress: progress(4, 80) },
    ]);
    expect(state.phase).toBe('complete');
  });
});

describe('reducePipeline', () => {
  it('starts a new run with every stage pending and keeps the feed', () => {
    let state = run([
      { type: 'log', id: 'l1', level: 'info', message: 'hello', timestamp: 't' },
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: progress(1, 20) },
      { type: 'complete', projectId: 'p1', filesGenerated: 1 },
    ]);
    state = reducePipeline(state, { type: 'start' });
    expect(state.phase).toBe('starting');
    expect(state.result).toBeNull();
    expect(state.runId).toBeNull();
    expect(state.stages.every((s) => s.status === 'pending')).toBe(true);
    expect(state.feed).toHaveLength(1);
  });

  it('tracks reconnecting, interrupted, disconnected and unauthorized', () => {
    let state = reducePipeline(initialPipelineState, { type: 'attach', runId: 'r9' });
    expect(state).toMatchObject({ phase: 'reconnecting', runId: 'r9' });
    expect(isRunActive(state.phase)).toBe(true);
    state = reducePipeline(state, { type: 'reconnecting', attempt: 3 });
    expect(state.reconnectAttempt).toBe(3);
    state = reducePipeline(state, { type: 'interrupted' });
    expect(state).toMatchObject({ phase: 'interrupted', reconnectAttempt: 0 });
    expect(isRunActive(state.phase)).toBe(false);
    expect(reducePipeline(state, { type: 'resuming' }).phase).toBe('running');
    expect(reducePipeline(state, { type: 'disconnected' }).phase).toBe('disconnected');
    expect(reducePipeline(state, { type: 'unauthorized' }).phase).toBe('unauthorized');
  });

  it('clears the feed, hides the banner and caps the feed length', () => {
    let state = initialPipelineState;
    for (let i = 0; i < FEED_LIMIT + 5; i += 1) {
      state = reducePipeline(state, { type: 'log', item: clientFeedItem('info', `line ${i}`) });
    }
    expect(state.feed).toHaveLength(FEED_LIMIT);
    expect(state.feed[0]?.message).toBe('line 5');
    expect(reducePipeline(state, { type: 'clear-feed' }).feed).toEqual([]);
    expect(reducePipeline(state, { type: 'dismiss-result' }).resultDismissed).toBe(true);
  });
});

describe('reattach transitions', () => {
  it('shows a reattached run as running again, but leaves other phases alone', () => {
    const reconnecting = reducePipeline(initialPipelineState, { type: 'attach', runId: 'r1' });
    expect(reducePipeline(reconnecting, { type: 'connected' }).phase).toBe('running');
    const complete = run([{ type: 'complete', projectId: 'p1', filesGenerated: 1 }]);
    expect(reducePipeline(complete, { type: 'connected' })).toBe(complete);
  });
});
