import type { EnhancementStep } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { formatStepDuration, groupPromptHistory } from './prompt-evolution';

const step = (pass: number, order: number, durationMs: number): EnhancementStep => ({
  id: `s-${pass}-${order}`,
  passNumber: pass,
  engineOrder: order,
  engineKey: `engine-${order}`,
  engineModel: `engine-${order}`,
  inputPrompt: `in ${pass}.${order}`,
  outputPrompt: `out ${pass}.${order}`,
  durationMs,
});

describe('groupPromptHistory', () => {
  it('is null for a project without an enhancement (AI Enhance was not used for it)', () => {
    expect(groupPromptHistory({ enhancement: null, steps: [] })).toBeNull();
  });

  it('groups the steps into passes, both in order, with the original and final prompt', () => {
    // Out of order on purpose: the engines of a pass finish in any order.
    const steps = [step(2, 3, 900), step(1, 2, 1200), step(2, 1, 800), step(1, 1, 400), step(1, 4, 1500), step(2, 2, 700), step(1, 3, 300), step(2, 4, 2100)];
    const evolution = groupPromptHistory({
      enhancement: { sourcePrompt: 'A habit tracker', finalPrompt: 'A habit tracker, in detail', cyclesRun: 2 },
      steps,
    });
    expect(evolution).not.toBeNull();
    expect(evolution!.original).toBe('A habit tracker');
    expect(evolution!.final).toBe('A habit tracker, in detail');
    expect(evolution!.cyclesRun).toBe(2);
    expect(evolution!.passes.map((p) => p.passNumber)).toEqual([1, 2]);
    expect(evolution!.passes.map((p) => p.steps.map((s) => s.engineOrder))).toEqual([
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ]);
    // Engines of a pass run side by side: the pass takes as long as its slowest engine.
    expect(evolution!.passes.map((p) => p.wallMs)).toEqual([1500, 2100]);
  });

  it('keeps a pass that only some engines finished', () => {
    const evolution = groupPromptHistory({
      enhancement: { sourcePrompt: 'a', finalPrompt: 'b', cyclesRun: 1 },
      steps: [step(1, 2, 10)],
    });
    expect(evolution!.passes).toEqual([{ passNumber: 1, steps: [step(1, 2, 10)], wallMs: 10 }]);
  });
});

describe('formatStepDuration', () => {
  it('shows seconds with one decimal', () => {
    expect(formatStepDuration(1234)).toBe('1.2s');
    expect(formatStepDuration(0)).toBe('0.0s');
    expect(formatStepDuration(15_050)).toBe('15.1s');
    expect(formatStepDuration(-5)).toBe('0.0s');
  });
});
