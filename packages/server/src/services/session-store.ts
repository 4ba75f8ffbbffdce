import type { MikroORM } from '@mikro-orm/core';
import { hotRead } from '../db/hot-read.js';
import { SessionRecord } from '../entities/index.js';
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

/**
 * koa-session's external store, backed by the database so several server processes share
 * sessions and logout really ends a session. Keys are stored hashed.
 */
export class DatabaseSessionStore {
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
    // A plain statement, not an entity; prepared on PostgreSQL.
    const [row] = await hotRead<{
      data: Record<string, unknown> | string;
      created_at: Date | string;
      expires_at: Date | string;
      id: string | null;
      username: string;
      plan: string;
      status: string;
      list_version: string | number | null;
    }>(
      this.orm,
      'select s.data, s.created_at, s.expires_at, u.id, u.username, u.plan, u.status, v.version as list_version from sessions s left join users u on u.id = s.user_id left join project_list_versions v on v.user_id = u.id where s.key_hash = ?',
      [keyHash],
    );
    if (!row) return {};
    const now = Date.now();
    const createdAt = new Date(row.created_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || createdAt + this.options.absoluteMs <= now) {
      await this.orm.em.fork().nativeDelete(SessionRecord, { keyHash });
      return {};
    }
    // json comes back parsed or as text, by driver.
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
    const user = row.id ? { id: row.id, username: row.username, plan: row.plan, status: row.status, projectListVersion: String(row.list_version ?? 0) } : null;
    return { session: { ...data, createdAt }, user };
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
