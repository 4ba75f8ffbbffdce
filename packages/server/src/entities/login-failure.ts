import { defineEntity, p } from '@mikro-orm/core';

/** One failed sign-in, kept for the per-username throttle window. */
export const LoginFailure = defineEntity({
  name: 'LoginFailure',
  tableName: 'login_failures',
  properties: {
    id: p.bigint().primary().autoincrement(),
    usernameKey: p.string().length(64),
    failedAt: p.datetime(),
  },
  indexes: [{ properties: ['usernameKey', 'failedAt'] }],
});
