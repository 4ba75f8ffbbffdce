import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, tokenExpired, tokenRefusalMessage, type ApiTokenSummary, type TokenRefusal } from '@wolfpack/core';
import { plainSql } from '../../db/plain-sql.js';
import { ApiToken } from '../../entities/index.js';
import { hashKey, randomSecret } from './hash-key.js';

/** Personal API tokens start with this, so a leaked one is recognisable (secret scanners). */
export const TOKEN_PREFIX = 'wpk_';

const DAY_MS = 86_400_000;

/** A live token's owner, or why the token was refused. */
export type TokenResolution = { userId: string; tokenId: string } | { refused: TokenRefusal; expiredAt?: Date };

interface TokenRow {
  id: string;
  user_id: string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  expires_at: Date | string | null;
}

/**
 * Personal API tokens: one made at each CLI login, and named ones for scripts and CI (Settings →
 * API tokens, `wolfpack tokens create`). Shown once, kept only as a hash.
 */
export class TokenService {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create(userId: string, name: string, expiresInDays?: number | null): Promise<{ id: string; token: string; name: string; summary: ApiTokenSummary }> {
    const em = this.orm.em.fork();
    const token = randomSecret(TOKEN_PREFIX);
    const now = this.clock();
    const row = em.create(ApiToken, {
      id: randomUUID(),
      userId,
      name,
      tokenHash: hashKey(token),
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: expiresInDays ? new Date(now.getTime() + expiresInDays * DAY_MS) : null,
    });
    await em.flush();
    return { id: row.id, token, name, summary: summaryOf(row, undefined) };
  }

  /** The user id and token id a live token belongs to, or which of unknown, revoked or expired it is. */
  async resolve(token: string): Promise<TokenResolution> {
    if (!token.startsWith(TOKEN_PREFIX)) return { refused: 'unknown' };
    const em = this.orm.em.fork();
    // Every request of the CLI resolves its token: a plain statement, not an entity.
    const [row] = await plainSql(em).execute<TokenRow[]>(
      'select id, user_id, last_used_at, revoked_at, expires_at from api_tokens where token_hash = ?',
      [hashKey(token)],
    );
    if (!row) return { refused: 'unknown' };
    if (row.revoked_at) return { refused: 'revoked' };
    const now = this.clock();
    const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
    if (tokenExpired(expiresAt, now)) return { refused: 'expired', expiredAt: expiresAt! };
    // Recording use is best effort and at most once a minute per token.
    if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > 60_000) {
      await em.nativeUpdate(ApiToken, { id: row.id }, { lastUsedAt: now });
    }
    return { userId: row.user_id, tokenId: row.id };
  }

  /** The user's tokens that are not revoked (expired ones too, marked by their date), newest first. */
  async list(userId: string, currentTokenId?: string): Promise<ApiTokenSummary[]> {
    const rows = await this.orm.em.fork().find(ApiToken, { userId, revokedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return rows.map((row) => summaryOf(row, currentTokenId));
  }

  async revoke(tokenId: string, userId: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(ApiToken, { id: tokenId, userId, revokedAt: null }, { revokedAt: this.clock() });
  }

  /** Revokes one of the user's tokens by id; another user's or an already revoked one is "not found". */
  async revokeOwn(tokenId: string, userId: string): Promise<void> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(tokenId);
    const changed = isUuid ? await this.orm.em.fork().nativeUpdate(ApiToken, { id: tokenId, userId, revokedAt: null }, { revokedAt: this.clock() }) : 0;
    if (changed === 0) throw new AppError('NOT_FOUND', 'There is no such API token. `wolfpack tokens list` shows yours with their ids.');
  }
}

/** The 401 sentence for a refused token. */
export function tokenRefusalError(resolution: { refused: TokenRefusal; expiredAt?: Date }): AppError {
  return new AppError('UNAUTHORIZED', tokenRefusalMessage(resolution.refused, resolution.expiredAt));
}

function summaryOf(row: { id: string; name: string; createdAt: Date; lastUsedAt?: Date | null; expiresAt?: Date | null }, currentTokenId: string | undefined): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    current: row.id === currentTokenId,
  };
}
