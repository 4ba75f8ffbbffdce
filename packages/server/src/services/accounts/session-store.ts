import type { MikroORM } from '@mikro-orm/core';
import { preparedRows } from '../../db/plain-sql.js';
import { SessionRecord } from '../../entities/index.js';
import { hashKey } from './hash-key.js';

export interface SessionStoreOptions {
  /** A session unused this long is gone. */
  idleMs: number;
  /** A session older than this is gone, however active. */
  absoluteMs: number;
  /** The time in ms, as `Date.now()`; tests set it to move past a deadline without waiting for it. */
  now?: () => number;
}

type SessionData = Record<string, unknown> & { createdAt?: number; userId?: string };
/** A user's row as authentication reads it. */
export type UserRow = { id: string; username: string; plan: string; status: string };

/** A session's row with its user's, as the one statement reads it. */
type SessionReadRow = {
  data: string;
  created_at: Date | string;
  expires_at: Date | string;
  id: string | null;
  username: string;
  plan: string;
  status: string;
};

const READ_SESSION =
  'select s.data::text as data, s.created_at, s.expires_at, u.id, u.username, u.plan, u.status from sessions s left join users u on u.id = s.user_id where s.key_hash = ?';

/**
 * koa-session's external store, backed by the database so several server processes share
 * sessions and logout really ends a session. Keys are stored hashed.
 */
export class DatabaseSessionStore {
  private readonly now: () => number;

  constructor(
    private readonly orm: MikroORM,
    private readonly options: SessionStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The session and, read in the same statement, the row of the user it belongs to (null when that
   * account is gone): every signed-in request needs both, so each takes one query for them.
   */
  async getWithUser(key: string): Promise<{ session?: SessionData; user?: UserRow | null }> {
    const keyHash = hashKey(key);
    // A plain statement on the ORM's connection: no fork (an identity map nothing here would use)
    // on the path of every signed-in request.
    const [row] = await preparedRows<SessionReadRow>(this.orm.em, READ_SESSION, [keyHash]);
    if (!row) return {};
    const now = this.now();
    const createdAt = new Date(row.created_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || createdAt + this.options.absoluteMs <= now) {
      await this.orm.em.fork().nativeDelete(SessionRecord, { keyHash });
      return {};
    }
    const data = JSON.parse(row.data) as Record<string, unknown>;
    const user = row.id ? { id: row.id, username: row.username, plan: row.plan, status: row.status } : null;
    return { session: { ...data, createdAt }, user };
  }

  async set(key: string, data: SessionData): Promise<void> {
    const now = this.now();
    const createdAt = new Date(typeof data.createdAt === 'number' ? data.createdAt : now);
    // The idle deadline never passes the absolute one.
    const expiresAt = new Date(Math.min(now + this.options.idleMs, createdAt.getTime() + this.options.absoluteMs));
    const { createdAt: _omit, ...rest } = data;
    await this.orm.em.fork().upsert(SessionRecord, {
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
    return this.orm.em.fork().nativeDelete(SessionRecord, { expiresAt: { $lte: new Date(this.now()) } });
  }
}
