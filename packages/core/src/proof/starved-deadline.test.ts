import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StarvedDeadline, withinStarvedDeadline } from './starved-deadline.js';

describe('StarvedDeadline', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('moves by the run-queue wait seen at each deadline, and no further than two windows more', () => {
    let wait = 0;
    const timeUp = vi.fn();
    const deadline = new StarvedDeadline(1000, timeUp, () => wait);
    wait = 400;
    vi.advanceTimersByTime(1000);
    expect(timeUp).not.toHaveBeenCalled();
    // The 400 ms given back, and 1,500 more waited meanwhile: given back in its turn.
    wait = 1900;
    vi.advanceTimersByTime(400);
    expect(timeUp).not.toHaveBeenCalled();
    // Still starved, but the cap (three windows from the start) is near: only what is left of it.
    wait = 5000;
    vi.advanceTimersByTime(1500);
    expect(timeUp).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(timeUp).toHaveBeenCalledTimes(1);
    expect(deadline.givenBackMs).toBe(2000);
  });

  it('gives nothing back for a few milliseconds of wait, for a tree it cannot read, or without a reader', () => {
    const cases: (() => number | undefined)[] = [() => 99, () => undefined];
    for (const waited of cases) {
      const timeUp = vi.fn();
      const deadline = new StarvedDeadline(1000, timeUp, waited);
      vi.advanceTimersByTime(999);
      expect(timeUp).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(timeUp).toHaveBeenCalledTimes(1);
      expect(deadline.givenBackMs).toBe(0);
    }
    const plain = vi.fn();
    new StarvedDeadline(500, plain);
    vi.advanceTimersByTime(500);
    expect(plain).toHaveBeenCalledTimes(1);
  });

  it('on a restart, counts from the new window: the wait before it is not given back', () => {
    let wait = 0;
    const timeUp = vi.fn();
    const deadline = new StarvedDeadline(10_000, timeUp, () => wait);
    wait = 3000; // a build's wait, before the start's window
    vi.advanceTimersByTime(2000);
    deadline.restart(1000);
    vi.advanceTimersByTime(1000);
    expect(timeUp).toHaveBeenCalledTimes(1);
    expect(deadline.givenBackMs).toBe(0);
  });

  it('never fires once cleared', () => {
    const timeUp = vi.fn();
    new StarvedDeadline(1000, timeUp).clear();
    vi.advanceTimersByTime(5000);
    expect(timeUp).not.toHaveBeenCalled();
  });

  it('races work against the deadline: its value when in time, else the timeout error with what was given back', async () => {
    let wait = 0;
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve('loaded'), 1500));
    const inTime = withinStarvedDeadline(slow, 1000, () => wait, (given) => new Error(`late by ${given}`));
    wait = 800; // the deadline moves to 1,800 ms: the work ends at 1,500
    await vi.advanceTimersByTimeAsync(1500);
    await expect(inTime).resolves.toBe('loaded');

    const never = new Promise<string>(() => undefined);
    const late = withinStarvedDeadline(never, 1000, () => wait, (given) => new Error(`given back ${given} ms`));
    const settled = expect(late).rejects.toThrow('given back 300 ms');
    wait = 1100;
    await vi.advanceTimersByTimeAsync(1300);
    await settled;
  });
});
