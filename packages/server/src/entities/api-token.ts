import { defineEntity, p } from '@mikro-orm/core';

/** A personal API token for the CLI and scripts. Only the SHA-256 of the token is kept. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    name: p.string().length(100),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /** Null: never expires (the CLI's login tokens, and named tokens made without an expiry). */
    expiresAt: p.datetime().nullable(),
  },
});
