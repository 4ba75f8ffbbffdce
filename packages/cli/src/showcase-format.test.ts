import { capsule as capsuleSchema, listing as listingSchema, type CapsuleInput, type ListingJson } from '@wolfpack/core';
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CAPSULE_NOT_FOUND, findCapsule } from './commands/capsules.js';
import { listingLimit, pageNumber } from './commands/showcase.js';
import { UsageError } from './usage-error.js';
import { capsulesTable, capsulesTotals, capsuleUrl, listingPrice, listingsPath, listingsTable, nextPageHint, techSummary } from './showcase-format.js';

/** A listing as the server sends it (JSON), parsed the way the CLI parses replies. */
function listing(overrides: Partial<ListingJson>) {
  return listingSchema.parse({
    id: 'l-1',
    title: 'A listing',
    summary: 'Summary',
    visibility: 'free',
    priceCents: 0,
    currency: 'usd',
    techStack: [],
    tags: [],
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  });
}

function capsule(overrides: Partial<CapsuleInput>) {
  return capsuleSchema.parse({
    id: '0a1b2c3d-0000-4000-8000-000000000001',
    slug: 'habit-tracker-abcdefghijklmnop',
    shareSlug: 'habit-tracker-abcdefghijklmnop',
    title: 'Habit tracker',
    projectName: 'Habit tracker',
    originalPrompt: 'a habit tracker',
    viewCount: 0,
    shareCount: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    isPublic: 'false',
    ...overrides,
  });
}

describe('listingsPath', () => {
  const query = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);

  it('asks for page 1 of 24, newest first, by default', () => {
    expect(listingsPath({})).toBe('/api/listings?limit=24&offset=0&sortBy=createdAt&sortOrder=desc');
  });

  it('maps the four sorts, the type filter, the search and the page to the API’s parameters', () => {
    expect(query(listingsPath({ sort: 'oldest' }))).toMatchObject({ sortBy: 'createdAt', sortOrder: 'asc' });
    expect(query(listingsPath({ sort: 'price-asc' }))).toMatchObject({ sortBy: 'priceCents', sortOrder: 'asc' });
    expect(query(listingsPath({ sort: 'price-desc' }))).toMatchObject({ sortBy: 'priceCents', sortOrder: 'desc' });
    expect(query(listingsPath({ type: 'free' })).isCommercial).toBe('false');
    expect(query(listingsPath({ type: 'commercial' })).isCommercial).toBe('true');
    expect(query(listingsPath({})).isCommercial).toBeUndefined();
    expect(query(listingsPath({ search: '  todo & notes ' })).search).toBe('todo & notes');
    expect(query(listingsPath({ search: '   ' })).search).toBeUndefined();
    // Offset (page - 1) × page size, as the web pages page.
    expect(query(listingsPath({ page: 3, limit: 9 }))).toMatchObject({ limit: '9', offset: '18' });
  });
});

describe('listings table', () => {
  it('shows FREE or the price with 2 decimals', () => {
    expect(listingPrice({ visibility: 'free', priceCents: 0 })).toBe('FREE');
    expect(listingPrice({ visibility: 'commercial', priceCents: 1250 })).toBe('$12.50');
    expect(listingPrice({ visibility: 'commercial', priceCents: 100 })).toBe('$1.00');
  });

  it('shows at most 3 tech entries and +N for the rest', () => {
    expect(techSummary([])).toBe('');
    expect(techSummary(['React'])).toBe('React');
    expect(techSummary(['React', 'Vite', 'Zod'])).toBe('React, Vite, Zod');
    expect(techSummary(['React', 'Vite', 'Zod', 'Koa', 'Ink'])).toBe('React, Vite, Zod +2');
  });

  it('lines up id, title, price and tech; a title on several lines stays on one row', () => {
    const lines = listingsTable([
      listing({ id: 'abc', title: 'Todo app\nwith tags', techStack: ['React', 'Vite', 'Zod', 'Koa'] }),
      listing({ id: 'defghi', title: 'Pricey', visibility: 'commercial', priceCents: 4999, techStack: ['Go'] }),
    ]);
    expect(lines).toEqual([
      'ID      TITLE                PRICE  TECH',
      'abc     Todo app with tags    FREE  React, Vite, Zod +1',
      'defghi  Pricey              $49.99  Go',
    ]);
  });

  it('hints at the next page only after a full page', () => {
    expect(nextPageHint(24, {})).toBe('Page 1. The next 24 with --page 2.');
    expect(nextPageHint(5, { limit: 5, page: 2 })).toBe('Page 2. The next 5 with --page 3.');
    expect(nextPageHint(23, {})).toBeUndefined();
  });
});

describe('capsules table', () => {
  const server = 'http://127.0.0.1:3000';

  it('links each capsule by its slug on the server', () => {
    expect(capsuleUrl(server, { slug: 'a-b' })).toBe('http://127.0.0.1:3000/capsules/a-b');
    expect(capsuleUrl('https://wolfpack.example/', { slug: 'x y' })).toBe('https://wolfpack.example/capsules/x%20y');
  });

  it('reads isPublic from the API’s "true"/"false" strings; lines up the counts; totals like the My capsules page', () => {
    const capsules = [
      capsule({ isPublic: 'true', viewCount: 1200, shareCount: 3 }),
      capsule({ id: 'ffffffff-0000-4000-8000-000000000002', slug: 'todo-zzzzzzzzzzzz', title: 'Todo', isPublic: 'false', viewCount: '7', shareCount: 1 }),
    ];
    expect(capsules.map((c) => c.isPublic)).toEqual([true, false]);
    expect(capsulesTable(capsules, server)).toEqual([
      'ID        TITLE          VISIBILITY  VIEWS  SHARES  URL',
      '0a1b2c3d  Habit tracker  public      1,200       3  http://127.0.0.1:3000/capsules/habit-tracker-abcdefghijklmnop',
      'ffffffff  Todo           private         7       1  http://127.0.0.1:3000/capsules/todo-zzzzzzzzzzzz',
    ]);
    expect(capsulesTotals(capsules)).toBe('2 capsules (1 public, 1 private), 1207 views, 4 shares.');
    expect(capsulesTotals([capsules[1]!])).toBe('1 capsule (0 public, 1 private), 7 views, 1 share.');
  });
});

describe('findCapsule', () => {
  const capsules = [
    capsule({ id: '0a1b2c3d-0000-4000-8000-000000000001', slug: 'habit-tracker-ABCDEFGHIJKLMNOP' }),
    capsule({ id: '0a1b9999-0000-4000-8000-000000000002', slug: 'todo-zzzzzzzzzzzz', shareSlug: 'todo-zzzzzzzzzzzz' }),
  ];
  const id = (given: string) => findCapsule(capsules, given).id;

  it('takes the full id, its start, the slug or a pasted link', () => {
    expect(id('0a1b2c3d-0000-4000-8000-000000000001')).toBe(capsules[0]!.id);
    expect(id('0A1B2C3D')).toBe(capsules[0]!.id);
    expect(id('0a1b9')).toBe(capsules[1]!.id);
    expect(id('habit-tracker-abcdefghijklmnop')).toBe(capsules[0]!.id);
    expect(id('http://127.0.0.1:3000/capsules/todo-zzzzzzzzzzzz?ref=WPABC123')).toBe(capsules[1]!.id);
  });

  it('refuses an ambiguous start (usage), an unknown one (not found) and nothing', () => {
    expect(() => findCapsule(capsules, '0a1b')).toThrow(UsageError);
    expect(() => findCapsule(capsules, '0a1b')).toThrow(/start of 2 capsule ids/);
    expect(() => findCapsule(capsules, 'beef')).toThrow(CAPSULE_NOT_FOUND);
    expect(() => findCapsule(capsules, '  ')).toThrow(UsageError);
  });
});

describe('option values', () => {
  it('--limit takes 1 to 100, --page 1 or more', () => {
    expect(listingLimit('1')).toBe(1);
    expect(listingLimit(' 100')).toBe(100);
    for (const bad of ['0', '101', '2.5', 'ten', '']) expect(() => listingLimit(bad)).toThrow(InvalidArgumentError);
    expect(pageNumber('7')).toBe(7);
    for (const bad of ['0', '-1', 'x']) expect(() => pageNumber(bad)).toThrow(InvalidArgumentError);
  });
});
