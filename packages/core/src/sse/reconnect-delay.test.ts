import { describe, expect, it } from 'vitest';
import { MAX_RECONNECT_STEP_MS, reconnectDelayMs } from './reconnect-delay.js';

describe('reconnectDelayMs', () => {
  it('doubles from 500 ms to at most 8 s, each wait between its step and half as long again', () => {
    const steps = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    steps.forEach((step, i) => {
      expect(reconnectDelayMs(i + 1, () => 0)).toBe(step);
      expect(reconnectDelayMs(i + 1, () => 0.999999)).toBe(step * 1.5);
    });
    expect(reconnectDelayMs(40, () => 1)).toBe(MAX_RECONNECT_STEP_MS * 1.5);
  });

  it('spreads a crowd of clients over half a step instead of one instant', () => {
    const waits = Array.from({ length: 1000 }, () => reconnectDelayMs(1));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...waits)).toBeLessThanOrEqual(750);
    // 1,000 clients land in at least 200 distinct milliseconds (all in the same one without it).
    expect(new Set(waits).size).toBeGreaterThan(200);
    const firstTenth = waits.filter((ms) => ms < 525).length;
    expect(firstTenth).toBeGreaterThan(50);
    expect(firstTenth).toBeLessThan(150);
  });

  it('treats an attempt below 1 as the first', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
  });
});
