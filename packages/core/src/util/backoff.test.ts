import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.js';

describe('backoffMs', () => {
  it('doubles from the base per attempt and stops at the longest wait', () => {
    const top = { baseMs: 500, maxMs: 8000, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 6, 12].map((a) => backoffMs(a, top))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('waits between half and all of the step, at random', () => {
    expect(backoffMs(3, { baseMs: 1000, maxMs: 30_000, random: () => 0 })).toBe(2000);
    expect(backoffMs(3, { baseMs: 1000, maxMs: 30_000, random: () => 0.5 })).toBe(3000);
    for (let i = 0; i < 200; i++) {
      const ms = backoffMs(2, { baseMs: 100, maxMs: 1000 });
      expect(ms).toBeGreaterThanOrEqual(100);
      expect(ms).toBeLessThanOrEqual(200);
    }
  });

  it('treats an attempt below 1 as the first', () => {
    expect(backoffMs(0, { baseMs: 400, maxMs: 1000, random: () => 0.999999 })).toBe(400);
  });
});
