/**
 * The browser's saved-time, saved-cost and run counters (spec core §3, §4, §9): per browser
 * session, per month (keyed by year-month, reset when the stored month differs) and in total.
 * Pure functions over a minimal storage interface, so the month reset is testable.
 */
import { monthKey, runSavings } from '@wolfpack/core';
import { SESSION_MARKER_KEY, STORAGE_KEYS } from './storage-keys';

export interface SavingsTotals {
  /** Hours, unrounded. */
  timeSavedHours: number;
  /** Dollars, unrounded. */
  costSavedDollars: number;
  runs: number;
}

export interface MonthlySavings extends SavingsTotals {
  /** 'YYYY-MM' */
  month: string;
}

export interface SavingsCounters {
  session: SavingsTotals;
  monthly: MonthlySavings;
  total: SavingsTotals;
}

/** The part of Storage the counters use. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

export const ZERO_TOTALS: SavingsTotals = { timeSavedHours: 0, costSavedDollars: 0, runs: 0 };

function finiteOrZero(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Reads stored totals; anything missing, broken or negative counts as zero. */
export function parseTotals(raw: string | null): SavingsTotals {
  if (!raw) return { ...ZERO_TOTALS };
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return { ...ZERO_TOTALS };
    const record = value as Record<string, unknown>;
    return {
      timeSavedHours: finiteOrZero(record.timeSavedHours),
      costSavedDollars: finiteOrZero(record.costSavedDollars),
      runs: Math.floor(finiteOrZero(record.runs)),
    };
  } catch {
    return { ...ZERO_TOTALS };
  }
}

/** Monthly totals for `currentMonth`: the stored ones if they are of that month, else zero. */
export function parseMonthly(raw: string | null, currentMonth: string): MonthlySavings {
  let month: unknown;
  try {
    month = raw ? (JSON.parse(raw) as { month?: unknown } | null)?.month : undefined;
  } catch {
    month = undefined;
  }
  if (month !== currentMonth) return { month: currentMonth, ...ZERO_TOTALS };
  return { month: currentMonth, ...parseTotals(raw) };
}

/** The counters as stored, with the monthly ones reset when the month changed. */
export function readSavingsCounters(storage: KeyValueStore, now: Date = new Date()): SavingsCounters {
  return {
    session: parseTotals(storage.getItem(STORAGE_KEYS.sessionSavings)),
    monthly: parseMonthly(storage.getItem(STORAGE_KEYS.monthlySavings), monthKey(now)),
    total: parseTotals(storage.getItem(STORAGE_KEYS.totalSavings)),
  };
}

function add<T extends SavingsTotals>(totals: T, seconds: number): T {
  const { timeSavedHours, costSavedDollars } = runSavings(seconds);
  return {
    ...totals,
    timeSavedHours: totals.timeSavedHours + timeSavedHours,
    costSavedDollars: totals.costSavedDollars + costSavedDollars,
    runs: totals.runs + 1,
  };
}

/** Counters after one more run of `executionSeconds` (spec core §9 savings formulas). */
export function addRun(counters: SavingsCounters, executionSeconds: number, now: Date = new Date()): SavingsCounters {
  const month = monthKey(now);
  const monthly = counters.monthly.month === month ? counters.monthly : { month, ...ZERO_TOTALS };
  return {
    session: add(counters.session, executionSeconds),
    monthly: add(monthly, executionSeconds),
    total: add(counters.total, executionSeconds),
  };
}

/** Stores the counters. */
export function writeSavingsCounters(storage: KeyValueStore, counters: SavingsCounters): void {
  storage.setItem(STORAGE_KEYS.sessionSavings, JSON.stringify(counters.session));
  storage.setItem(STORAGE_KEYS.monthlySavings, JSON.stringify(counters.monthly));
  storage.setItem(STORAGE_KEYS.totalSavings, JSON.stringify(counters.total));
}

/** Reads, adds one run, writes back; returns the new counters. */
export function recordRun(storage: KeyValueStore, executionSeconds: number, now: Date = new Date()): SavingsCounters {
  const next = addRun(readSavingsCounters(storage, now), executionSeconds, now);
  writeSavingsCounters(storage, next);
  return next;
}

/**
 * Starts the session counters from zero when this is a new browser session: sessionStorage is
 * emptied when the session ends, so a missing marker means a new one. Returns whether it reset.
 */
export function beginSavingsSession(storage: KeyValueStore, session: KeyValueStore): boolean {
  if (session.getItem(SESSION_MARKER_KEY)) return false;
  session.setItem(SESSION_MARKER_KEY, new Date().toISOString());
  storage.setItem(STORAGE_KEYS.sessionSavings, JSON.stringify(ZERO_TOTALS));
  return true;
}
