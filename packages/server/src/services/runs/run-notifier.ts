import pg from 'pg';
import { backoffMs } from '@wolfpack/core';
import type { Logger } from '../../logger.js';

/** The PostgreSQL channel on which a process says "run X has new stored events or a new status". */
export const RUN_CHANNEL = 'wolfpack_runs';
/** What listeners get when the connection came back: anything may have changed meanwhile. */
export const ANY_RUN = '*';

/**
 * Tells the other server processes on the same PostgreSQL that a run changed, and tells this
 * process what the others said. On PGlite there are no others (one process owns its data
 * directory), so {@link localRunNotifier} does nothing and the in-process hub is enough.
 */
export interface RunNotifier {
  /** Starts listening (resolves even when the first connection fails: it keeps trying). */
  start(): Promise<void>;
  /** `runId`, or {@link ANY_RUN} after a reconnect. */
  subscribe(listener: (runId: string) => void): () => void;
  /** After the change is committed. Never throws: a lost notice costs a follower one poll interval. */
  notify(runId: string): Promise<void>;
  close(): Promise<void>;
  /** Followers of other processes' runs look at the database this often anyway (a missed notice). */
  readonly fallbackPollMs: number;
}

export const localRunNotifier = (pollMs: number): RunNotifier => ({
  start: async () => {},
  subscribe: () => () => {},
  notify: async () => {},
  close: async () => {},
  fallbackPollMs: pollMs,
});

type Execute = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * LISTEN on a connection of its own (a pooled connection would be handed to queries and lose the
 * subscription); NOTIFY through the ORM's pool. When the listening connection breaks (PostgreSQL
 * restarted, a proxy cut it), it reconnects with backoff and wakes every listener, because notices
 * sent meanwhile are gone.
 */
export class PostgresRunNotifier implements RunNotifier {
  private readonly listeners = new Set<(runId: string) => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly connectionString: string,
    private readonly execute: Execute,
    private readonly log: Logger,
    readonly fallbackPollMs = 5000,
  ) {}

  /** Connects once; if that fails the server still starts and keeps trying in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  subscribe(listener: (runId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async notify(runId: string): Promise<void> {
    try {
      await this.execute('select pg_notify(?, ?)', [RUN_CHANNEL, runId]);
    } catch (error) {
      this.log.warn(`run ${runId}: could not notify other servers`, error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    // end() on a connection the server already cut can wait for ever: give it a second.
    await Promise.race([client?.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }

  private emit(runId: string): void {
    for (const listener of this.listeners) listener(runId);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'wolfpack-run-listener' });
    // Without a listener an 'error' (the server went away) would crash the process.
    client.on('error', () => undefined);
    client.on('notification', (message) => {
      if (message.channel === RUN_CHANNEL && message.payload) this.emit(message.payload);
    });
    client.on('end', () => {
      if (this.client !== client || this.closed) return;
      this.client = undefined;
      this.log.warn('lost the PostgreSQL connection that listens for runs of other servers; reconnecting');
      this.scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${RUN_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      if (this.failures === 0) this.log.warn('cannot listen for runs of other servers yet; retrying', error);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) this.log.info('listening for runs of other servers again');
    this.failures = 0;
    this.emit(ANY_RUN);
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.failures += 1;
    // 200 ms doubling to 5 s, jittered: every server on it lost the same PostgreSQL.
    const delay = backoffMs(this.failures + 1, { baseMs: 100, maxMs: 5000 });
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }
}
