import { PIPELINE_STAGES, type PipelineEvent, type PipelineRole } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { eventLine, summaryLines } from './run-report.js';
import { formatDuration, initialRunState, isPartialRun, liveTimes, LOG_LINES, reduceRun, type RunState } from './run-state.js';
import type { RunStreamItem } from './run-stream.js';

const RUN = 'run-1';

/** The stage events the server sends for the stage at `position` of `total`. */
function stage(role: PipelineRole, position: number, total: number, phase: 'start' | 'done' | 'failed'): PipelineEvent {
  const current = phase === 'start' ? position : position + 1;
  return {
    type: 'stage',
    role,
    ok: phase === 'done',
    executionTime: phase === 'start' ? 0 : 1.5,
    progress: { current, total, percent: Math.round((current / total) * 100), elapsedSeconds: current * 2, estimatedRemainingSeconds: (total - current) * 2 },
    engine: 'demo-alpha',
  };
}

function log(n: number, level: 'info' | 'success' | 'warning' | 'error' = 'info'): PipelineEvent {
  return { type: 'log', id: `log-${n}`, level, message: `line ${n}`, timestamp: '2026-11-22T10:00:00.000Z' };
}

/** Reduces events numbered from 1, at a fixed clock. */
function play(events: Array<PipelineEvent | RunStreamItem>, state: RunState = initialRunState(), now = 1000): RunState {
  let id = state.lastEventId;
  return events.reduce<RunState>((current, item) => {
    // The two kinds share no type name: connection news passes as it is, events get the next number.
    const streamItem: RunStreamItem = item.type === 'reconnecting' || item.type === 'resuming' || item.type === 'event' ? item : { type: 'event', id: ++id, event: item };
    return reduceRun(current, streamItem, now);
  }, state);
}

const statuses = (state: RunState) => state.stages.map((s) => s.status);

describe('reduceRun', () => {
  it('keeps what the run cost so far from its cost events, and shows each as a line', () => {
    expect(initialRunState().spentCents).toBeUndefined();
    const state = play([{ type: 'run', runId: RUN, conversationId: RUN }, { type: 'cost', spentCents: 4 }, { type: 'cost', spentCents: 1250 }]);
    expect(state.spentCents).toBe(1250);
    expect(eventLine({ type: 'cost', spentCents: 1250 }, state)).toBe('[cost] $12.50 so far');
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
    expect(running.stages[0]).toEqual({ role: 'Planning', status: 'running', engine: 'demo-alpha' });

    const done = play([stage('Planning', 0, 5, 'start'), stage('Planning', 0, 5, 'done'), stage('Building', 1, 5, 'start')]);
    expect(statuses(done)).toEqual(['complete', 'running', 'pending', 'pending', 'pending']);
    expect(done.stages[0]).toEqual({ role: 'Planning', status: 'complete', reason: undefined, engine: 'demo-alpha', seconds: 1.5 });
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
    expect(state.notice).toBeUndefined();
    expect(state.log.at(-1)?.message).toMatch(/interrupted on the server; resuming/);
  });

  it('goes on after an error when more events follow it (a run resumed after a pause for credits)', () => {
    const paused = play([stage('Planning', 0, 5, 'start'), { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }]);
    expect(paused.outcome).toEqual({ type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' });
    const resumed = play([stage('Planning', 0, 5, 'start'), { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }, stage('Planning', 0, 5, 'start')]);
    expect(resumed.outcome).toBeUndefined();
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

  it(`keeps the newest ${LOG_LINES} log lines`, () => {
    const state = play(Array.from({ length: 15 }, (_, i) => log(i + 1, i % 2 ? 'warning' : 'info')));
    expect(state.log).toHaveLength(LOG_LINES);
    expect(state.log[0]?.message).toBe('line 6');
    expect(state.log.at(-1)).toEqual({ key: 'log-15', level: 'info', message: 'line 15', timestamp: '2026-11-22T10:00:00.000Z' });
  });

  it('shows Reconnecting… until the next event arrives', () => {
    const lost = play([log(1), { type: 'reconnecting', attempt: 2, maxAttempts: 6, delayMs: 1000, reason: 'the server does not answer' }]);
    expect(lost.notice).toBe('Reconnecting… (attempt 2 of 6)');
    expect(lost.log.at(-1)).toMatchObject({ level: 'warning', message: expect.stringContaining('the server does not answer') });
    expect(lost.lastEventId).toBe(1);
    const back = play([log(2)], lost);
    expect(back.notice).toBeUndefined();
    expect(back.lastEventId).toBe(2);
  });

  it('records how the run ended', () => {
    const verification = { passed: false, checkedFiles: 3, problems: [{ path: 'app.js', check: 'imports', message: 'Cannot find ./x' }] };
    const complete = play([{ type: 'complete', projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 4.2 }]);
    expect(complete.outcome).toEqual({ type: 'complete', projectId: 'p1', filesGenerated: 3, verification, executionSeconds: 4.2 });
    const failed = play([{ type: 'error', error: 'No engine could plan.', code: 'BAD_GATEWAY' }]);
    expect(failed.outcome).toEqual({ type: 'error', error: 'No engine could plan.', code: 'BAD_GATEWAY' });
    expect(failed.log.at(-1)).toMatchObject({ level: 'error', message: 'Error: No engine could plan.' });
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
    expect(state.plan).toEqual(['Proven Code']);
    expect(state.stages).toEqual([{ role: 'Proven Code', status: 'pending' }]);
    expect(isPartialRun(state)).toBe(true);
    const known = initialRunState(undefined, ['Proven Code']);
    expect(known.stages).toEqual([{ role: 'Proven Code', status: 'pending' }]);
    expect(isPartialRun(play([{ type: 'run', runId: RUN, conversationId: RUN }]))).toBe(false);
  });

  it('runs and ends its one stage in one cycle of one: failed when the gate still fails, done when it passes', () => {
    const failed = play([repairRun, stage('Proven Code', 0, 1, 'start'), stage('Proven Code', 0, 1, 'failed')]);
    expect(statuses(failed)).toEqual(['failed']);
    expect(failed).toMatchObject({ cycle: 1, cycles: 1, progress: { percent: 100 } });
    const running = play([repairRun, stage('Proven Code', 0, 1, 'start')]);
    expect(statuses(running)).toEqual(['running']);
    expect(statuses(play([stage('Proven Code', 0, 1, 'done')], running))).toEqual(['complete']);
  });

  it('says so in plain lines and in the summary', () => {
    const state = play([repairRun]);
    expect(eventLine(repairRun, state)).toBe(`[run] Run ${RUN} started: Proven Code only`);
    expect(eventLine({ type: 'run', runId: RUN, conversationId: RUN }, state)).toBe(`[run] Run ${RUN} started`);
    const lines = summaryLines({
      runId: RUN,
      projectId: 'p1',
      filesGenerated: 4,
      executionSeconds: 3,
      onlyStages: ['Proven Code'],
      verification: { passed: false, checkedFiles: 3, problems: [{ path: 'app.js', check: 'syntax', message: 'Unexpected token' }], verdict: 'failed', proven: '', notProven: 'syntax failed: 1 problem.' },
    });
    expect(lines[0]).toBe('Project p1: repair run (Proven Code only) on its 4 files in 3s.');
    expect(lines.join('\n')).toContain('Proven Code: failed');
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

  it('formats durations as m:ss or h:mm:ss', () => {
    expect([formatDuration(0), formatDuration(75.9), formatDuration(3700)]).toEqual(['0:00', '1:15', '1:01:40']);
  });
});

describe('plain lines', () => {
  it('says which stage started, finished or failed, and prefixes warnings', () => {
    const start = stage('Building', 1, 5, 'start');
    const running = play([stage('Planning', 0, 5, 'start'), stage('Planning', 0, 5, 'done'), start]);
    expect(eventLine(start, running)).toBe('[stage] Building started (engine demo-alpha)');
    const done = stage('Building', 1, 5, 'done');
    expect(eventLine(done, play([done], running))).toBe('[stage] Building done in 1.5s (engine demo-alpha), 40% of the run');
    const gate = stage('Proven Code', 4, 5, 'failed');
    const gated = play([stage('Proven Code', 4, 5, 'start'), gate]);
    expect(eventLine(gate, gated)).toBe('[stage] Proven Code finished with problems in 1.5s (engine demo-alpha), 100% of the run');
    expect(eventLine(log(1, 'warning'), running)).toBe('[log] warning: line 1');
    expect(eventLine(log(1, 'success'), running)).toBe('[log] line 1');
  });

  it('sums up a completed run with the files that failed which check', () => {
    const lines = summaryLines({
      runId: RUN,
      projectId: 'p1',
      filesGenerated: 2,
      verification: { passed: false, checkedFiles: 2, problems: [{ path: 'app.js', check: 'syntax', message: 'Unexpected token' }] },
    });
    expect(lines).toEqual([
      'Project p1: 2 files generated.',
      `Write the files to a folder with: wolfpack attach ${RUN} --out DIR`,
      'Proven Code: 1 problem in 2 checked files:',
      '  app.js (syntax): Unexpected token',
    ]);
  });
});
