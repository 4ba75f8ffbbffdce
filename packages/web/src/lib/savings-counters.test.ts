import { describe, expect, it } from 'vitest';
import {
  addRun,
  beginSavingsSession,
  parseMonthly,
  parseTotals,
  readSavingsCounters,
  recordRun,
  type KeyValueStore,
} from './savings-counters';
import { STORAGE_KEYS } from './storage-keys';

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (key) => data[key] ?? null, setItem: (key, value) => void (data[key] = value) };
}

const november = new Date(2026, 10, 20, 12);
const december = new Date(2026, 11, 1, 9);

describe('savings counters', () => {
  it('adds time (seconds / 60 x 2.5 h), cost (seconds x $0.05) and one run to every counter', () => {
    const storage = memoryStore();
    const after = recordRun(storage, 120, november);
    for (const totals of [after.session, after.monthly, after.total]) {
      expect(totals.timeSavedHours).toBeCloseTo(5);
      expect(totals.costSavedDollars).toBeCloseTo(6);
      expect(totals.runs).toBe(1);
    }
    expect(after.monthly.month).toBe('2026-11');
    expect(JSON.parse(storage.data[STORAGE_KEYS.monthlySavings] ?? '')).toMatchObject({ month: '2026-11', runs: 1 });
    const again = recordRun(storage, 60, november);
    expect(again.total.runs).toBe(2);
    expect(again.total.costSavedDollars).toBeCloseTo(9);
  });

  it('resets the monthly counters when the stored month differs, keeping session and total', () => {
    const storage = memoryStore();
    recordRun(storage, 120, november);
    const read = readSavingsCounters(storage, december);
    expect(read.monthly).toEqual({ month: '2026-12', timeSavedHours: 0, costSavedDollars: 0, runs: 0 });
    expect(read.total.runs).toBe(1);
    const after = recordRun(storage, 60, december);
    expect(after.monthly).toMatchObject({ month: '2026-12', runs: 1 });
    expect(after.monthly.costSavedDollars).toBeCloseTo(3);
    expect(after.total.runs).toBe(2);
    expect(after.session.runs).toBe(2);
  });

  it('resets the monthly counters inside addRun too when the month turned', () => {
    const counters = readSavingsCounters(memoryStore(), november);
    const next = addRun(addRun(counters, 60, november), 60, december);
    expect(next.monthly).toMatchObject({ month: '2026-12', runs: 1 });
    expect(next.total.runs).toBe(2);
  });

  it('reads broken or hand-edited values as zero', () => {
    expect(parseTotals('not json')).toEqual({ timeSavedHours: 0, costSavedDollars: 0, runs: 0 });
    expect(parseTotals('{"timeSavedHours":-3,"costSavedDollars":"7","runs":2.7}')).toEqual({
      timeSavedHours: 0,
      costSavedDollars: 0,
      runs: 2,
    });
    expect(parseMonthly('{"month":"2026-11","runs":4}', '2026-11').runs).toBe(4);
    expect(parseMonthly('{"runs":4}', '2026-11').runs).toBe(0);
    expect(parseMonthly(null, '2026-11')).toMatchObject({ month: '2026-11', runs: 0 });
  });

  it('starts the session counters again in a new browser session only', () => {
    const storage = memoryStore();
    const session = memoryStore();
    recordRun(storage, 60, november);
    expect(beginSavingsSession(storage, session)).toBe(true);
    expect(readSavingsCounters(storage, november).session.runs).toBe(0);
    expect(readSavingsCounters(storage, november).total.runs).toBe(1);
    recordRun(storage, 60, november);
    expect(beginSavingsSession(storage, session)).toBe(false);
    expect(readSavingsCounters(storage, november).session.runs).toBe(1);
  });
});
