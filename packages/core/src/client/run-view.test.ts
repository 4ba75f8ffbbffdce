/**
 * The one view state of a run that the web page and the CLI draw, reduced from followRun's items
 * at a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { PIPELINE_STAGES, type PipelineEvent } from '../schemas/events.js';
import type { RunItem as RunStreamItem } from './follow-run.js';
import { FEED_LIMIT, initialRunView as initialRunState, isPartialRun, isRunActive, liveTimes, reduceRun, withLocalLine, type RunView as RunState } from './run-view.js';
import { stageEvent as stage } from '../testing/stage-event.js';

const RUN = 'run-1';


function log(n: number, level: 'info' | 'success' | 'warning' | 'error' = 'info'): PipelineEvent {
  return { type: 'log', id: `log-${n}`, level, message: `line ${n}`, timestamp: '2026-11-22T10:00:00.000Z' };
}

/** Reduces events numbered from 1, at a fixed clock. */
function play(events: Array<PipelineEvent | RunStreamItem>, state: RunState = initialRunState(), now = 1000): RunState {
  let id = state.lastEventId;
  return events.reduce<RunState>((current, item) => {
    // The two kinds share no type name: connection news passes as it is, events get the next number.
    const streamItem: RunStreamItem = item.type === 'reconnecting' || item.type === 'resuming' || item.type === 'event' || item.type === 'connected' || item.type === 'interrupted' ? item : { type: 'event', id: ++id, event: item };
    return reduceRun(current, streamItem, now);
  }, state);
}

const statuses = (state: RunState) => state.stages.map((s) => s.status);

describe('reduceRun', () => {
  it('keeps what the run cost so far from its cost events', () => {
    expect(initialRunState().spentCents).toBeNull();
    const state = play([{ type: 'run', runId: RUN, conversationId: RUN }, { type: 'cost', spentCents: 4 }, { type: 'cost', spentCents: 1250 }]);
    expect(state.spentCents).toBe(1250);
  });

  it('starts with five pending stages and takes the run id from the first event', () => {
    const state = play([{ type: 'run', runId: RUN, conversationId: RUN }]);
    expect(state.runId).toBe(RUN);
    expect(state.lastEventId).toBe(1);
    expect(state.stages.map((s) => s.role)).toEqual([...PIPELINE_STAGES]);
    expect(statuses(state)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('marks a stage running on its start event and done on its finish event', () => {
    const running = play([stage('Planning', 0, 5, 'start')]);
    expect(statuses(running)).toEqual(['running', 'pending', 'pending', 'pending', 'pending']);
    expect(running.stages[0]).toEqual({ role: 'Planning', number: 1, status: 'running', reason: undefined, executionTime: 0, engine: 'demo-alpha' });
    expect(running.phase).toBe('running');

    const done = play([stage('Planning', 0, 5, 'start'), stage('Planning', 0, 5, 'done'), stage('Building', 1, 5, 'start')]);
    expect(statuses(done)).toEqual(['complete', 'running', 'pending', 'pending', 'pending']);
    expect(done.stages[0]).toEqual({ role: 'Planning', number: 1, status: 'complete', reason: undefined, engine: 'demo-alpha', executionTime: 1.5 });
    expect(done.progress?.percent).toBe(20);
  });

  it('tells a stage that finished without passing (ok false) from one that starts', () => {
    const events = PIPELINE_STAGES.flatMap((role, i) => [stage(role, i, 5, 'start'), stage(role, i, 5, role === 'Proven Code' ? 'failed' : 'done')]);
    const state = play(events);
    expect(statuses(state)).toEqual(['complete', 'complete', 'complete', 'complete', 'failed']);
    expect(state.progress?.percent).toBe(100);
  });

  it('keeps a stage running when a resumed run starts it again', () => {
    const state = play([stage('Planning', 0, 5, 'start'), stage('Planning', 0, 5, 'done'), stage('Building', 1, 5, 'start'), { type: 'resuming', runId: RUN }, stage('Building', 1, 5, 'start')]);
    expect(statuses(state)).toEqual(['complete', 'running', 'pending', 'pending', 'pending']);
    expect(state.notice).toBeNull();
  });

  it('goes on after an error when more events follow it (a run resumed after a pause for credits)', () => {
    const paused = play([stage('Planning', 0, 5, 'start'), { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }]);
    expect(paused).toMatchObject({ phase: 'interrupted', paymentRequired: true, error: 'Not enough credits.', errorCode: 'PAYMENT_REQUIRED' });
    // Not a failure: the stage under way is not settled as failed.
    expect(statuses(paused)[0]).toBe('running');
    const resumed = play([stage('Planning', 0, 5, 'start'), { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }, stage('Planning', 0, 5, 'start')]);
    expect(resumed).toMatchObject({ phase: 'running', paymentRequired: false, error: null });
    expect(statuses(resumed)[0]).toBe('running');
  });

  it('starts the stages over for each cycle and counts the cycles', () => {
    const first = PIPELINE_STAGES.flatMap((role, i) => [stage(role, i, 10, 'start'), stage(role, i, 10, 'done')]);
    const state = play([...first, stage('Planning', 5, 10, 'start')]);
    expect(state.cycles).toBe(2);
    expect(state.cycle).toBe(2);
    expect(statuses(state)).toEqual(['running', 'pending', 'pending', 'pending', 'pending']);
    const afterFirst = play(first);
    expect(afterFirst.cycle).toBe(1);
    expect(statuses(afterFirst)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete']);
  });

  it(`keeps the newest ${FEED_LIMIT} feed lines, and a replayed line once`, () => {
    const state = play(Array.from({ length: FEED_LIMIT + 5 }, (_, i) => log(i + 1, i % 2 ? 'warning' : 'info')));
    expect(state.feed).toHaveLength(FEED_LIMIT);
    expect(state.feed[0]?.message).toBe('line 6');
    expect(state.feed.at(-1)).toEqual({ id: `log-${FEED_LIMIT + 5}`, type: 'info', message: `line ${FEED_LIMIT + 5}`, timestamp: '2026-11-22T10:00:00.000Z' });
    expect(play([log(1), log(1)]).feed).toHaveLength(1);
  });

  it('shows Reconnecting… until the next event arrives', () => {
    const lost = play([log(1), { type: 'reconnecting', attempt: 2, maxAttempts: 6, delayMs: 1000, reason: 'the server does not answer' }]);
    expect(lost).toMatchObject({ phase: 'reconnecting', reconnectAttempt: 2, notice: 'Reconnecting… (attempt 2 of 6)' });
    expect(isRunActive(lost.phase)).toBe(true);
    expect(lost.lastEventId).toBe(1);
    const connected = play([{ type: 'connected' }], lost);
    expect(connected).toMatchObject({ phase: 'running', reconnectAttempt: 0, notice: null });
    const back = play([log(2)], lost);
    expect(back.notice).toBeNull();
    expect(back.lastEventId).toBe(2);
  });

  it('records how the run ended', () => {
    const verification = { passed: false, checkedFiles: 3, problems: [{ path: 'app.js', check: 'imports', message: 'Cannot find ./x' }] };
    const complete = play([{ type: 'complete', projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 4.2 }]);
    expect(complete.phase).toBe('complete');
    expect(complete.result).toEqual({ projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 4.2, onlyStages: null });
    expect(complete.progress).toMatchObject({ percent: 100, estimatedRemainingSeconds: 0 });
    const failed = play([stage('Planning', 0, 5, 'start'), { type: 'error', error: 'No engine could plan.', code: 'BAD_GATEWAY' }]);
    expect(failed).toMatchObject({ phase: 'failed', error: 'No engine could plan.', errorCode: 'BAD_GATEWAY' });
    expect(statuses(failed)).toEqual(['failed', 'not-run', 'not-run', 'not-run', 'not-run']);
    expect(failed.stages[0]?.reason).toBe('no engine could plan');
    expect(failed.feed.at(-1)).toMatchObject({ type: 'error', message: 'Error: No engine could plan.' });
    // The database went away mid-run: interrupted and resumable, not failed.
    const away = play([{ type: 'run', runId: RUN, conversationId: RUN }, { type: 'error', error: 'The database is unavailable.', code: 'SERVICE_UNAVAILABLE' }]);
    expect(away).toMatchObject({ phase: 'interrupted', paymentRequired: false });
  });

  it('does not change the state it is given', () => {
    const before = play([stage('Planning', 0, 5, 'start')]);
    const copy = structuredClone(before);
    play([stage('Planning', 0, 5, 'done'), log(1)], before);
    expect(before).toEqual(copy);
  });
});

describe('a run of some stages only (Repair again)', () => {
  const repairRun: PipelineEvent = { type: 'run', runId: RUN, conversationId: RUN, stages: ['Proven Code'] };

  it('shows only the stages the run does, from its run event or from the start', () => {
    const state = play([repairRun]);
    expect(state.onlyStages).toEqual(['Proven Code']);
    expect(statuses(state)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'pending']);
    expect(isPartialRun(state)).toBe(true);
    const known = initialRunState('starting', null, ['Proven Code']);
    expect(statuses(known)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'pending']);
    expect(isPartialRun(play([{ type: 'run', runId: RUN, conversationId: RUN }]))).toBe(false);
  });

  it('runs and ends its one stage in one cycle of one: failed when the gate still fails, done when it passes', () => {
    const failed = play([repairRun, stage('Proven Code', 0, 1, 'start'), stage('Proven Code', 0, 1, 'failed')]);
    expect(statuses(failed).at(-1)).toBe('failed');
    expect(failed).toMatchObject({ cycle: 1, cycles: 1, progress: { percent: 100 } });
    const running = play([repairRun, stage('Proven Code', 0, 1, 'start')]);
    expect(statuses(running).at(-1)).toBe('running');
    expect(statuses(play([stage('Proven Code', 0, 1, 'done')], running)).at(-1)).toBe('complete');
  });
});

describe('liveTimes', () => {
  it('moves elapsed time on by the local clock while the run goes, and stops when it ended', () => {
    const state = play([stage('Building', 1, 5, 'start')], initialRunState(), 10_000);
    expect(liveTimes(state, 13_000)).toEqual({ elapsedSeconds: 5, remainingSeconds: 5 });
    // The estimate ran out with stages left: unknown, not 0.
    expect(liveTimes(state, 30_000)).toEqual({ elapsedSeconds: 22, remainingSeconds: null });
    const ended = play([{ type: 'error', error: 'x' }], state);
    expect(liveTimes(ended, 30_000)).toEqual({ elapsedSeconds: 2, remainingSeconds: null });
    expect(liveTimes(initialRunState(), 0)).toBeUndefined();
  });

});

describe('the connection', () => {
  it('says when the server stopped mid-run, and leaves a finished run as it ended', () => {
    const stopped = play([{ type: 'run', runId: RUN, conversationId: RUN }, { type: 'interrupted', runId: RUN }]);
    expect(stopped.phase).toBe('interrupted');
    const noted = withLocalLine(stopped, 'warning', 'Resume it.', 0);
    expect(noted.feed.at(-1)).toEqual({ id: 'local-1', type: 'warning', message: 'Resume it.', timestamp: '1970-01-01T00:00:00.000Z' });
    const done = play([{ type: 'complete', projectId: 'p', filesGenerated: 1 }, { type: 'interrupted', runId: RUN }]);
    expect(done.phase).toBe('complete');
  });
});
