import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  nextCheckDelay,
  parseShownAt,
  resultPending,
  SAVINGS_POPUP_CHECK_MS,
  SAVINGS_POPUP_MIN_GAP_MS,
  shouldShowSavingsPopup,
  startSavingsPopupChecks,
  type SavingsPopupFacts,
} from './savings-popup';

const MINUTE = 60_000;
const base: SavingsPopupFacts = { runs: 3, lastShownAt: null, projectPending: false, runPending: false };

describe('shouldShowSavingsPopup', () => {
  const now = Date.UTC(2026, 10, 20, 12);

  it('shows for a user with runs and nothing pending who never saw it', () => {
    expect(shouldShowSavingsPopup(base, now)).toBe(true);
  });

  it('needs at least one run', () => {
    expect(shouldShowSavingsPopup({ ...base, runs: 0 }, now)).toBe(false);
  });

  it('waits while a project or a run is pending', () => {
    expect(shouldShowSavingsPopup({ ...base, projectPending: true }, now)).toBe(false);
    expect(shouldShowSavingsPopup({ ...base, runPending: true }, now)).toBe(false);
  });

  it('shows at most once per 60 minutes', () => {
    expect(SAVINGS_POPUP_MIN_GAP_MS).toBe(60 * MINUTE);
    expect(shouldShowSavingsPopup({ ...base, lastShownAt: now - 59 * MINUTE }, now)).toBe(false);
    expect(shouldShowSavingsPopup({ ...base, lastShownAt: now - 60 * MINUTE }, now)).toBe(true);
  });

  it('does not wait forever when the clock was set back', () => {
    expect(shouldShowSavingsPopup({ ...base, lastShownAt: now + 10 * MINUTE }, now)).toBe(true);
  });

  it('takes another gap when one is given', () => {
    expect(shouldShowSavingsPopup({ ...base, lastShownAt: now - 2 * MINUTE }, now, MINUTE)).toBe(true);
  });
});

describe('startSavingsPopupChecks with fake time', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 20, 12));
  });
  afterEach(() => vi.useRealTimers());

  it('checks every 5 minutes and shows at most once per hour', () => {
    expect(SAVINGS_POPUP_CHECK_MS).toBe(5 * MINUTE);
    let lastShownAt: number | null = null;
    const shows: number[] = [];
    const stop = startSavingsPopupChecks({
      read: () => ({ ...base, lastShownAt }),
      show: (at) => {
        lastShownAt = at;
        shows.push(at);
      },
    });
    const start = Date.now();
    vi.advanceTimersByTime(5 * MINUTE - 1);
    expect(shows).toEqual([]); // the first check comes after one interval
    vi.advanceTimersByTime(1);
    expect(shows).toEqual([start + 5 * MINUTE]);
    vi.advanceTimersByTime(55 * MINUTE); // checks at 10..60 min: less than an hour since the showing
    expect(shows).toHaveLength(1);
    vi.advanceTimersByTime(5 * MINUTE); // 65 min: an hour has passed
    expect(shows).toEqual([start + 5 * MINUTE, start + 65 * MINUTE]);
    stop();
    vi.advanceTimersByTime(5 * 60 * MINUTE);
    expect(shows).toHaveLength(2);
  });

  it('reads the facts at each check: a run in progress holds the popup back until it ends', () => {
    let runPending = true;
    const shows: number[] = [];
    const stop = startSavingsPopupChecks({ read: () => ({ ...base, runPending }), show: (at) => shows.push(at) });
    vi.advanceTimersByTime(15 * MINUTE);
    expect(shows).toEqual([]);
    runPending = false;
    vi.advanceTimersByTime(5 * MINUTE);
    expect(shows).toHaveLength(1);
    stop();
  });

  it('uses injected timers, interval, gap and clock', () => {
    const callbacks: Array<() => void> = [];
    const cleared: unknown[] = [];
    let clock = 1_000;
    const shows: number[] = [];
    let lastShownAt: number | null = null;
    const stop = startSavingsPopupChecks({
      read: () => ({ ...base, lastShownAt }),
      show: (at) => {
        lastShownAt = at;
        shows.push(at);
      },
      checkEveryMs: 10,
      minGapMs: 100,
      now: () => clock,
      timers: {
        setInterval: (callback, ms) => {
          expect(ms).toBe(10);
          callbacks.push(callback);
          return 'handle';
        },
        clearInterval: (handle) => cleared.push(handle),
      },
    });
    callbacks[0]?.();
    clock += 50;
    callbacks[0]?.();
    clock += 50;
    callbacks[0]?.();
    expect(shows).toEqual([1_000, 1_100]);
    stop();
    expect(cleared).toEqual(['handle']);
  });
});

describe('a finished project is pending only while it is new', () => {
  const now = Date.UTC(2026, 10, 20, 12);

  it('holds the popup back for one check after a run finished, not for the rest of the visit', () => {
    expect(resultPending(null, now)).toBe(false);
    expect(resultPending(now - 1000, now)).toBe(true);
    expect(resultPending(now - SAVINGS_POPUP_CHECK_MS + 1, now)).toBe(true);
    expect(resultPending(now - SAVINGS_POPUP_CHECK_MS, now)).toBe(false);
    // The banner of a build an hour ago is still on screen: that is no reason to wait.
    expect(shouldShowSavingsPopup({ ...base, projectPending: resultPending(now - 60 * MINUTE, now) }, now)).toBe(true);
    expect(shouldShowSavingsPopup({ ...base, projectPending: resultPending(now - MINUTE, now) }, now)).toBe(false);
    // A finish "in the future" (the clock was set back) does not hold it back for ever.
    expect(resultPending(now + MINUTE, now)).toBe(false);
  });
});

describe('checks count minutes of the visit, not of one stay on Home', () => {
  const start = Date.UTC(2026, 10, 20, 12);

  it('the next check is one interval after the last one, at once when it came due elsewhere', () => {
    expect(nextCheckDelay(start, start)).toBe(5 * MINUTE);
    expect(nextCheckDelay(start, start + 3 * MINUTE)).toBe(2 * MINUTE);
    expect(nextCheckDelay(start, start + 7 * MINUTE)).toBe(0);
    expect(nextCheckDelay(start, start - 30 * MINUTE)).toBe(5 * MINUTE);
    expect(nextCheckDelay(start, start + MINUTE, 2 * MINUTE)).toBe(MINUTE);
  });

  it('a visit that leaves Home every few minutes still gets its checks, and the popup', () => {
    vi.useFakeTimers();
    vi.setSystemTime(start);
    try {
      let lastCheckAt = start;
      const shows: number[] = [];
      // Four minutes on Home, one elsewhere, over and over: a timer started on each arrival never fired.
      const stay = () =>
        startSavingsPopupChecks({
          read: () => ({ ...base, lastShownAt: shows.at(-1) ?? null }),
          show: (at) => shows.push(at),
          checked: (at) => (lastCheckAt = at),
          firstCheckInMs: nextCheckDelay(lastCheckAt, Date.now()),
        });
      for (let visit = 0; visit < 3 && shows.length === 0; visit += 1) {
        const stop = stay();
        vi.advanceTimersByTime(4 * MINUTE);
        stop();
        vi.advanceTimersByTime(MINUTE);
      }
      expect(shows).toHaveLength(1);
      expect(shows[0]).toBe(start + 5 * MINUTE);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('parseShownAt', () => {
  it('accepts a positive number of ms and nothing else', () => {
    expect(parseShownAt('1700000000000')).toBe(1_700_000_000_000);
    for (const raw of [null, '', 'soon', '-5', '0', 'NaN', 'Infinity']) expect(parseShownAt(raw), String(raw)).toBeNull();
  });
});
