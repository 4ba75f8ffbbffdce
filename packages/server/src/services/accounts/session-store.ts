import type { MikroORM } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { hotRead } from '../../db/hot-read.js';
import { SessionRecord } from '../../entities/index.js';
import { hashKey } from './hash-key.js';

export interface SessionStoreOptions {
  /** A session unused this long is gone. */
  idleMs: number;
  /** A session older than this is gone, however active. */
  absoluteMs: number;
}

type SessionData = Record<string, unknown> & { createdAt?: number; userId?: string };
/** A user's row as authentication reads it. */
export type UserRow = { id: string; username: string; plan: string; status: string };
/**
 * The user's row as the session's statement reads it, with the version of their project list
 * (migration 0015; '0' before their first project or folder), which keys the list's kept pages.
 */
export type SessionUserRow = UserRow & { projectListVersion: string };

/** A session's row with its user's, as the one statement reads it. */
type SessionReadRow = {
  key_hash: string;
  /** As text, so that each request sharing a row parses a copy of its own. */
  data: string;
  created_at: Date | string;
  expires_at: Date | string;
  id: string | null;
  username: string;
  plan: string;
  status: string;
  list_version: string | number | null;
};

/**
 * The most sessions one statement reads: 50 keep-alive clients gave batches of up to a few dozen a
 * turn of the event loop; the array parameter stays a few KB.
 */
const MAX_SESSIONS_A_READ = 64;
/**
 * Reads of sessions on their way to the database at once. Keys asked for while that many are out
 * wait for one to come back and then go together, in one statement: under a crowd of stream opens
 * (one request a turn) each open otherwise made a statement of its own, a quarter of its CPU in
 * the server and as much again in PostgreSQL, on the cores the crowd needs. A quiet server has
 * none out, and reads at once as before.
 */
const MAX_READS_IN_FLIGHT = 2;
/** The sessions' statement up to its key condition. */
const READ_SESSIONS =
  'select s.key_hash, s.data::text as data, s.created_at, s.expires_at, u.id, u.username, u.plan, u.status, v.version as list_version from sessions s left join users u on u.id = s.user_id left join project_list_versions v on v.user_id = u.id where s.key_hash';

/**
 * koa-session's external store, backed by the database so several server processes share
 * sessions and logout really ends a session. Keys are stored hashed.
 */
export class DatabaseSessionStore {
  /**
   * Sessions asked for in one turn of the event loop are read in one statement, run once the
   * turn's I/O callbacks are done (setImmediate). Each request still reads after it arrived, so a
   * sign-out committed before it counts; nothing is kept between turns (no cache). Under 50
   * keep-alive clients, each with a session of its own (pnpm bench projects, PostgreSQL), the
   * server then answered about 1.6 times the requests a second, at 90-100 µs of its CPU a request
   * against 142-157 and 5-10 µs of PostgreSQL's against 32-43. A server that keeps up reads one
   * key a turn, as before.
   */
  private readonly reads = new DataLoader<string, SessionReadRow | undefined>((hashes) => this.readMany(hashes), {
    cache: false,
    maxBatchSize: MAX_SESSIONS_A_READ,
    batchScheduleFn: (run) => this.schedule(run),
  });
  /** Reads out now, and batches waiting for one of them to come back (oldest first). */
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly orm: MikroORM,
    private readonly options: SessionStoreOptions,
  ) {}

  /**
   * The session and, read in the same statement, the row of the user it belongs to (null when that
   * account is gone): every signed-in request needs both, and one round trip instead of two is
   * taken off each of them.
   */
  async getWithUser(key: string): Promise<{ session?: SessionData; user?: SessionUserRow | null }> {
    const keyHash = hashKey(key);
    const row = await this.reads.load(keyHash);
    if (!row) return {};
    const now = Date.now();
    const createdAt = new Date(row.created_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || createdAt + this.options.absoluteMs <= now) {
      await this.orm.em.fork().nativeDelete(SessionRecord, { keyHash });
      return {};
    }
    const data = JSON.parse(row.data) as Record<string, unknown>;
    const user = row.id ? { id: row.id, username: row.username, plan: row.plan, status: row.status, projectListVersion: String(row.list_version ?? 0) } : null;
    return { session: { ...data, createdAt }, user };
  }

  /**
   * Runs a batch once the turn's I/O is done, or, with reads enough out, once one comes back.
   * Counted from here, not from the statement's start, so a full batch and the next one made in
   * the same turn cannot both pass the limit. Each batch run is one call of {@link readMany}.
   */
  private schedule(run: () => void): void {
    if (this.inFlight >= MAX_READS_IN_FLIGHT) {
      this.waiting.push(run);
      return;
    }
    this.inFlight++;
    setImmediate(run);
  }

  /** The rows of these sessions (hex SHA-256 hashes), in their order; undefined where there is none. */
  private async readMany(hashes: readonly string[]): Promise<Array<SessionReadRow | undefined>> {
    try {
      return await this.readRows(hashes);
    } finally {
      this.inFlight--;
      // Keys that arrived meanwhile have grown their batch: it goes now, after this turn's I/O.
      const next = this.waiting.shift();
      if (next) this.schedule(next);
    }
  }

  private async readRows(hashes: readonly string[]): Promise<Array<SessionReadRow | undefined>> {
    const unique = [...new Set(hashes)];
    // One key (a server that keeps up: most turns) by equality, as before; several as one text
    // parameter, an array literal, so one prepared statement serves any number of keys on
    // PostgreSQL and PGlite's ORM path, which inlines parameters, has nothing to expand (the hashes
    // are hex: nothing to quote). Not `any` for one key too: PostgreSQL plans a single-element
    // array anew at every execution (custom plans only), 215-240 µs a read against 147-179.
    const rows = await hotRead<SessionReadRow>(
      this.orm,
      unique.length === 1 ? `${READ_SESSIONS} = ?` : `${READ_SESSIONS} = any(?::text[])`,
      [unique.length === 1 ? unique[0] : `{${unique.join(',')}}`],
    );
    const byHash = new Map(rows.map((row) => [row.key_hash, row]));
    return hashes.map((hash) => byHash.get(hash));
  }

  async set(key: string, data: SessionData): Promise<void> {
    const em = this.orm.em.fork();
    const now = Date.now();
    const createdAt = new Date(typeof data.createdAt === 'number' ? data.createdAt : now);
    // The idle deadline never passes the absolute one.
    const expiresAt = new Date(Math.min(now + this.options.idleMs, createdAt.getTime() + this.options.absoluteMs));
    const { createdAt: _omit, ...rest } = data;
    await em.upsert(SessionRecord, {
      keyHash: hashKey(key),
      data: rest,
      userId: typeof data.userId === 'string' ? data.userId : null,
      createdAt,
      expiresAt,
    });
  }

  async destroy(key: string): Promise<void> {
    await this.orm.em.fork().nativeDelete(SessionRecord, { keyHash: hashKey(key) });
  }

  /** Removes expired rows; called now and then so the table does not grow without bound. */
  async sweep(): Promise<number> {
    return this.orm.em.fork().nativeDelete(SessionRecord, { expiresAt: { $lte: new Date() } });
  }
}
