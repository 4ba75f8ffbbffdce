import { defineEntity, p } from '@mikro-orm/core';

/** An account. `usernameKey` (lower-cased) makes "Alice" and "alice" the same name. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    username: p.string().length(64),
    usernameKey: p.string().length(64).unique(),
    passwordHash: p.text().hidden(),
    plan: p.string().length(32).default('Free'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** "WP" + 6 letters or digits, stable per user. */
    referralCode: p.string().length(16).nullable().unique(),
    /** Who referred this user at sign-up; set once, so the chain can never form a cycle. */
    referredBy: p.uuid().nullable(),
    /** 'active' or 'closed' (Cancel Account). */
    status: p.string().length(16).default('active'),
    closedAt: p.datetime().nullable(),
  },
});
