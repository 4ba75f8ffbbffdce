import { backoffMs } from '@wolfpack/core';
import { databaseErrorText, isDatabaseUnreachable } from '../../db/database-faults.js';

/** The database stayed unreachable for longer than the run waits: the run stops, resumable. */
export class DatabaseGoneError extends Error {
  override readonly name = 'DatabaseGoneError';
}

/** What the run around it is told as an outage begins and ends. */
export interface OutageHooks {
  /** The first statement failed for want of the database: the run now waits for it. */
  onLost(reason: string): void;
  /** A statement succeeded again after `waitedMs` of waiting. */
  onBack(waitedMs: number): void;
}

/** Waits between tries (from 0): 100 ms doubling to 2 s, jittered, since every run of the server lost the same database. */
const retryWait = (attempt: number) => backoffMs(attempt + 1, { baseMs: 100, maxMs: 2000 });

/**
 * One run's patience with its database. Every write of the run (its events, its holds, its stage
 * commits, its end) goes through {@link attempt}: a failure that says the database is unreachable
 * is tried again with backoff, and the run goes on where it was once the database answers. The
 * window is the run's, not each statement's: it starts with the first failure of an outage (however
 * many statements wait at once) and ends with any success. Past it every waiting statement throws
 * {@link DatabaseGoneError}. Other failures (a wrong statement, a full disk) are thrown at once.
 */
export class RunDatabaseRetry {
  private since: number | undefined;

  constructor(
    readonly windowMs: number,
    private readonly hooks: OutageHooks,
    private readonly signal?: AbortSignal,
  ) {}

  /** Whether the database is unreachable right now, as far as the run has seen. */
  get waiting(): boolean {
    return this.since !== undefined;
  }

  async attempt<T>(write: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        const result = await write();
        if (this.since !== undefined) {
          const waited = Date.now() - this.since;
          this.since = undefined;
          this.hooks.onBack(waited);
        }
        return result;
      } catch (error) {
        if (!isDatabaseUnreachable(error)) throw error;
        if (this.since === undefined) {
          this.since = Date.now();
          this.hooks.onLost(databaseErrorText(error));
        }
        if (Date.now() - this.since >= this.windowMs) {
          throw new DatabaseGoneError(`The database stayed unreachable for ${describeWait(this.windowMs)}: ${databaseErrorText(error)}`, { cause: error });
        }
        if (this.signal?.aborted) throw error;
        const left = this.since + this.windowMs - Date.now();
        await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(retryWait(tries), left))));
      }
    }
  }
}

/**
 * A stopped run's last writes (holds given back, its status) tried again for a while (5 to 9 s):
 * the failure may be the database going away, and money must not stay held for a run that ended.
 */
export async function retryBriefly<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryWait(attempt)));
    }
  }
}

/** "2 minutes", "90 seconds", "1 minute", "5 seconds": how long, as a feed line says it. */
export function describeWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds >= 60 && seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
