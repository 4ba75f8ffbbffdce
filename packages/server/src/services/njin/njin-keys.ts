import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, generateNjinApiKey, isWellFormedNjinApiKey, njinKeyPrefix, type NjinKeySummary } from '@wolfpack/core';
import { hashKey } from '../accounts/hash-key.js';
import type { Sql } from '../../db/plain-sql.js';
import { isUuid } from '../projects/project-service.js';

/** The same answer for a missing key and someone else's: no existence leak. */
export const NJIN_KEY_NOT_FOUND = 'This API key does not exist or was already revoked.';

/** Per key: a burst of this many iterations, refilled at this many per minute. */
export const NJIN_RATE_LIMIT_PER_MINUTE = 10;

/** Live njin keys per user when the operator sets no WOLFPACK_NJIN_KEYS_PER_USER. */
export const NJIN_DEFAULT_KEYS_PER_USER = 10;

/** The 409 of a key past the limit: how many, and what to do. */
export function njinKeyLimitMessage(max: number): string {
  return `You already have ${max} active API ${max === 1 ? 'key' : 'keys'}, the most one account can hold. Revoke a key you no longer use, then create a new one.`;
}

export interface ResolvedNjinKey {
  keyId: string;
  userId: string;
}

interface KeyRow {
  id: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  usage_count: number | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * njin API keys: issued once, kept only as a SHA-256 with a short prefix to list them by, revoked
 * by their owner, and each with a token bucket (in the database, so the limit holds across
 * server processes) for the rate limit.
 */
export class NjinKeys {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date,
    /** Live keys one user may hold: each has its own rate limit, so more keys would multiply it. */
    private readonly maxKeysPerUser = NJIN_DEFAULT_KEYS_PER_USER,
  ) {}

  /**
   * A new key, unless the user already holds the most allowed (409 saying how many and what to
   * do). The user's row is locked first, so parallel requests are counted one after another and
   * cannot together pass the limit.
   */
  async create(userId: string): Promise<{ apiKey: string; id: string; prefix: string; createdAt: string }> {
    const apiKey = generateNjinApiKey();
    const id = randomUUID();
    const now = this.clock();
    await this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      await sql.execute('select id from users where id = ? for update', [userId]);
      const [held] = await sql.execute<Array<{ n: number | string }>>('select count(*) as n from njin_api_keys where user_id = ? and revoked_at is null', [userId]);
      if (Number(held?.n ?? 0) >= this.maxKeysPerUser) throw new AppError('CONFLICT', njinKeyLimitMessage(this.maxKeysPerUser));
      await sql.execute(
        `insert into njin_api_keys (id, user_id, prefix, key_hash, usage_count, rate_tokens, rate_updated_at, created_at, last_used_at, revoked_at)
         values (?, ?, ?, ?, 0, ?, ?, ?, null, null)`,
        [id, userId, njinKeyPrefix(apiKey), hashKey(apiKey), NJIN_RATE_LIMIT_PER_MINUTE, now, now],
      );
    });
    return { apiKey, id, prefix: njinKeyPrefix(apiKey), createdAt: now.toISOString() };
  }

  /** The user's live keys, newest first. */
  async list(userId: string): Promise<NjinKeySummary[]> {
    const rows = await this.sql().execute<KeyRow[]>(
      'select id, prefix, created_at, last_used_at, usage_count from njin_api_keys where user_id = ? and revoked_at is null order by created_at desc, id',
      [userId],
    );
    return rows.map((r) => ({ id: r.id, prefix: r.prefix, createdAt: iso(r.created_at), lastUsedAt: r.last_used_at === null ? null : iso(r.last_used_at), usageCount: Number(r.usage_count) }));
  }

  /** The prefix of the user's newest live key, or null. */
  async newestPrefix(userId: string): Promise<string | null> {
    const rows = await this.sql().execute<Array<{ prefix: string }>>(
      'select prefix from njin_api_keys where user_id = ? and revoked_at is null order by created_at desc, id limit 1',
      [userId],
    );
    return rows[0]?.prefix ?? null;
  }

  /** Revokes one of the user's own keys; anyone else's, or an unknown id, is a 404. */
  async revoke(userId: string, keyId: string): Promise<void> {
    if (!isUuid(keyId)) throw new AppError('NOT_FOUND', NJIN_KEY_NOT_FOUND);
    const rows = await this.sql().execute<Array<{ id: string }>>(
      'update njin_api_keys set revoked_at = ? where id = ? and user_id = ? and revoked_at is null returning id',
      [this.clock(), keyId, userId],
    );
    if (rows.length === 0) throw new AppError('NOT_FOUND', NJIN_KEY_NOT_FOUND);
  }

  /**
   * The live key behind `apiKey`, or null. The checksum is checked first, so a typo (or a string
   * that was never a key) costs no database lookup.
   */
  async resolve(apiKey: string): Promise<ResolvedNjinKey | null> {
    if (!isWellFormedNjinApiKey(apiKey)) return null;
    const rows = await this.sql().execute<Array<{ id: string; user_id: string }>>(
      'select id, user_id from njin_api_keys where key_hash = ? and revoked_at is null',
      [hashKey(apiKey)],
    );
    const row = rows[0];
    return row ? { keyId: row.id, userId: row.user_id } : null;
  }

  /**
   * Takes one token from the key's bucket in a single atomic update (the refill is computed from
   * the time since the last take), or throws a 429 that says when to retry.
   */
  async takeToken(keyId: string): Promise<void> {
    const now = this.clock();
    const perSecond = NJIN_RATE_LIMIT_PER_MINUTE / 60;
    const refilled = `least(${NJIN_RATE_LIMIT_PER_MINUTE}, rate_tokens + greatest(0, extract(epoch from (cast(? as timestamptz) - rate_updated_at))) * ${perSecond})`;
    const em = this.sql();
    const taken = await em.execute<Array<{ id: string }>>(
      `update njin_api_keys set rate_tokens = ${refilled} - 1, rate_updated_at = greatest(rate_updated_at, cast(? as timestamptz))
       where id = ? and ${refilled} >= 1 returning id`,
      [now, now, keyId, now],
    );
    if (taken.length > 0) return;
    const rows = await em.execute<Array<{ tokens: number | string }>>(`select ${refilled} as tokens from njin_api_keys where id = ?`, [now, keyId]);
    const missing = 1 - Number(rows[0]?.tokens ?? 0);
    const retryAfterSeconds = Math.max(1, Math.ceil(missing / perSecond));
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `This API key made more than ${NJIN_RATE_LIMIT_PER_MINUTE} iterations in a minute. Wait ${retryAfterSeconds} s and try again.`,
      { retryAfterSeconds },
    );
  }

  /** Counts one iteration on the key, inside the caller's transaction. */
  async countUse(em: Sql, keyId: string): Promise<void> {
    await em.execute('update njin_api_keys set usage_count = usage_count + 1, last_used_at = ? where id = ?', [this.clock(), keyId]);
  }

  private sql(): Sql {
    return this.orm.em.fork() as Sql;
  }
}
