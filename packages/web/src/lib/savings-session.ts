/**
 * Home's savings card reads the server's figures (GET /api/savings), which count every completed
 * run of the account: builds, Lab experiments, runs from the terminal. "This session" is what was
 * added since this browser session first read them, so the three rows, the statistics and the
 * Savings Dashboard all agree. Pure, over a minimal storage interface.
 */
import type { SavingsFigures } from '@wolfpack/core';
import { ZERO_TOTALS, type KeyValueStore, type SavingsTotals } from './savings-counters';
import { SESSION_SAVINGS_START_KEY } from './storage-keys';

function finiteOrZero(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The stored start of `user`'s session; null when there is none, it is another user's, or unreadable. */
export function readSessionStart(storage: Pick<KeyValueStore, 'getItem'>, user: string): SavingsTotals | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(SESSION_SAVINGS_START_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  if (record.user !== user) return null;
  return { timeSavedHours: finiteOrZero(record.timeSavedHours), costSavedDollars: finiteOrZero(record.costSavedDollars), runs: Math.floor(finiteOrZero(record.runs)) };
}

/**
 * Remembers `allTime` as the start of `user`'s session unless one is stored for them; returns the
 * start in force. Another user signing in starts their own session.
 */
export function beginSessionAt(storage: KeyValueStore, user: string, allTime: SavingsFigures): SavingsTotals {
  const stored = readSessionStart(storage, user);
  if (stored) return stored;
  const start = { timeSavedHours: allTime.timeSavedHours, costSavedDollars: allTime.costSavedDollars, runs: allTime.runs };
  try {
    storage.setItem(SESSION_SAVINGS_START_KEY, JSON.stringify({ user, ...start }));
  } catch {
    // Storage full or disabled: the session then starts at every page load.
  }
  return start;
}

/** What was saved since `start` (never below zero: a database reset cannot make it negative). */
export function sessionSince(allTime: SavingsFigures, start: SavingsTotals | null): SavingsTotals {
  if (!start) return { ...ZERO_TOTALS };
  const runs = allTime.runs - start.runs;
  if (runs <= 0) return { ...ZERO_TOTALS };
  return {
    timeSavedHours: Math.max(0, allTime.timeSavedHours - start.timeSavedHours),
    costSavedDollars: Math.max(0, allTime.costSavedDollars - start.costSavedDollars),
    runs,
  };
}
