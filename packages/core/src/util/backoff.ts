/**
 * The wait before retry number `attempt` (from 1): `baseMs` doubling per attempt up to `maxMs`,
 * then between half of that and all of it at random ("equal jitter"), so that many clients that
 * lost the same server do not all come back at the same instant. Every retry loop in Wolfpack
 * (engine calls, a run's database writes, the run clients' reconnects, the PostgreSQL listener)
 * waits through this one function.
 */
export interface BackoffOptions {
  /** The first wait, before any jitter. */
  baseMs: number;
  /** The longest wait, before any jitter. */
  maxMs: number;
  /** A number in [0, 1); tests pass a constant. @default Math.random */
  random?: () => number;
}

export function backoffMs(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
