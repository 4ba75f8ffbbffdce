import type { MikroORM } from '@mikro-orm/core';
import { SessionRecord } from '../entities/index.js';
import { hashKey } from './hash-key.js';

export interface SessionStoreOptions {
  /** A session unused this long is gone. */
  idleMs: number;
  /** A session older than this is gone, however active. */
  absoluteMs: number;
}

type SessionData = Record<string, unknown> & { createdAt?: number; userId?: string };

/**
 * koa-session's external store, backed by the database so several server processes share
 * sessions and logout really ends a session. Keys are stored hashed.
 */
export class DatabaseSessionStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly options: SessionStoreOptions,
  ) {}

  async get(key: string): Promise<SessionData | undefined> {
    const em = this.orm.em.fork();
    const row = await em.findOne(SessionRecord, { keyHash: hashKey(key) });
    if (!row) return undefined;
    const now = Date.now();
    if (row.expiresAt.getTime() <= now || row.createdAt.getTime() + this.options.absoluteMs <= now) {
      await em.nativeDelete(SessionRecord, { keyHash: row.keyHash });
      return undefined;
    }
    return { ...row.data, createdAt: row.createdAt.getTime() };
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
