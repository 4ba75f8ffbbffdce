import { describe, expect, it } from 'vitest';
import {
  formatListingPrice,
  hasNextPage,
  isListingType,
  isShowcaseSort,
  listingPriceLabel,
  listingsSearchParams,
  OUTDOORS_PAGE_SIZE,
  pageOffset,
  parsePage,
  SHOWCASE_PAGE_SIZE,
  SHOWCASE_SORTS,
  techBadges,
  type ListingsParams,
} from './showcase-query';

const base: ListingsParams = { search: '', type: 'all', sort: 'newest', page: 1, pageSize: SHOWCASE_PAGE_SIZE };
const query = (patch: Partial<ListingsParams>) => Object.fromEntries(listingsSearchParams({ ...base, ...patch }));

describe('showcase query', () => {
  it('uses 24 a page on /showcase and 9 in Outdoors, offset (page - 1) × size', () => {
    expect(SHOWCASE_PAGE_SIZE).toBe(24);
    expect(OUTDOORS_PAGE_SIZE).toBe(9);
    expect(pageOffset(1, 9)).toBe(0);
    expect(pageOffset(2, 9)).toBe(9);
    expect(pageOffset(3, 24)).toBe(48);
    expect(pageOffset(0, 24)).toBe(0);
  });

  it('enables Next only for a full page', () => {
    expect(hasNextPage(24, 24)).toBe(true);
    expect(hasNextPage(23, 24)).toBe(false);
    expect(hasNextPage(0, 9)).toBe(false);
  });

  it('reads pages from the URL, falling back to 1', () => {
    expect(parsePage('3')).toBe(3);
    for (const raw of [null, '', '0', '-2', '1.5', 'abc']) expect(parsePage(raw)).toBe(1);
  });

  it('maps the four sorts to sortBy and sortOrder', () => {
    expect(SHOWCASE_SORTS).toEqual(['newest', 'oldest', 'price-asc', 'price-desc']);
    expect(query({ sort: 'newest' })).toMatchObject({ sortBy: 'createdAt', sortOrder: 'desc' });
    expect(query({ sort: 'oldest' })).toMatchObject({ sortBy: 'createdAt', sortOrder: 'asc' });
    expect(query({ sort: 'price-asc' })).toMatchObject({ sortBy: 'priceCents', sortOrder: 'asc' });
    expect(query({ sort: 'price-desc' })).toMatchObject({ sortBy: 'priceCents', sortOrder: 'desc' });
    expect(isShowcaseSort('price-asc')).toBe(true);
    expect(isShowcaseSort('')).toBe(false);
  });

  it('sends isCommercial only for a type, search only when non-blank, limit and offset always', () => {
    expect(query({})).toEqual({ limit: '24', offset: '0', sortBy: 'createdAt', sortOrder: 'desc' });
    expect(query({ type: 'free' }).isCommercial).toBe('false');
    expect(query({ type: 'commercial' }).isCommercial).toBe('true');
    expect(query({ search: '  snake game ' }).search).toBe('snake game');
    expect(query({ search: '   ' }).search).toBeUndefined();
    expect(query({ page: 2, pageSize: 9 })).toMatchObject({ limit: '9', offset: '9' });
  });

  it('never uses an empty value for the type filter', () => {
    expect(isListingType('all')).toBe(true);
    expect(isListingType('')).toBe(false);
  });

  it('shows priceCents / 100 with 2 decimals, or FREE', () => {
    expect(formatListingPrice(1999)).toBe('$19.99');
    expect(formatListingPrice(100)).toBe('$1.00');
    expect(listingPriceLabel({ visibility: 'commercial', priceCents: 2500 })).toBe('$25.00');
    expect(listingPriceLabel({ visibility: 'free', priceCents: 0 })).toBe('FREE');
  });

  it('shows at most 3 tech badges and counts the rest', () => {
    expect(techBadges(['React', 'Vite', 'Tailwind', 'Zod', 'Koa'])).toEqual({ shown: ['React', 'Vite', 'Tailwind'], more: 2 });
    expect(techBadges(['React', 'Vite', 'Tailwind'])).toEqual({ shown: ['React', 'Vite', 'Tailwind'], more: 0 });
    expect(techBadges([])).toEqual({ shown: [], more: 0 });
  });
});
