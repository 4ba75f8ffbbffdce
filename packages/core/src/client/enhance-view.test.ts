/** AI Enhance's one view state, as the web page and the CLI both draw it. */
import { describe, expect, it } from 'vitest';
import type { EnhancementEvent } from '../schemas/events.js';
import { failEnhance, formatEstimate, merging, reduceEnhance, remainingSeconds, startEnhance, type EnhanceView as EnhanceState } from './enhance-view.js';

const initialEnhanceState = () => startEnhance('A habit tracker');

function step(pass: number, order: number, current: number, estimate = 10): EnhancementEvent {
  return {
    type: 'step',
    passNumber: pass,
    engineOrder: order,
    progress: { current, total: 8, percent: Math.round((current / 8) * 100) },
    estimatedRemainingSeconds: estimate,
    engine: `engine-${order}`,
  };
}

const statuses = (state: EnhanceState) => state.steps.map((s) => s.status[0]).join('');

describe('reduceEnhance', () => {
  it('runs pass 1 from the start, then pass 2 once pass 1 is done, then the merge', () => {
    let state = initialEnhanceState();
    expect(statuses(state)).toBe('rrrrpppp');
    // Steps of a pass finish in any order.
    for (const [order, current] of [[3, 1], [1, 2], [4, 3]] as const) state = reduceEnhance(state, step(1, order, current), 0);
    expect(statuses(state)).toBe('crccpppp');
    state = reduceEnhance(state, step(1, 2, 4), 0);
    expect(statuses(state)).toBe('ccccrrrr');
    expect(merging(state)).toBe(false);
    for (let order = 1; order <= 4; order++) state = reduceEnhance(state, step(2, order, 4 + order), 0);
    expect(statuses(state)).toBe('cccccccc');
    expect(state.steps[5]).toEqual({ passNumber: 2, engineOrder: 2, status: 'complete', engine: 'engine-2' });
    expect(merging(state)).toBe(true);
    state = reduceEnhance(state, { type: 'complete', finalPrompt: 'better' }, 0);
    expect(merging(state)).toBe(false);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'enhanced', finalPrompt: 'better', percent: 100 });
  });

  it('stops the spinners when the enhancement fails', () => {
    const state = reduceEnhance(initialEnhanceState(), { type: 'error', error: 'No engine answered.', code: 'BAD_GATEWAY' }, 0);
    expect(statuses(state)).toBe('pppppppp');
    expect(state).toMatchObject({ phase: 'finished', outcome: 'failed', error: 'No engine answered.', errorCode: 'BAD_GATEWAY' });
    expect(failEnhance(initialEnhanceState(), 'The connection broke.')).toMatchObject({ outcome: 'failed', error: 'The connection broke.', errorCode: null });
  });

  it('grows the grid for a server with more passes or engines', () => {
    const state = reduceEnhance(initialEnhanceState(), step(3, 5, 1), 0);
    expect(state.passes).toBe(3);
    expect(state.enginesPerPass).toBe(5);
    expect(state.steps).toHaveLength(15);
  });

  it("keeps the server's log lines, a replayed one once", () => {
    let state = initialEnhanceState();
    for (let i = 1; i <= 6; i++) state = reduceEnhance(state, { type: 'log', id: `l${i}`, level: 'info', message: `line ${i}`, timestamp: '' }, 0);
    state = reduceEnhance(state, { type: 'log', id: 'l6', level: 'info', message: 'line 6', timestamp: '' }, 0);
    expect(state.log.map((line) => line.message)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
  });

  it('keeps the original prompt for an empty result', () => {
    const state = reduceEnhance(initialEnhanceState(), { type: 'complete', finalPrompt: '  ' }, 0);
    expect(state).toMatchObject({ outcome: 'kept-original', finalPrompt: 'A habit tracker' });
  });

  it('counts steps as a percentage that never goes back', () => {
    let state = reduceEnhance(initialEnhanceState(), step(1, 1, 3), 0);
    state = reduceEnhance(state, step(1, 2, 2), 0);
    expect(state).toMatchObject({ current: 3, total: 8, percent: 38, passNumber: 1 });
  });

  it('counts the estimate down between events, and to nothing at the end', () => {
    let state = reduceEnhance(initialEnhanceState(), step(1, 1, 1, 12), 1_000);
    expect(remainingSeconds(initialEnhanceState(), 1_000)).toBeNull();
    expect(remainingSeconds(state, 4_000)).toBe(9);
    expect(remainingSeconds(state, 60_000)).toBe(0);
    state = reduceEnhance(state, { type: 'complete', finalPrompt: 'x' }, 2_000);
    expect(remainingSeconds(state, 2_000)).toBe(0);
  });
});

describe('formatEstimate', () => {
  it('shows ~Ns below a minute and ~Nm Ns above', () => {
    expect(formatEstimate(0)).toBe('~0s');
    expect(formatEstimate(7.4)).toBe('~7s');
    expect(formatEstimate(59.4)).toBe('~59s');
    expect(formatEstimate(60)).toBe('~1m 0s');
    expect(formatEstimate(75)).toBe('~1m 15s');
    expect(formatEstimate(3725)).toBe('~62m 5s');
    expect(formatEstimate(-3)).toBe('~0s');
  });
});
