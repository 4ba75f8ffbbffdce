import type { EnhancementEvent } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { EMPTY_RESULT_WARNING, formatEstimate, initialEnhanceState, merging, reduceEnhance, remainingSeconds, type EnhanceState } from './enhance-state.js';

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
    expect(statuses(state)).toBe('drddpppp');
    state = reduceEnhance(state, step(1, 2, 4), 0);
    expect(statuses(state)).toBe('ddddrrrr');
    expect(merging(state)).toBe(false);
    for (let order = 1; order <= 4; order++) state = reduceEnhance(state, step(2, order, 4 + order), 0);
    expect(statuses(state)).toBe('dddddddd');
    expect(state.steps[5]).toEqual({ passNumber: 2, engineOrder: 2, status: 'done', engine: 'engine-2' });
    expect(merging(state)).toBe(true);
    state = reduceEnhance(state, { type: 'complete', finalPrompt: 'better' }, 0);
    expect(merging(state)).toBe(false);
    expect(state.outcome).toEqual({ type: 'complete', finalPrompt: 'better' });
  });

  it('stops the spinners when the enhancement fails', () => {
    const state = reduceEnhance(initialEnhanceState(), { type: 'error', error: 'No engine answered.', code: 'BAD_GATEWAY' }, 0);
    expect(statuses(state)).toBe('pppppppp');
    expect(state.outcome).toEqual({ type: 'error', error: 'No engine answered.', code: 'BAD_GATEWAY' });
  });

  it('grows the grid for a server with more passes or engines', () => {
    const state = reduceEnhance(initialEnhanceState(), step(3, 5, 1), 0);
    expect(state.passes).toBe(3);
    expect(state.enginesPerPass).toBe(5);
    expect(state.steps).toHaveLength(15);
  });

  it('keeps the newest log lines, without the empty result warning the CLI says itself', () => {
    let state = initialEnhanceState();
    for (let i = 1; i <= 6; i++) state = reduceEnhance(state, { type: 'log', id: `l${i}`, level: 'info', message: `line ${i}`, timestamp: '' }, 0);
    state = reduceEnhance(state, { type: 'log', id: 'w', level: 'warning', message: EMPTY_RESULT_WARNING, timestamp: '' }, 0);
    expect(state.log.map((line) => line.message)).toEqual(['line 3', 'line 4', 'line 5', 'line 6']);
  });

  it('counts the estimate down between events, and to nothing at the end', () => {
    let state = reduceEnhance(initialEnhanceState(), step(1, 1, 1, 12), 1_000);
    expect(remainingSeconds(initialEnhanceState(), 1_000)).toBeUndefined();
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
