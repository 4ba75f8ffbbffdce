import { defineEntity, p } from '@mikro-orm/core';

/**
 * A Showcase listing. The `search` tsvector column the migration generates is not
 * mapped: queries that use it are written in SQL (ListingService).
 */
export const Listing = defineEntity({
  name: 'Listing',
  tableName: 'listings',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    projectId: p.uuid().nullable(),
    title: p.string().length(120),
    summary: p.text(),
    visibility: p.string().length(16).$type<'free' | 'commercial'>(),
    priceCents: p.integer().default(0),
    currency: p.string().length(3).default('usd'),
    techStack: p.json<string[]>(),
    tags: p.json<string[]>(),
    /** The tags joined by spaces, for the search column. */
    tagsText: p.text().default(''),
    demoUrl: p.string().length(500).nullable(),
    repoUrl: p.string().length(500).nullable(),
    promptOriginal: p.text().nullable(),
    promptEnhancedSnapshot: p.text().nullable(),
    fileCount: p.integer().default(0),
    /** An uploaded cover (sniffed PNG, JPEG, WebP or GIF); null: the generated SVG is served. */
    coverBytes: p.blob().nullable().lazy(),
    coverType: p.string().length(32).nullable(),
    coverVersion: p.integer().default(1),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});

/** One file of a listing's snapshot, as it was when the project was listed. */
export const ListingFile = defineEntity({
  name: 'ListingFile',
  tableName: 'listing_files',
  properties: {
    listingId: p.uuid().primary(),
    path: p.string().length(255).primary(),
    content: p.text().lazy(),
    size: p.integer(),
  },
});

/** A buyer's copy of a listing: at most one per buyer and listing. */
export const ListingPurchase = defineEntity({
  name: 'ListingPurchase',
  tableName: 'listing_purchases',
  properties: {
    id: p.uuid().primary(),
    listingId: p.uuid(),
    buyerId: p.uuid(),
    /** The buyer's project holding the copy (null if they deleted it). */
    projectId: p.uuid().nullable(),
    /** The Stripe Checkout Session that paid for it (commercial listings). */
    checkoutId: p.string().length(255).nullable().unique(),
    status: p.string().length(16).$type<'completed'>(),
    amountCents: p.integer().default(0),
    sellerId: p.uuid().nullable(),
    sellerCents: p.integer().default(0),
    /** When the seller's 'listing_sale' entry was posted (null: still to post). */
    proceedsPostedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});

/** Showcase entities. Every entity defined here goes in this list. */
export const listingEntities = [Listing, ListingFile, ListingPurchase] as const;
