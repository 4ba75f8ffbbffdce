import { describe, expect, it } from 'vitest';
import { beginSessionAt, readSessionStart, sessionSince } from './savings-session';
import { SESSION_SAVINGS_START_KEY } from './storage-keys';

function memoryStore() {
  const map = new Map<string, string>();
  return { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value), map };
}

const at = (runs: number, seconds: number) => ({ runs, timeSavedHours: (seconds / 60) * 2.5, costSavedDollars: seconds * 0.05 });

describe('this session of the server savings', () => {
  it('starts at the figures first read in the session and counts every run added since', () => {
    const store = memoryStore();
    const start = beginSessionAt(store, 'alice', at(3, 30));
    expect(start).toEqual(at(3, 30));
    expect(sessionSince(at(3, 30), start)).toEqual({ runs: 0, timeSavedHours: 0, costSavedDollars: 0 });
    // An experiment and a build later (both runs on the server): two runs, their savings.
    const now = at(5, 30 + 0.2 + 0.4);
    const session = sessionSince(now, readSessionStart(store, 'alice'));
    expect(session.runs).toBe(2);
    expect(session.costSavedDollars).toBeCloseTo(0.6 * 0.05, 10);
    // Read again in the same session, the start stays where it was.
    expect(beginSessionAt(store, 'alice', now)).toEqual(at(3, 30));
  });

  it("is per user: another account's start is not used, and a broken value is none", () => {
    const store = memoryStore();
    beginSessionAt(store, 'alice', at(3, 30));
    expect(readSessionStart(store, 'bob')).toBeNull();
    expect(beginSessionAt(store, 'bob', at(1, 5))).toEqual(at(1, 5));
    expect(JSON.parse(store.map.get(SESSION_SAVINGS_START_KEY)!)).toMatchObject({ user: 'bob', runs: 1 });
    store.setItem(SESSION_SAVINGS_START_KEY, '{not json');
    expect(readSessionStart(store, 'bob')).toBeNull();
    store.setItem(SESSION_SAVINGS_START_KEY, JSON.stringify({ user: 'bob', runs: -4, timeSavedHours: 'x' }));
    expect(readSessionStart(store, 'bob')).toEqual({ runs: 0, timeSavedHours: 0, costSavedDollars: 0 });
  });

  it('is never negative (fewer runs than at the start: the figures were reset)', () => {
    expect(sessionSince(at(1, 10), at(4, 40))).toEqual({ runs: 0, timeSavedHours: 0, costSavedDollars: 0 });
    expect(sessionSince(at(1, 10), null)).toEqual({ runs: 0, timeSavedHours: 0, costSavedDollars: 0 });
  });
});
