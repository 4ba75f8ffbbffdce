/**
 * Session, monthly and total savings counters kept in the browser (spec core §3, §9), updated
 * when a run completes. Every reader re-renders when a run adds to them, in this tab or another.
 */
import { useSyncExternalStore } from 'react';
import {
  beginSavingsSession,
  readSavingsCounters,
  recordRun,
  type KeyValueStore,
  type SavingsCounters,
} from '../lib/savings-counters';
import { STORAGE_KEYS } from '../lib/storage-keys';

const memory = new Map<string, string>();
/** localStorage, or memory when storage is disabled, so the counters still work for the page view. */
function store(kind: 'local' | 'session'): KeyValueStore {
  try {
    const storage = kind === 'local' ? window.localStorage : window.sessionStorage;
    if (storage) return storage;
  } catch {
    // Disabled storage (privacy mode): fall through to memory.
  }
  return {
    getItem: (key) => memory.get(`${kind}:${key}`) ?? null,
    setItem: (key, value) => void memory.set(`${kind}:${key}`, value),
  };
}

const listeners = new Set<() => void>();
let cached: { key: string; value: SavingsCounters } | undefined;
let sessionBegun = false;

function snapshot(): SavingsCounters {
  if (!sessionBegun) {
    sessionBegun = true;
    beginSavingsSession(store('local'), store('session'));
  }
  const local = store('local');
  const now = new Date();
  const key = [
    local.getItem(STORAGE_KEYS.sessionSavings),
    local.getItem(STORAGE_KEYS.monthlySavings),
    local.getItem(STORAGE_KEYS.totalSavings),
    now.getFullYear(),
    now.getMonth(),
  ].join('|');
  if (!cached || cached.key !== key) cached = { key, value: readSavingsCounters(local, now) };
  return cached.value;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.endsWith('Savings')) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Adds one run of `executionSeconds` to every counter. */
export function recordSavedRun(executionSeconds: number): SavingsCounters {
  snapshot();
  const next = recordRun(store('local'), executionSeconds);
  for (const listener of listeners) listener();
  return next;
}

/** The current counters (monthly ones already reset when the month changed). */
export function useSavingsCounters(): SavingsCounters {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
