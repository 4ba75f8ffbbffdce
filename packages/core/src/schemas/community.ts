/**
 * Community payloads: showcase listings, PackCast capsules, referrals (companion §3, §4, §7).
 */
import { z } from 'zod';
import { verificationVerdict } from './verification.js';
import { booleanLike, cents, countLike, entityId, numberLike, timestamp } from './common.js';
import { checkoutReply } from './billing.js';
import { malformedReferralCodeMessage, normalizeReferralCode } from '../billing/referrals.js';

// ---------------------------------------------------------------------------------------------
// Showcase: GET /api/listings, GET /api/listings/{id}, POST /api/listings/{id}/purchase
// ---------------------------------------------------------------------------------------------

export const LISTINGS_PAGE_SIZE = 24;
export const LISTINGS_MAX_PAGE_SIZE = 100;

/** One query-string value: Koa gives a string, or an array when the key repeats (take the first). */
const firstValue = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const emptyToUndefined = (value: unknown): unknown => {
  const first = firstValue(value);
  return typeof first === 'string' && first.trim() === '' ? undefined : first;
};

/** GET /api/listings query string; values arrive as strings and are coerced. */
export const listingsQuery = z.object({
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(LISTINGS_MAX_PAGE_SIZE, 'limit must be at most 100')
      .default(LISTINGS_PAGE_SIZE),
  ),
  offset: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be zero or more').default(0),
  ),
  search: z.preprocess(emptyToUndefined, z.string().trim().max(200, 'search must be at most 200 characters').optional()),
  /** 'true': commercial listings only; 'false': free only; absent: all. */
  isCommercial: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  sortBy: z.preprocess(emptyToUndefined, z.enum(['createdAt', 'priceCents']).default('createdAt')),
  sortOrder: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc']).default('desc')),
});
export type ListingsQuery = z.infer<typeof listingsQuery>;

export const LISTING_VISIBILITIES = ['free', 'commercial'] as const;

export const listing = z.object({
  id: entityId,
  title: z.string(),
  summary: z.string(),
  coverImage: z.string().nullish(),
  visibility: z.enum(LISTING_VISIBILITIES),
  priceCents: cents,
  currency: z.string(),
  techStack: z.array(z.string()),
  tags: z.array(z.object({ tagName: z.string() })),
  demoUrl: z.string().nullish(),
  repoUrl: z.string().nullish(),
  promptOriginal: z.string().nullish(),
  promptEnhancedSnapshot: z.string().nullish(),
  /**
   * True when the listing is commercial and the viewer is neither its seller nor a buyer: the
   * prompts are what a buyer pays for, so they are left out (null) and come with the purchase.
   */
  promptsWithPurchase: z.boolean().optional(),
  createdAt: timestamp,
  /** How many files the listing's snapshot holds. */
  fileCount: countLike.optional(),
  /** The seller's display name (email local part), never the email. */
  sellerName: z.string().optional(),
  /** Only for a signed-in viewer: their own listing, and the project a purchase gave them. */
  isOwner: z.boolean().optional(),
  purchasedProjectId: z.string().nullish(),
});
export type Listing = z.infer<typeof listing>;
export type ListingJson = z.input<typeof listing>;

/** Cover uploads: a data URL of one of these types, at most this many bytes once decoded. */
export const COVER_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const COVER_IMAGE_MAX_BYTES = 1_000_000;
/** Cover uploads: at most this many pixels on a side (a 1 MB file cannot be a sharper cover). */
export const COVER_IMAGE_MAX_SIDE = 8_192;
/** A commercial listing costs at least $1. */
export const LISTING_MIN_PRICE_CENTS = 100;
export const LISTING_MAX_PRICE_CENTS = 1_000_000;
export const LISTING_MAX_TAGS = 10;
export const LISTING_MAX_TECH = 20;
/** The longest listing title; the draft cuts a longer first line of the idea to this. */
export const LISTING_TITLE_MAX_LENGTH = 120;
export const LISTING_SUMMARY_MAX_LENGTH = 2000;

/**
 * The sentence for a listing title or summary over its limit, the same in the form (as it is typed
 * or pasted: nothing is cut) and in the API's 400: the limit, and how long the text is.
 */
export function listingTextTooLong(field: 'title' | 'summary', length: number): string {
  const limit = field === 'title' ? LISTING_TITLE_MAX_LENGTH : LISTING_SUMMARY_MAX_LENGTH;
  return `The ${field} must be at most ${limit.toLocaleString('en-US')} characters; this one has ${length.toLocaleString('en-US')}.`;
}

const tooLong = (field: 'title' | 'summary') => ({ error: (issue: { input?: unknown }) => listingTextTooLong(field, typeof issue.input === 'string' ? issue.input.length : 0) });

const httpUrl = (field: string) =>
  z
    .string()
    .trim()
    .max(500, `${field} must be at most 500 characters`)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), `${field} must start with http:// or https://`);

const optionalUrl = (field: string) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), httpUrl(field).nullish());

const listingFields = {
  title: z.string({ error: 'Give the listing a title' }).trim().min(1, 'Give the listing a title').max(LISTING_TITLE_MAX_LENGTH, tooLong('title')),
  summary: z.string({ error: 'Give the listing a summary' }).trim().min(1, 'Give the listing a summary').max(LISTING_SUMMARY_MAX_LENGTH, tooLong('summary')),
  visibility: z.enum(LISTING_VISIBILITIES, { error: 'visibility must be "free" or "commercial"' }),
  priceCents: z.number({ error: 'priceCents must be a whole number of cents' }).int('priceCents must be a whole number of cents').min(0).max(LISTING_MAX_PRICE_CENTS, 'priceCents must be at most 1000000 ($10,000)').optional(),
  techStack: z.array(z.string().trim().min(1).max(40, 'Each tech stack entry must be at most 40 characters')).max(LISTING_MAX_TECH, 'At most 20 tech stack entries').optional(),
  tags: z.array(z.string().trim().min(1, 'Tags cannot be empty').max(30, 'Each tag must be at most 30 characters')).max(LISTING_MAX_TAGS, 'At most 10 tags').optional(),
  demoUrl: optionalUrl('demoUrl'),
  repoUrl: optionalUrl('repoUrl'),
  /** A data URL (data:image/png;base64,...) to upload, or null to use the generated cover. */
  coverImage: z.string().max(Math.ceil((COVER_IMAGE_MAX_BYTES * 4) / 3) + 100, 'The cover image must be at most 1 MB').nullish(),
};

const commercialNeedsPrice = (value: { visibility?: string; priceCents?: number | undefined }, ctx: z.RefinementCtx) => {
  if (value.visibility === 'commercial' && (value.priceCents === undefined || value.priceCents < LISTING_MIN_PRICE_CENTS)) {
    ctx.addIssue({ code: 'custom', path: ['priceCents'], message: 'A commercial listing needs a price of at least $1 (priceCents ≥ 100)' });
  }
};

/** POST /api/listings: list one of your projects (its files are snapshotted now). */
export const createListingRequest = z.object({ projectId: entityId, ...listingFields }).superRefine(commercialNeedsPrice);
export type CreateListingRequest = z.infer<typeof createListingRequest>;

/** PUT /api/listings/{id}: any subset of the fields (the owner only); the files stay as listed. */
export const updateListingRequest = z
  .object({ ...listingFields, title: listingFields.title.optional(), summary: listingFields.summary.optional(), visibility: listingFields.visibility.optional() })
  .superRefine(commercialNeedsPrice);
export type UpdateListingRequest = z.infer<typeof updateListingRequest>;

/** GET /api/listings/draft?projectId=: what the "List in Showcase" form starts from. */
export const listingDraftReply = z.object({
  draft: z.object({
    title: z.string(),
    summary: z.string(),
    techStack: z.array(z.string()),
    promptOriginal: z.string().nullable(),
    promptEnhancedSnapshot: z.string().nullable(),
    fileCount: countLike,
  }),
});
export type ListingDraftReply = z.infer<typeof listingDraftReply>;

/** POST /api/listings/{id}/purchase for a free listing (or one already bought): the buyer's copy. */
export const purchasedProjectReply = z.object({ projectId: entityId });

export const listingsReply = z.object({ listings: z.array(listing) });
export type ListingsReply = z.infer<typeof listingsReply>;

export const listingReply = z.object({ listing });
export type ListingReply = z.infer<typeof listingReply>;

/** The client shows `error`, or 'Purchase failed' when there is none. */
export const purchaseReply = z.union([checkoutReply, purchasedProjectReply, z.object({ error: z.string() })]);
export type PurchaseReply = z.infer<typeof purchaseReply>;

// ---------------------------------------------------------------------------------------------
// PackCast capsules: /api/capsules/...
// ---------------------------------------------------------------------------------------------

export const CAPSULE_EVENT_TYPES = [
  'prompt_received',
  'model_enhanced',
  'enhancement_selected',
  'code_refined',
  'session_complete',
] as const;
export type CapsuleEventType = (typeof CAPSULE_EVENT_TYPES)[number];

export const capsuleMetrics = z.object({
  /** Milliseconds. */
  totalDuration: countLike,
  totalTokens: countLike,
  /** Cents (shown as totalCost / 100 with 3 decimals, so it may be fractional). */
  totalCost: numberLike,
  /** Comma-separated model names. */
  modelVotes: z.string(),
  consensusScore: numberLike.pipe(z.number().min(0).max(1)),
  outputLength: countLike,
  /** Proven Code's verdict on the final code; absent from capsules recorded before it was kept. */
  verdict: verificationVerdict.optional(),
});
export type CapsuleMetrics = z.infer<typeof capsuleMetrics>;

export const capsule = z.object({
  id: entityId,
  slug: z.string(),
  shareSlug: z.string(),
  title: z.string(),
  projectName: z.string(),
  description: z.string().nullish(),
  originalPrompt: z.string(),
  enhancedPrompt: z.string().nullish(),
  finalCode: z.string().nullish(),
  viewCount: countLike,
  shareCount: countLike,
  createdAt: timestamp,
  /** Arrives as the string "true" or "false"; parsed to a boolean. */
  isPublic: booleanLike,
  metrics: capsuleMetrics.nullish(),
});
export type Capsule = z.infer<typeof capsule>;
export type CapsuleInput = z.input<typeof capsule>;

export const capsuleEvent = z.object({
  id: entityId,
  eventType: z.enum(CAPSULE_EVENT_TYPES),
  timestamp,
  data: z.looseObject({
    model: z.string().optional(),
    enhanced: z.union([z.boolean(), z.string()]).optional(),
    reason: z.string().optional(),
    iteration: countLike.optional(),
  }),
});
export type CapsuleEvent = z.infer<typeof capsuleEvent>;

/** GET /api/capsules/{slug} (public capsules only; private ones are not found). */
export const capsuleDetailReply = z.object({
  capsule,
  events: z.array(capsuleEvent),
  metrics: capsuleMetrics.nullable(),
  shareCount: countLike,
});
export type CapsuleDetailReply = z.infer<typeof capsuleDetailReply>;

/** GET /api/capsules/user/my-capsules, /api/capsules/discover/trending, /discover/latest */
export const capsulesReply = z.object({ capsules: z.array(capsule) });
export type CapsulesReply = z.infer<typeof capsulesReply>;

export const SHARE_METHODS = ['twitter', 'linkedin', 'copy'] as const;

/** A referral code as the client sends it; generated ones are 'WP' + 6 of A-Z 0-9 (REFERRAL_CODE_PATTERN). */
export const referralCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'Referral codes contain only letters, digits, hyphens and underscores');

/**
 * GET /api/referrals/code/{code}: a code of the referral form (any case), upper-cased as codes are
 * stored; any other is refused as malformed, naming it.
 */
export const referralCodeLookup = z.object({
  code: z
    .string('Send the referral code in the path: /api/referrals/code/WPXXXXXX.')
    .refine((code) => normalizeReferralCode(code) !== undefined, { error: (issue) => malformedReferralCodeMessage(String(issue.input)) })
    .transform((code) => normalizeReferralCode(code)!),
});
export type ReferralCodeLookup = z.infer<typeof referralCodeLookup>;

/** Whether the code belongs to an active account, so a sign-up with it credits somebody. */
export const referralCodeCheckReply = z.object({ valid: z.boolean() });
export type ReferralCodeCheckReply = z.infer<typeof referralCodeCheckReply>;

/** POST /api/capsules/{id}/share */
export const shareCapsuleRequest = z.object({
  shareMethod: z.enum(SHARE_METHODS, { error: 'Share through twitter, linkedin or copy' }),
  referralCode: referralCode.optional(),
});
export type ShareCapsuleRequest = z.infer<typeof shareCapsuleRequest>;

/** POST /api/capsules/{id}/publish: a real boolean here, unlike the capsule's isPublic. */
export const publishCapsuleRequest = z.object({ isPublic: z.boolean({ error: 'isPublic must be true or false (a JSON boolean, without quotes)' }) });
export type PublishCapsuleRequest = z.infer<typeof publishCapsuleRequest>;

// ---------------------------------------------------------------------------------------------
// Referrals: GET /api/subscription/status
// ---------------------------------------------------------------------------------------------

/** The client only reads referralCode; null when the user has none yet. */
export const subscriptionStatusReply = z.object({
  referralCode: z.string().nullable(),
  plan: z.string().optional(),
  status: z.string().optional(),
});
export type SubscriptionStatusReply = z.infer<typeof subscriptionStatusReply>;
