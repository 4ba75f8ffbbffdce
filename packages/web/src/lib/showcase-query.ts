/**
 * The Showcase's pure pieces (companion §2 Community Showcase, §3 Listing, §9): the sorts and the
 * remembered choice, the type filter, paging, the query string of GET /api/listings, prices and
 * the tech badges of a card.
 */
import { LISTINGS_PAGE_SIZE, type Listing } from '@wolfpack/core';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

/** Page size of /showcase (spec §9). */
export const SHOWCASE_PAGE_SIZE = LISTINGS_PAGE_SIZE;
/** Page size of the marketplace in the Outdoors Showcase tab (spec §9). */
export const OUTDOORS_PAGE_SIZE = 9;
/** Cards in the loading skeleton (spec §9). */
export const SKELETON_CARDS = 8;
/** Tech badges a card shows before "+N" (spec §9). */
export const MAX_TECH_BADGES = 3;

export const SHOWCASE_SORTS = ['newest', 'oldest', 'price-asc', 'price-desc'] as const;
export type ShowcaseSort = (typeof SHOWCASE_SORTS)[number];
export const DEFAULT_SHOWCASE_SORT: ShowcaseSort = 'newest';

export const SHOWCASE_SORT_LABELS: Record<ShowcaseSort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  'price-asc': 'Price: Low to High',
  'price-desc': 'Price: High to Low',
};

export function isShowcaseSort(value: unknown): value is ShowcaseSort {
  return typeof value === 'string' && (SHOWCASE_SORTS as readonly string[]).includes(value);
}

/** The remembered sort (spec §9 "sort preference remembered in browser storage"); unknown means newest. */
export const showcaseSortStore = createStoredValue<ShowcaseSort>(STORAGE_KEYS.showcaseSort, (raw) =>
  isShowcaseSort(raw) ? raw : DEFAULT_SHOWCASE_SORT,
);

/** The type filter; 'all' rather than an empty value, since a select item may not be empty (spec §5). */
export const LISTING_TYPES = ['all', 'free', 'commercial'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

export const LISTING_TYPE_LABELS: Record<ListingType, string> = {
  all: 'All types',
  free: 'Free',
  commercial: 'Commercial',
};

export function isListingType(value: unknown): value is ListingType {
  return typeof value === 'string' && (LISTING_TYPES as readonly string[]).includes(value);
}

/** What a marketplace view asks for. `page` counts from 1. */
export interface ListingsParams {
  search: string;
  type: ListingType;
  sort: ShowcaseSort;
  page: number;
  pageSize: number;
}

/** Offset of a page: (page - 1) × page size (spec §2), never negative. */
export function pageOffset(page: number, pageSize: number): number {
  return Math.max(0, Math.floor(page) - 1) * pageSize;
}

/** A page number from the URL: whole and at least 1; anything else is page 1. */
export function parsePage(raw: string | null): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** There may be a next page only when this one came back full (spec §2: Next disabled when fewer). */
export function hasNextPage(count: number, pageSize: number): boolean {
  return count >= pageSize;
}

/** The query string of GET /api/listings (spec §7), without empty parameters. */
export function listingsSearchParams(params: ListingsParams): URLSearchParams {
  const query = new URLSearchParams();
  query.set('limit', String(params.pageSize));
  query.set('offset', String(pageOffset(params.page, params.pageSize)));
  const search = params.search.trim();
  if (search) query.set('search', search);
  if (params.type !== 'all') query.set('isCommercial', params.type === 'commercial' ? 'true' : 'false');
  query.set('sortBy', params.sort === 'newest' || params.sort === 'oldest' ? 'createdAt' : 'priceCents');
  query.set('sortOrder', params.sort === 'newest' || params.sort === 'price-desc' ? 'desc' : 'asc');
  return query;
}

/** priceCents / 100 with 2 decimals (spec §3), e.g. 1999 -> "$19.99". */
export function formatListingPrice(priceCents: number): string {
  return `$${(priceCents / 100).toFixed(2)}`;
}

/** Free listings say FREE; commercial ones their price. */
export function listingPriceLabel(listing: Pick<Listing, 'visibility' | 'priceCents'>): string {
  return listing.visibility === 'free' ? 'FREE' : formatListingPrice(listing.priceCents);
}

/** The first badges of a card and how many more there are ("+N"). */
export function techBadges(techStack: readonly string[], max = MAX_TECH_BADGES): { shown: string[]; more: number } {
  return { shown: techStack.slice(0, max), more: Math.max(0, techStack.length - max) };
}
