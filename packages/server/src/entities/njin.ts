import { defineEntity, p } from '@mikro-orm/core';

/** An njin API key: only the SHA-256 of the key is kept, and its first characters to list it by. */
export const NjinApiKey = defineEntity({
  name: 'NjinApiKey',
  tableName: 'njin_api_keys',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    usageCount: p.integer().default(0),
    /** The rate limit's token bucket: tokens left at rateUpdatedAt. */
    rateTokens: p.double(),
    rateUpdatedAt: p.datetime(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

/** A user's njin licence, kept in step with their Stripe subscription by its webhooks. */
export const NjinLicence = defineEntity({
  name: 'NjinLicence',
  tableName: 'njin_licences',
  properties: {
    userId: p.uuid().primary(),
    status: p.string().length(32),
    currentPeriodEnd: p.datetime().nullable(),
    stripeSubscriptionId: p.string().length(255).nullable().unique(),
    stripeCustomerId: p.string().length(255).nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    usageCount: p.integer().default(0),
    lastEventAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** njin entities. Every entity defined here goes in this list. */
export const njinEntities = [NjinApiKey, NjinLicence] as const;
