import { defineEntity, p } from '@mikro-orm/core';

/**
 * A PackCast capsule: the recording of one completed run. Private until its owner
 * publishes it. The service reads and writes these tables with plain SQL (atomic counters,
 * ON CONFLICT); the entities keep the ORM's picture of the schema complete.
 */
export const Capsule = defineEntity({
  name: 'Capsule',
  tableName: 'capsules',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    /** Null for an njin iteration's capsule, which has no run. */
    conversationId: p.uuid().unique().nullable(),
    projectId: p.uuid().nullable(),
    slug: p.string().length(120).unique(),
    shareSlug: p.string().length(120),
    title: p.string().length(200),
    projectName: p.string().length(200),
    description: p.text().nullable(),
    originalPrompt: p.text(),
    enhancedPrompt: p.text().nullable(),
    finalCode: p.text().nullable().lazy(),
    isPublic: p.boolean().default(false),
    viewCount: p.integer().default(0),
    shareCount: p.integer().default(0),
    metrics: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    publishedAt: p.datetime().nullable(),
  },
});

/** One event of a capsule's timeline (prompt_received ... session_complete). */
export const CapsuleEventRow = defineEntity({
  name: 'CapsuleEventRow',
  tableName: 'capsule_events',
  properties: {
    id: p.uuid().primary(),
    capsuleId: p.uuid(),
    seq: p.integer(),
    eventType: p.string().length(32),
    timestamp: p.datetime(),
    data: p.json<Record<string, unknown>>(),
  },
});

/** A counted view: one row per viewer (hashed) per day, so the key itself dedupes (hourBucket holds the day's start). */
export const CapsuleView = defineEntity({
  name: 'CapsuleView',
  tableName: 'capsule_views',
  properties: {
    capsuleId: p.uuid().primary(),
    viewerKey: p.string().length(64).primary(),
    hourBucket: p.datetime().primary(),
    createdAt: p.datetime(),
  },
});

/** One share of a capsule (twitter, linkedin or copy), with the referral code it carried. */
export const CapsuleShare = defineEntity({
  name: 'CapsuleShare',
  tableName: 'capsule_shares',
  properties: {
    id: p.uuid().primary(),
    capsuleId: p.uuid(),
    userId: p.uuid().nullable(),
    /** Who shared (as for views): a share counts once per viewer and day. */
    viewerKey: p.string().length(128),
    method: p.string().length(16),
    referralCode: p.string().length(32).nullable(),
    /** Whether this share raised share_count (repeats within the day are logged, not counted). */
    counted: p.boolean(),
    createdAt: p.datetime(),
  },
});

/** The salt anonymous viewer keys are hashed with (one row, created on first use). */
export const CapsuleSecret = defineEntity({
  name: 'CapsuleSecret',
  tableName: 'capsule_secrets',
  properties: {
    id: p.integer().primary(),
    viewerSalt: p.string().length(128),
  },
});

/** PackCast capsule entities. Every entity defined here goes in this list. */
export const capsuleEntities = [Capsule, CapsuleEventRow, CapsuleView, CapsuleShare, CapsuleSecret] as const;
