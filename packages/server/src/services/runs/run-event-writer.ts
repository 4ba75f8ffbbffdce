import type { PipelineEvent } from '@wolfpack/core';
import { rowsWrite, sqlPart, type GatedWrite } from '../../db/one-statement.js';
import { isUniqueViolation, retryUnique } from '../../db/database-faults.js';

export type SqlAll = <T>(sql: string, params: unknown[]) => Promise<T[]>;
export type StoredEvent = { seq: number; event: PipelineEvent };

/** This process no longer owns the run: another one took it over. It must stop at once. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

const BATCH = 200;

/** Resolves after the I/O already due has been handled (setImmediate runs after the poll phase). */
export const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Write-behind for a run's events: `push` returns at once, so the pipeline never waits for an
 * insert; a background loop stores what accumulated, in order, one multi-row insert per batch, and
 * only then hands the batch on (to live subscribers and other servers). Clients therefore only
 * ever see stored events, and a process that dies loses at most what was not yet stored, which
 * is never before the last checkpoint: the checkpoint waits for {@link flush}.
 *
 * Each insert is fenced by the lease: it stores nothing unless this process still owns the run.
 */
export class RunEventWriter {
  private pending: StoredEvent[] = [];
  /** Events {@link takeHeld} took into a statement not yet known to have committed. */
  private unconfirmed: StoredEvent[] = [];
  private holding = false;
  private draining: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly sql: SqlAll,
    private readonly runId: string,
    private readonly instanceId: string,
    private readonly onStored: (batch: readonly StoredEvent[]) => void,
    /** Awaited before each batch is stored (when the thread is free for the database). */
    private readonly beforeStore: () => Promise<void> = yieldToIo,
    /**
     * How a batch is tried again while the database is unreachable (the run's RunDatabaseRetry):
     * the run's events must not be lost to a restart. Any other failure (a full disk) stops the
     * writer at once.
     */
    private readonly retry: <T>(write: () => Promise<T>) => Promise<T> = (write) => write(),
  ) {}

  push(seq: number, event: PipelineEvent): void {
    if (this.failure) throw this.failure;
    this.pending.push({ seq, event });
    if (!this.holding) this.draining ??= this.drain(false);
  }

  /**
   * From now on events wait for {@link flush} or {@link takeHeld} (the run's end stores its last
   * events with the project, in one statement).
   */
  hold(): void {
    this.holding = true;
  }

  /** Resolves once no batch is on its way (what is held stays pending). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining.catch(() => {});
  }

  /** What stopped the writer (a lost lease, a database gone too long or full), while it is stopped. */
  get stoppedBy(): Error | undefined {
    return this.failure;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /**
   * After a failure that was not a lost lease (the database stayed away too long), lets the run
   * still store its final error event. Answers false when this process no longer owns the run.
   */
  reset(): boolean {
    if (this.failure instanceof LeaseLostError) return false;
    this.failure = undefined;
    // A transaction that took events and then failed stored none of them: they go first again.
    this.pending.unshift(...this.unconfirmed);
    this.unconfirmed = [];
    return true;
  }

  /** Resolves once everything pushed so far is stored; throws what stopped the writer. */
  async flush(): Promise<void> {
    // A batch that started before hold() and stopped there leaves the rest to this flush.
    while (this.draining || (this.pending.length > 0 && !this.failure)) await (this.draining ??= this.drain(true));
    if (this.failure) throw this.failure;
  }

  /** `all`: stores what is pending even while held (a flush); otherwise a hold stops it. */
  private async drain(all: boolean): Promise<void> {
    try {
      // The run's own I/O (an engine request, an SSE write waiting on a corked socket) goes out
      // before the insert, which on PGlite runs on this very thread.
      await this.beforeStore();
      // Held meanwhile (the run ended while this batch waited): the events go with the run's end,
      // in its statement, instead of a statement of their own that the end would wait for.
      while (this.pending.length > 0 && (all || !this.holding)) {
        // Taken out before it is stored: takeHeld takes only what no batch has started on.
        const batch = this.pending.splice(0, BATCH);
        try {
          await this.store(batch);
        } catch (error) {
          // Kept, in order: a run stopped by a database that went away stores them once it is back (reset).
          this.pending.unshift(...batch);
          throw error;
        }
        this.onStored(batch);
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      this.draining = undefined;
    }
  }

  /**
   * Takes what is still pending and then `event` as number `seq`, as a write for the caller's
   * statement (the run's end: its last events are stored with the project, in one statement,
   * instead of a commit of their own first); {@link announce} hands them on once that statement
   * committed, {@link reset} puts them back first when it did not.
   */
  takeHeld(seq: number, event: PipelineEvent): { write: GatedWrite; batch: StoredEvent[] } {
    // The caller waited for idle() first: on PGlite a batch still on its way would wait for the
    // caller's very connection.
    if (this.draining) throw new Error('takeHeld: a batch is still being stored; await idle() first');
    if (this.failure) throw this.failure;
    const rest = this.pending.splice(0);
    this.unconfirmed = rest;
    const batch = [...rest, { seq, event }];
    return { write: eventsWrite(batch), batch };
  }

  announce(batch: readonly StoredEvent[]): void {
    this.unconfirmed = [];
    this.onStored(batch);
  }

  /** One fenced multi-row insert: nothing is stored unless this process still owns the run. */
  private async insert(batch: readonly StoredEvent[]): Promise<void> {
    const { text, params } = eventsWrite(batch)(sqlPart('(select id from conversations where id = ? and instance_id = ?)', [this.runId, this.instanceId]));
    const stored = await this.sql<{ seq: number }>(`${text} returning seq`, params);
    if (stored.length !== batch.length) throw new LeaseLostError(`run ${this.runId} is run by another server now`);
  }

  private async store(batch: readonly StoredEvent[]): Promise<void> {
    try {
      // A try whose commit went through unanswered leaves the next one its own rows: stored then.
      await retryUnique(this.retry, () => this.insert(batch), () => this.ownedHere());
    } catch (error) {
      // Those numbers are taken: another process stores this run's events now.
      if (isUniqueViolation(error)) throw new LeaseLostError(`run ${this.runId} is run by another server now`);
      throw error;
    }
  }

  /** Whether this process still owns the run (then the events numbered for it are its own). */
  private async ownedHere(): Promise<boolean> {
    const rows = await this.sql('select id from conversations where id = ? and instance_id = ?', [this.runId, this.instanceId]);
    return rows.length > 0;
  }
}

/** A batch of a run's events as one multi-row insert, stored only when `from` yields the run. */
function eventsWrite(batch: readonly StoredEvent[]): GatedWrite {
  return rowsWrite('run_events (conversation_id, seq, data, created_at)', 'c.id, x.seq, x.data, now()', [], 'seq int, data jsonb', batch.map(({ seq, event }) => ({ seq, data: event })));
}
