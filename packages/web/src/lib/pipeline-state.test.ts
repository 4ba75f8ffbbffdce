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
  return events.reduce((state, event, index) => reducePipeline(state, { type: 'event', event, id: index + 1 }), from);
}

describe('applyPipelineEvent', () => {
  it('remembers the run id and asks for it to be stored', () => {
    const start = reducePipeline(initialPipelineState, { type: 'start' });
    expect(start.phase).toBe('starting');
    const { state, effects } = applyPipelineEvent(start, { type: 'run', runId: 'r1', conversationId: 'c1' }, 1);
    expect(state).toMatchObject({ phase: 'running', runId: 'r1', conversationId: 'c1', lastEventId: 1 });
    expect(effects).toEqual([{ type: 'run-started', runId: 'r1' }]);
  });

  it('moves a stage from pending to running (ok false) to complete (ok true)', () => {
    let state = run([{ type: 'run', runId: 'r1', conversationId: 'c1' }]);
    expect(state.stages.map((s) => s.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    expect(state.stages.map((s) => s.number)).toEqual([1, 2, 3, 4, 5]);

    const running = applyPipelineEvent(
      state,
      { type: 'stage', role: 'Planning', ok: false, executionTime: 0, progress: progress(0, 0), engine: 'Engine A' },
      2,
    );
    state = running.state;
    expect(state.stages[0]).toMatchObject({ role: 'Planning', status: 'running', engine: 'Engine A' });
    expect(running.effects).toEqual([{ type: 'progress', progress: progress(0, 0) }]);

    state = applyPipelineEvent(
      state,
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1.5, progress: progress(1, 20) },
      3,
    ).state;
    expect(state.stages[0]).toMatchObject({ status: 'complete', executionTime: 1.5, engine: 'Engine A' });
    expect(state.stages[1]?.status).toBe('pending');
    expect(state.progress?.percent).toBe(20);
    expect(state.lastEventId).toBe(3);
  });

  it('adds log events to the feed once, even when a replay repeats them', () => {
    const log: PipelineEvent = { type: 'log', id: 'l1', level: 'success', message: 'Plan ready', timestamp: '2026-11-20T10:00:00Z' };
    const state = run([log, log]);
    expect(state.feed).toEqual([{ id: 'l1', type: 'success', message: 'Plan ready', timestamp: '2026-11-20T10:00:00Z' }]);
  });

  it("keeps a step line's step (the feed ticks a running step), and lines without one stay plain", () => {
    const step = { id: 's1', state: 'running' as const, startedAt: '2026-11-20T10:00:00.000Z' };
    const state = run([
      { type: 'log', id: 'l1', level: 'info', message: 'Installing 12 dependencies…', timestamp: '2026-11-20T10:00:00Z', step },
      { type: 'log', id: 'l2', level: 'info', message: 'Checking with engine alpha', timestamp: '2026-11-20T10:00:00Z' },
    ]);
    expect(state.feed[0]).toEqual({ id: 'l1', type: 'info', message: 'Installing 12 dependencies…', timestamp: '2026-11-20T10:00:00Z', step });
    expect(state.feed[1]).not.toHaveProperty('step');
  });

  it('keeps what the run cost so far from its cost events, and a new run starts without one', () => {
    const start = reducePipeline(initialPipelineState, { type: 'start' });
    expect(start.spentCents).toBeNull();
    const state = run([
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'cost', spentCents: 3 },
      { type: 'cost', spentCents: 11 },
    ]);
    expect(state.spentCents).toBe(11);
    expect(applyPipelineEvent(state, { type: 'cost', spentCents: 12 }).effects).toEqual([]);
    expect(reducePipeline(state, { type: 'start' }).spentCents).toBeNull();
  });

  it('takes a cost event after a stop for credits as the run going on (it was resumed)', () => {
    const stopped = run([
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'cost', spentCents: 1400 },
      { type: 'error', error: 'Not enough credits: this stage needs about $0.40 and your balance is $0.10. Add credits in Settings.', code: 'PAYMENT_REQUIRED' },
    ]);
    expect(stopped).toMatchObject({ phase: 'interrupted', paymentRequired: true, spentCents: 1400 });
    const resumed = applyPipelineEvent(stopped, { type: 'cost', spentCents: 1430 }).state;
    expect(resumed).toMatchObject({ paymentRequired: false, error: null, spentCents: 1430 });
  });

  it('a run stopped because the database went away is interrupted with the server\'s sentence, not failed', () => {
    const message = 'The run stopped because the database was unreachable for more than 2 minutes. Its finished stages are kept and were charged once: resume it to continue from the last one.';
    const planned = run([
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: progress(1, 20) },
    ]);
    const { state, effects } = applyPipelineEvent(planned, { type: 'error', error: message, code: 'SERVICE_UNAVAILABLE' }, 9);
    expect(state).toMatchObject({ phase: 'interrupted', error: message, paymentRequired: false, lastEventId: 9 });
    expect(state.stages).toEqual(planned.stages);
    expect(effects).toEqual([]);
    expect(state.feed.at(-1)?.message).toBe(`Error: ${message}`);

    // Stopped before its start could be stored: no run to resume, so it failed.
    const full = "The run stopped: the server could not store it, because its database's disk is full (could not extend file \"base/5/16535_fsm\": No space left on device). Nothing was charged for work that was not stored. Try again once the server has disk space.";
    expect(applyPipelineEvent(run([]), { type: 'error', error: full, code: 'SERVICE_UNAVAILABLE' }, 0).state).toMatchObject({ phase: 'failed', error: full });
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
      9,
    );
    expect(state.phase).toBe('complete');
    expect(state.progress).toMatchObject({ percent: 100, current: 5, total: 5, estimatedRemainingSeconds: 0 });
    const result = { projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 12, onlyStages: null };
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
    const { state, effects } = applyPipelineEvent(run([]), { type: 'error', error: 'Engines are busy.' }, 4);
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

describe('a run that does some stages only (Repair again)', () => {
  const one = (current: number): PipelineProgress => ({ current, total: 1, percent: current * 100, elapsedSeconds: current, estimatedRemainingSeconds: 1 - current });
  const repairRun: PipelineEvent = { type: 'run', runId: 'r2', conversationId: 'r2', stages: ['Proven Code'] };
  const gateStart: PipelineEvent = { type: 'stage', role: 'Proven Code', ok: false, executionTime: 0, progress: one(0), engine: 'Engine A' };
  const statuses = (state: PipelineState) => state.stages.map((s) => s.status);

  it('shows the stages the run does not do as not in this run, from the start and from its run event', () => {
    const started = reducePipeline(initialPipelineState, { type: 'start', onlyStages: ['Proven Code'] });
    expect(statuses(started)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'pending']);
    expect(started.onlyStages).toEqual(['Proven Code']);
    // A reload reattaches knowing nothing; the replayed run event says it again.
    const attached = reducePipeline(initialPipelineState, { type: 'attach', runId: 'r2' });
    const state = applyPipelineEvent(attached, repairRun, 1).state;
    expect(statuses(state)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'pending']);
    expect(state.onlyStages).toEqual(['Proven Code']);
  });

  it("does not carry the previous build's finished stages into the repair run", () => {
    const built = run([
      { type: 'run', runId: 'r1', conversationId: 'r1' },
      { type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: progress(1, 20), engine: 'Engine A' },
      { type: 'complete', projectId: 'p1', filesGenerated: 1 },
    ]);
    const repair = run([repairRun], reducePipeline(built, { type: 'start', onlyStages: ['Proven Code'] }));
    expect(repair.stages[0]).toMatchObject({ role: 'Planning', status: 'skipped', executionTime: 0, engine: undefined });
  });

  it('ends with Proven Code failed (not spinning) when its gate fails, and the result says what the run did', () => {
    let state = run([repairRun, gateStart]);
    expect(state.stages[4]).toMatchObject({ status: 'running', engine: 'Engine A' });
    state = run([{ type: 'stage', role: 'Proven Code', ok: false, executionTime: 2.5, progress: one(1) }], state);
    expect(state.stages[4]).toMatchObject({ status: 'failed', executionTime: 2.5 });
    const { state: done, effects } = applyPipelineEvent(state, { type: 'complete', projectId: 'p1', filesGenerated: 4, executionSeconds: 3 }, 9);
    expect(statuses(done)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'failed']);
    expect(done.progress).toMatchObject({ current: 1, total: 1, percent: 100 });
    expect(done.result?.onlyStages).toEqual(['Proven Code']);
    expect(effects).toEqual([{ type: 'completed', result: done.result }]);
  });

  it('keeps a stage started again after a resume running, and a full build shows all five', () => {
    const state = run([repairRun, gateStart, gateStart]);
    expect(state.stages[4]?.status).toBe('running');
    const build = run([{ type: 'run', runId: 'r1', conversationId: 'r1' }]);
    expect(build.onlyStages).toBeNull();
    expect(statuses(build)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('marks a failed Proven Code gate of a full build as failed too', () => {
    const state = run([
      { type: 'stage', role: 'Proven Code', ok: false, executionTime: 0, progress: progress(4, 80) },
      { type: 'stage', role: 'Proven Code', ok: false, executionTime: 3, progress: progress(5, 100) },
    ]);
    expect(state.stages[4]?.status).toBe('failed');
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
