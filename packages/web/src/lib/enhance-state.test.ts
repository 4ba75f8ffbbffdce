import type { EnhancementEvent } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import {
  applyEnhancementEvent,
  EMPTY_RESULT_MESSAGE,
  enhancePercent,
  failEnhancement,
  initialEnhanceState,
  startEnhancement,
  type EnhanceEffect,
  type EnhanceState,
} from './enhance-state';
import { formatEstimate } from './format-time';

const NOW = new Date('2026-11-20T10:00:00Z');

const step = (current: number, pass: number, order: number, remaining = 10): EnhancementEvent => ({
  type: 'step',
  passNumber: pass,
  engineOrder: order,
  progress: { current, total: 8, percent: (current / 8) * 100 },
  estimatedRemainingSeconds: remaining,
  engine: `engine-${order}`,
});

/** Feeds events in order; returns the final state and every effect. */
function play(events: EnhancementEvent[], from: EnhanceState = startEnhancement('A habit tracker', NOW).state) {
  let state = from;
  const effects: EnhanceEffect[] = [];
  for (const event of events) {
    const next = applyEnhancementEvent(state, event, NOW);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const messages = (effects: EnhanceEffect[]) => effects.flatMap((e) => (e.type === 'log' ? [e.item.message] : []));

describe('formatEstimate (the enhancement estimate, spec core §9)', () => {
  it("writes '~Ns' under a minute and '~Nm Ns' from a minute on", () => {
    expect(formatEstimate(45)).toBe('~45s');
    expect(formatEstimate(65)).toBe('~1m 5s');
    expect(formatEstimate(0)).toBe('~0s');
    expect(formatEstimate(59.4)).toBe('~59s');
    expect(formatEstimate(59.6)).toBe('~1m 0s');
    expect(formatEstimate(600)).toBe('~10m 0s');
    expect(formatEstimate(3725)).toBe('~62m 5s');
  });
});

describe('enhancePercent', () => {
  it('is the finished steps of 8, whole', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => enhancePercent(n))).toEqual([0, 13, 25, 38, 50, 63, 75, 88, 100]);
    expect(enhancePercent(3, 0)).toBe(0);
    expect(enhancePercent(12)).toBe(100);
  });
});

describe('the enhancement state machine', () => {
  it('starts enhancing with the original prompt kept and a feed line', () => {
    const { state, effects } = startEnhancement('A habit tracker', NOW);
    expect(state).toMatchObject({ phase: 'enhancing', current: 0, total: 8, percent: 0, originalPrompt: 'A habit tracker' });
    expect(state.estimatedRemainingSeconds).toBeNull();
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ type: 'log', item: { type: 'info', timestamp: NOW.toISOString() } });
  });

  it('counts steps as percentage and keeps the latest estimate; the count never goes back', () => {
    const { state, effects } = play([step(1, 1, 2, 40), step(3, 1, 1, 30), step(2, 1, 3, 35)]);
    expect(state).toMatchObject({ phase: 'enhancing', current: 3, percent: 38, estimatedRemainingSeconds: 35, passNumber: 1 });
    expect(effects).toEqual([]);
  });

  it("puts the server's log lines into the feed as they are", () => {
    const log: EnhancementEvent = {
      type: 'log',
      id: 'log-7',
      level: 'warning',
      message: 'Engine beta failed. Skipping it in pass 1; the other engines continue.',
      timestamp: '2026-11-20T10:00:01Z',
    };
    const { state, effects } = play([log]);
    expect(state.phase).toBe('enhancing');
    expect(effects).toEqual([
      {
        type: 'log',
        item: { id: 'log-7', type: 'warning', message: log.message, timestamp: '2026-11-20T10:00:01Z' },
      },
    ]);
  });

  it('replaces the prompt with a non-empty result and finishes at 100 %', () => {
    const steps = Array.from({ length: 8 }, (_, i) => step(i + 1, i < 4 ? 1 : 2, (i % 4) + 1, 8 - i));
    const { state, effects } = play([...steps, { type: 'complete', finalPrompt: 'A habit tracker, in detail' }]);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'enhanced', percent: 100, current: 8, passNumber: 2 });
    expect(effects.filter((e) => e.type !== 'log')).toEqual([{ type: 'replace-prompt', prompt: 'A habit tracker, in detail' }]);
    expect(messages(effects).at(-1)).toBe('Prompt enhanced: 15 → 26 characters.');
  });

  it("keeps the original prompt for an empty result and says 'Enhancement Issue'", () => {
    const { state, effects } = play([step(8, 2, 4), { type: 'complete', finalPrompt: '   ' }]);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'kept-original' });
    expect(effects.some((e) => e.type === 'replace-prompt')).toBe(false);
    expect(effects.at(-1)).toEqual({ type: 'empty-result' });
    expect(messages(effects).at(-1)).toBe(EMPTY_RESULT_MESSAGE);
    expect(EMPTY_RESULT_MESSAGE).toBe('Enhancement completed but result was empty. Using original prompt.');
  });

  it("logs 'Failed to enhance prompt' for an error event and hands the server's sentence to the toast", () => {
    const { state, effects } = play([step(4, 1, 4), { type: 'error', error: 'Every engine failed in pass 2.', code: 'BAD_GATEWAY' }]);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'failed', error: 'Every engine failed in pass 2.' });
    expect(messages(effects).at(-1)).toBe('Failed to enhance prompt');
    expect(effects.at(-1)).toEqual({ type: 'failed', description: 'Every engine failed in pass 2.' });
  });

  it("fails with 'No reader available' when the answer has no body", () => {
    const { state, effects } = failEnhancement(startEnhancement('x').state, 'No reader available', undefined, NOW);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'failed', error: 'No reader available' });
    expect(effects).toEqual([
      { type: 'log', item: expect.objectContaining({ type: 'error', message: 'No reader available' }) },
      { type: 'failed', description: undefined },
    ]);
  });

  it('starts from idle', () => {
    expect(initialEnhanceState).toMatchObject({ phase: 'idle', current: 0, total: 8, percent: 0, outcome: null });
  });
});
