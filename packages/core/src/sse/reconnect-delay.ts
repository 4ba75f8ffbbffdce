/**
 * How long a client waits before reconnect attempt `attempt` (from 1) of a dropped event stream:
 * 500 ms doubling to at most 8 s, of which the second half is random ("equal jitter"). Without
 * the random half, every client of a server that restarted comes back in the same instant (each
 * at 0.5, 1.5, 3.5 s after the drop...): one crowd a step, each stream queued behind all the
 * others, on a server that is compiling its request path again. With it, each step's reconnects
 * are spread over half the step. The web page and the CLI both wait this long.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_RECONNECT_DELAY_MS, FIRST_RECONNECT_DELAY_MS * 2 ** (Math.max(1, attempt) - 1));
  return Math.round(step / 2 + (step / 2) * random());
}

export const FIRST_RECONNECT_DELAY_MS = 500;
export const MAX_RECONNECT_DELAY_MS = 8_000;
