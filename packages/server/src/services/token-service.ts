import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { plainSql } from '../db/plain-sql.js';
import { ApiToken } from '../entities/index.js';
import { hashKey, randomSecret } from './hash-key.js';

/** Personal API tokens start with this, so a leaked one is recognisable (secret scanners). */
export const TOKEN_PREFIX = 'wpk_';

/** Personal API tokens: created at CLI login, shown once, kept only as a hash. */
export class TokenService {
  constructor(private readonly orm: MikroORM) {}

  async create(userId: string, name: string): Promise<{ id: string; token: string; name: string }> {
    const em = this.orm.em.fork();
    const token = randomSecret(TOKEN_PREFIX);
    const row = em.create(ApiToken, {
      id: randomUUID(),
      userId,
      name,
      tokenHash: hashKey(token),
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.flush();
    return { id: row.id, token, name };
  }

  /** The user id and token id a live token belongs to, or null. */
  async resolve(token: string): Promise<{ userId: string; tokenId: string } | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const em = this.orm.em.fork();
    // Every request of the CLI resolves its token: a plain statement, not an entity.
    const [row] = await plainSql(em).execute<Array<{ id: string; user_id: string; last_used_at: Date | string | null }>>(
      'select id, user_id, last_used_at from api_tokens where token_hash = ? and revoked_at is null',
      [hashKey(token)],
    );
    if (!row) return null;
    // Recording use is best effort and at most once a minute per token.
    if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
      await em.nativeUpdate(ApiToken, { id: row.id }, { lastUsedAt: new Date() });
    }
    return { userId: row.user_id, tokenId: row.id };
  }

  async revoke(tokenId: string, userId: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(ApiToken, { id: tokenId, userId, revokedAt: null }, { revokedAt: new Date() });
  }
}
