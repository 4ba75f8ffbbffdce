/**
 * A value kept in localStorage that several components read and write together (theme, brand
 * colour): one in-memory copy, change notifications inside the tab and across tabs, and a parse
 * step so a hand-edited or stale stored value can never break the app.
 */
import { useSyncExternalStore } from 'react';

/** A browser-stored preference; see {@link createStoredValue}. */
export interface StoredValue<T> {
  /** The current value (the parsed stored one, or the default). */
  get(): T;
  /** Stores a value and notifies every reader. */
  set(value: T): void;
  /** Removes the stored value (readers then see the default) and notifies every reader. */
  remove(): void;
  subscribe(listener: () => void): () => void;
  /** React binding: the current value, re-rendering on change. */
  use(): T;
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed iframes): fall back to memory only.
    return undefined;
  }
}

/**
 * Creates a stored value under `key`. `parse` turns the raw stored string (or null when absent)
 * into a valid value and must never throw; `serialize` is the inverse.
 */
export function createStoredValue<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialize: (value: T) => string = String,
): StoredValue<T> {
  const listeners = new Set<() => void>();
  let cached: { raw: string | null; value: T } | undefined;

  const read = (): T => {
    let raw: string | null = null;
    try {
      raw = storage()?.getItem(key) ?? null;
    } catch {
      raw = null;
    }
    if (!cached || cached.raw !== raw) cached = { raw, value: parse(raw) };
    return cached.value;
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) listener();
    };
    if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
    };
  };

  return {
    get: read,
    set(value) {
      const raw = serialize(value);
      try {
        storage()?.setItem(key, raw);
      } catch {
        // Quota or disabled storage: the value still applies for this page view.
      }
      cached = { raw: storage() ? raw : null, value };
      notify();
    },
    remove() {
      try {
        storage()?.removeItem(key);
      } catch {
        // Disabled storage: nothing was stored.
      }
      cached = { raw: null, value: parse(null) };
      notify();
    },
    subscribe,
    use() {
      return useSyncExternalStore(subscribe, read, read);
    },
  };
}
