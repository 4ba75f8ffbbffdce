import { defineEntity, p } from '@mikro-orm/core';

/**
 * A server-side session. The cookie carries the session key; only its SHA-256 is stored, so a
 * read of this table does not hand out live sessions.
 */
export const SessionRecord = defineEntity({
  name: 'SessionRecord',
  tableName: 'sessions',
  properties: {
    keyHash: p.string().length(64).primary(),
    data: p.json<Record<string, unknown>>(),
    userId: p.uuid().nullable().index(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
