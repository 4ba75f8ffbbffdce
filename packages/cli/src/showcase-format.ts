/**
 * Text formats of `wolfpack showcase` and `wolfpack capsules`: the listing query, the tables and
 * capsule URLs. Pure, so the spec's rules (price or FREE, at most 3 tech badges plus +N, the
 * four sorts) are unit-tested without a server.
 */
import { formatCents, type Capsule, type Listing } from '@wolfpack/core';
import { formatTable, plural, truncate } from './format.js';
import { shortId } from './resources.js';

import { SHOWCASE_PAGE_SIZE, type ShowcaseSort } from './command-options.js';

export { SHOWCASE_MAX_PAGE_SIZE, SHOWCASE_PAGE_SIZE, SHOWCASE_SORTS, type ShowcaseSort } from './command-options.js';
/** Tech badges a card shows before "+N" (companion §2). */
export const SHOWN_TECH = 3;

/** The web page's empty state, word for word (companion §8). */
export const NO_LISTINGS = 'No projects found. Try adjusting your filters.';

const TITLE_WIDTH = 50;

export interface ListingsFilter {
  search?: string | undefined;
  /** 'free' or 'commercial' only; all without. */
  type?: 'free' | 'commercial' | undefined;
  sort?: ShowcaseSort | undefined;
  /** 1 to 100. @default SHOWCASE_PAGE_SIZE */
  limit?: number | undefined;
  /** From 1; the offset is (page - 1) × limit, as the web pages page. @default 1 */
  page?: number | undefined;
}

const SORT_QUERY: Record<ShowcaseSort, { sortBy: 'createdAt' | 'priceCents'; sortOrder: 'asc' | 'desc' }> = {
  newest: { sortBy: 'createdAt', sortOrder: 'desc' },
  oldest: { sortBy: 'createdAt', sortOrder: 'asc' },
  'price-asc': { sortBy: 'priceCents', sortOrder: 'asc' },
  'price-desc': { sortBy: 'priceCents', sortOrder: 'desc' },
};

/** GET /api/listings?… for the filter; parameters left out take the server's defaults. */
export function listingsPath(filter: ListingsFilter): string {
  const limit = filter.limit ?? SHOWCASE_PAGE_SIZE;
  const page = filter.page ?? 1;
  const params = new URLSearchParams({ limit: String(limit), offset: String((page - 1) * limit) });
  const search = filter.search?.trim();
  if (search) params.set('search', search);
  if (filter.type !== undefined) params.set('isCommercial', String(filter.type === 'commercial'));
  const { sortBy, sortOrder } = SORT_QUERY[filter.sort ?? 'newest'];
  params.set('sortBy', sortBy);
  params.set('sortOrder', sortOrder);
  return `/api/listings?${params.toString()}`;
}

/** "FREE", or the price as priceCents / 100 with 2 decimals: "$12.50". */
export function listingPrice(listing: Pick<Listing, 'visibility' | 'priceCents'>): string {
  return listing.visibility === 'free' ? 'FREE' : formatCents(listing.priceCents);
}

/** The first 3 entries and "+N" for the rest: "React, Vite, Zod +2". */
export function techSummary(techStack: readonly string[], shown = SHOWN_TECH): string {
  const head = techStack.slice(0, shown).join(', ');
  const rest = techStack.length - shown;
  return rest > 0 ? `${head} +${rest}` : head;
}

/**
 * The listings table: the full id (`showcase get` takes the start of one too, but finding it
 * means reading the whole showcase), title, price or FREE, and the tech summary.
 */
export function listingsTable(listings: readonly Listing[]): string[] {
  const rows = listings.map((l) => [l.id, truncate(oneLine(l.title), TITLE_WIDTH), listingPrice(l), techSummary(l.techStack)]);
  return formatTable([{ header: 'ID' }, { header: 'TITLE' }, { header: 'PRICE', align: 'right' }, { header: 'TECH' }], rows);
}

/** The line under a full page: there may be more. */
export function nextPageHint(count: number, filter: Pick<ListingsFilter, 'limit' | 'page'>): string | undefined {
  const limit = filter.limit ?? SHOWCASE_PAGE_SIZE;
  const page = filter.page ?? 1;
  // As on the web page: fewer than a page means this was the last one.
  return count < limit ? undefined : `Page ${page}. The next ${limit} with --page ${page + 1}.`;
}

/** Where a capsule is opened in a browser: the server serves the web app, /capsules/{slug}. */
export function capsuleUrl(server: string, capsule: Pick<Capsule, 'slug'>): string {
  return `${server.replace(/\/+$/, '')}/capsules/${encodeURIComponent(capsule.slug)}`;
}

/** The capsules table: short id, title, public/private, views, shares and the link. */
export function capsulesTable(capsules: readonly Capsule[], server: string): string[] {
  const rows = capsules.map((c) => [
    shortId(c.id),
    truncate(oneLine(c.title), TITLE_WIDTH),
    c.isPublic ? 'public' : 'private',
    c.viewCount.toLocaleString('en-US'),
    c.shareCount.toLocaleString('en-US'),
    capsuleUrl(server, c),
  ]);
  return formatTable(
    [{ header: 'ID' }, { header: 'TITLE' }, { header: 'VISIBILITY' }, { header: 'VIEWS', align: 'right' }, { header: 'SHARES', align: 'right' }, { header: 'URL' }],
    rows,
  );
}

/** The My capsules page's totals in a line: "3 capsules (1 public, 2 private), 12 views, 1 share." */
export function capsulesTotals(capsules: readonly Capsule[]): string {
  const publicCount = capsules.filter((c) => c.isPublic).length;
  const views = capsules.reduce((sum, c) => sum + c.viewCount, 0);
  const shares = capsules.reduce((sum, c) => sum + c.shareCount, 0);
  return `${plural(capsules.length, 'capsule')} (${publicCount} public, ${capsules.length - publicCount} private), ${plural(views, 'view')}, ${plural(shares, 'share')}.`;
}

/** Titles come from ideas and may hold line breaks, which would break a table row. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
