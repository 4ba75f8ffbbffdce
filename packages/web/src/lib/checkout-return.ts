/**
 * The way back from Stripe Checkout. Credits arrive only through the signed webhook,
 * which may land before or after the browser returns to /settings?checkout=success; so the page
 * polls until it sees them. Framework-free and time-injected, so tests drive it with fakes.
 */
import { z } from 'zod';
import type { LedgerEntryItem } from '@wolfpack/core';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

/** How often the balance is read while waiting for the webhook. */
export const CHECKOUT_POLL_MS = 1500;
/** How long to keep reading before saying the credits are late. */
export const CHECKOUT_POLL_LIMIT_MS = 60_000;
/**
 * Without a stored baseline (another tab or browser started the checkout), a top-up this recent
 * counts as the one just paid.
 */
export const RECENT_TOP_UP_MS = 30 * 60_000;
/** Server and browser clocks may differ by this much. */
const CLOCK_SLACK_MS = 2 * 60_000;

/** What the return URL says: paid (with the session id), cancelled, or nothing about checkout. */
export type CheckoutReturn = { kind: 'success'; sessionId: string | null } | { kind: 'cancelled' } | null;

export function checkoutReturnFrom(params: URLSearchParams): CheckoutReturn {
  const checkout = params.get('checkout');
  if (checkout === 'success') return { kind: 'success', sessionId: params.get('session_id') || null };
  if (checkout === 'cancelled' || checkout === 'canceled') return { kind: 'cancelled' };
  return null;
}

/** The balance when the user left for Checkout, to tell when the purchase has been credited. */
export interface PendingCheckout {
  balanceCents: number;
  amountDollars: number;
  /** ISO time the checkout started. */
  startedAt: string;
}

const pendingCheckout = z.object({ balanceCents: z.number().int(), amountDollars: z.number(), startedAt: z.string() });

export const pendingCheckoutStore = createStoredValue<PendingCheckout | null>(
  STORAGE_KEYS.pendingCheckout,
  (raw) => {
    try {
      const parsed = raw ? pendingCheckout.safeParse(JSON.parse(raw)) : undefined;
      return parsed?.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  (value) => JSON.stringify(value),
);

/**
 * True once the purchase shows: the balance rose above what it was when the checkout started, or
 * the ledger holds a top-up made since then (recently, when nothing was stored).
 */
export function isCheckoutCredited(
  pending: PendingCheckout | null,
  balanceCents: number,
  entries: readonly Pick<LedgerEntryItem, 'kind' | 'createdAt'>[],
  now: number,
): boolean {
  if (pending && balanceCents > pending.balanceCents) return true;
  const started = pending ? Date.parse(pending.startedAt) : Number.NaN;
  const since = Number.isNaN(started) ? now - RECENT_TOP_UP_MS : started - CLOCK_SLACK_MS;
  return entries.some((entry) => entry.kind === 'top_up' && Date.parse(entry.createdAt) >= since);
}

export type CheckoutPollResult = { status: 'credited'; balanceCents: number } | { status: 'late'; balanceCents: number | null };

export interface CheckoutPollOptions {
  pending: PendingCheckout | null;
  readBalance(): Promise<number>;
  /** The newest ledger entries. */
  readEntries(): Promise<readonly Pick<LedgerEntryItem, 'kind' | 'createdAt'>[]>;
  signal: AbortSignal;
  /** @default CHECKOUT_POLL_MS */
  intervalMs?: number;
  /** @default CHECKOUT_POLL_LIMIT_MS */
  limitMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default a setTimeout that the signal cuts short */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Reads the balance (and the newest entries) every interval until the purchase shows or the limit
 * passes. A failed read is retried at the next tick. Resolves with 'late' (the last balance seen)
 * when the limit passed or the signal aborted.
 */
export async function pollCheckout(options: CheckoutPollOptions): Promise<CheckoutPollResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const interval = options.intervalMs ?? CHECKOUT_POLL_MS;
  const deadline = now() + (options.limitMs ?? CHECKOUT_POLL_LIMIT_MS);
  let last: number | null = null;
  for (;;) {
    if (options.signal.aborted) return { status: 'late', balanceCents: last };
    try {
      const [balance, entries] = await Promise.all([options.readBalance(), options.readEntries()]);
      last = balance;
      if (isCheckoutCredited(options.pending, balance, entries, now())) return { status: 'credited', balanceCents: balance };
    } catch {
      // A network hiccup: the next tick tries again.
    }
    if (now() + interval > deadline) return { status: 'late', balanceCents: last };
    await sleep(interval, options.signal);
  }
}
