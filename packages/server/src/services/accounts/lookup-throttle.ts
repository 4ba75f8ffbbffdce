import { AppError } from '@wolfpack/core';

export interface LookupThrottleOptions {
  /** Lookups each client address may make per window. @default 30 */
  limit?: number;
  /** @default 60_000 (one minute) */
  windowMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** The 429's sentence. @default "Too many lookups from your address. Try again in N second(s)." */
  refusal?: (retryAfterSeconds: number) => string;
}

/** Clients tracked before windows that have ended are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * Bounds how often one client address may ask a public lookup that answers yes or no about a
 * guessable value (is this referral code known?), so the answers cannot be harvested by trying
 * codes one after another; also how often it may create accounts. Kept in memory like the admin secret's throttle: nothing about it is
 * worth keeping across a restart, and several servers each count their own lookups.
 */
export class LookupThrottle {
  private readonly recent = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly refusal: (retryAfterSeconds: number) => string;

  constructor(options: LookupThrottleOptions = {}) {
    this.limit = options.limit ?? 30;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.refusal = options.refusal ?? ((seconds) => `Too many lookups from your address. Try again in ${seconds} second(s).`);
  }

  /** Counts one lookup of `client`; throws 429 (with when to retry) past the limit. */
  take(client: string): void {
    const now = this.now();
    const times = (this.recent.get(client) ?? []).filter((at) => now - at < this.windowMs);
    if (times.length >= this.limit) {
      this.recent.set(client, times);
      const retryAfterSeconds = Math.max(1, Math.ceil((times[0]! + this.windowMs - now) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', this.refusal(retryAfterSeconds), { retryAfterSeconds });
    }
    times.push(now);
    this.recent.set(client, times);
    if (this.recent.size > PRUNE_ABOVE) this.prune(now);
  }

  private prune(now: number): void {
    for (const [client, times] of this.recent) {
      if (times.every((at) => now - at >= this.windowMs)) this.recent.delete(client);
    }
  }
}
