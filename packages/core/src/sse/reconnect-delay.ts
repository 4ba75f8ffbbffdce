const FIRST_RECONNECT_STEP_MS = 500;
export const MAX_RECONNECT_STEP_MS = 8_000;

/**
 * How long a client waits before reconnect attempt `attempt` (from 1) of a dropped event stream:
 * 500 ms doubling to 8 s, and up to half as long again at random. Without the random part, every
 * client of a server that restarted comes back in the same instant (each at 0.5, 1.5, 3.5 s after
 * the drop...): one crowd a step, each stream queued behind all the others, on a server that is
 * compiling its request path again. With it, each step's reconnects are spread over half a step,
 * and none comes sooner than its step (so a server that takes a while to come back is given at
 * least the doubling's time). The web page and the CLI both wait this long.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_RECONNECT_STEP_MS, FIRST_RECONNECT_STEP_MS * 2 ** (Math.max(1, attempt) - 1));
  return Math.round(step + (step / 2) * random());
}
