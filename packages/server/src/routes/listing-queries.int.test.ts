import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingsReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

interface Seed {
  key: string;
  title: string;
  summary: string;
  visibility: 'free' | 'commercial';
  priceCents: number;
  minute: number;
  tags: string[];
  deleted?: boolean;
}

/** Ties on purpose: B and C share a time and a price, E and G a time, A and D a price. */
const SEEDS: Seed[] = [
  { key: 'A', title: 'Todo App', summary: 'Tasks and reminders', visibility: 'free', priceCents: 0, minute: 1, tags: ['productivity'] },
  { key: 'B', title: 'Weather Board', summary: 'Forecasts with charts', visibility: 'commercial', priceCents: 500, minute: 2, tags: ['AI', 'Data'] },
  { key: 'C', title: 'Chess Clock', summary: 'Timer for games', visibility: 'commercial', priceCents: 500, minute: 2, tags: [] },
  { key: 'D', title: 'Recipe Book', summary: 'Cook with todo lists', visibility: 'free', priceCents: 0, minute: 3, tags: ['food'] },
  { key: 'E', title: 'Pixel Editor', summary: 'Draw sprites', visibility: 'commercial', priceCents: 1500, minute: 4, tags: ['graphics', 'ai-art'] },
  { key: 'F', title: 'Deleted thing', summary: 'Todo gone', visibility: 'commercial', priceCents: 100, minute: 5, tags: ['productivity'], deleted: true },
  { key: 'G', title: 'Markdown Notes', summary: 'Write notes', visibility: 'commercial', priceCents: 100, minute: 4, tags: ['Productivity'] },
];

describe.each(testDatabases())('Showcase browsing on %s', (kind) => {
  let server: TestServer;
  let anonymous: TestClient;
  let seller: TestClient;
  let viewer: TestClient;
  const ids = new Map<string, string>();
  const keyOf = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer(kind);
    anonymous = new TestClient(server.url);
    seller = new TestClient(server.url);
    viewer = new TestClient(server.url);
    expect((await seller.post('/api/auth/register', { username: 'seller', password: 'correct-horse' })).status).toBe(201);
    expect((await viewer.post('/api/auth/register', { username: 'viewer', password: 'correct-horse' })).status).toBe(201);
    const sql = server.db.orm.em.fork() as Sql;
    const [user] = await sql.execute<Array<{ id: string }>>("select id from users where username = 'seller'");
    for (const s of SEEDS) {
      const id = randomUUID();
      ids.set(s.key, id);
      keyOf.set(id, s.key);
      const at = new Date(Date.UTC(2026, 10, 1, 12, s.minute));
      await sql.execute(
        `insert into listings (id, user_id, title, summary, visibility, price_cents, tags, tags_text, tech_stack, file_count, created_at, updated_at, deleted_at)
         values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, '["React","TypeScript","Vite","CSS"]'::jsonb, 2, ?, ?, ?)`,
        [id, user!.id, s.title, s.summary, s.visibility, s.priceCents, JSON.stringify(s.tags), s.tags.join(' '), at, at, s.deleted ? at : null],
      );
    }
  });
  afterAll(async () => {
    await server?.dispose();
  });

  const keys = async (query: string, client = anonymous) => {
    const res = await client.get(`/api/listings${query}`);
    expect(res.status, res.text).toBe(200);
    return listingsReply.parse(res.json).listings.map((l) => keyOf.get(l.id));
  };
  /** The expected order: the sort key, then the id, both in the same direction. */
  const expected = (sortBy: 'createdAt' | 'priceCents', order: 'asc' | 'desc', filter: (s: Seed) => boolean = () => true) =>
    SEEDS.filter((s) => !s.deleted && filter(s))
      .sort((a, b) => {
        const ka = sortBy === 'createdAt' ? a.minute : a.priceCents;
        const kb = sortBy === 'createdAt' ? b.minute : b.priceCents;
        const ia = ids.get(a.key)!;
        const ib = ids.get(b.key)!;
        const c = ka - kb || (ia < ib ? -1 : ia > ib ? 1 : 0);
        return order === 'asc' ? c : -c;
      })
      .map((s) => s.key);

  it('browses without a login, newest first by default, never showing a deleted listing', async () => {
    const res = await anonymous.get('/api/listings');
    expect(res.status).toBe(200);
    const listings = listingsReply.parse(res.json).listings;
    expect(listings.map((l) => keyOf.get(l.id))).toEqual(expected('createdAt', 'desc'));
    expect(listings.map((l) => keyOf.get(l.id))).not.toContain('F');
    expect(listings[0]).toMatchObject({ sellerName: 'seller', fileCount: 2, techStack: ['React', 'TypeScript', 'Vite', 'CSS'], currency: 'usd' });
    expect(res.json.listings).toSatisfy((all: Array<Record<string, unknown>>) => all.every((l) => !('isOwner' in l)));
    const mine = listingsReply.parse((await seller.get('/api/listings')).json).listings;
    expect(mine.every((l) => l.isOwner === true && l.purchasedProjectId === null)).toBe(true);
    const theirs = listingsReply.parse((await viewer.get('/api/listings')).json).listings;
    expect(theirs.every((l) => l.isOwner === false)).toBe(true);
  });

  it('sorts by createdAt and priceCents both ways with the id as tiebreak', async () => {
    for (const sortBy of ['createdAt', 'priceCents'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        expect(await keys(`?sortBy=${sortBy}&sortOrder=${sortOrder}`), `${sortBy} ${sortOrder}`).toEqual(expected(sortBy, sortOrder));
      }
    }
    expect(await keys('?sortOrder=asc')).toEqual(expected('createdAt', 'asc'));
    expect(await keys('?sortBy=priceCents')).toEqual(expected('priceCents', 'desc'));
  });

  it('pages never repeat or skip a listing, for every sort, up to and past the end', async () => {
    for (const sortBy of ['createdAt', 'priceCents'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const all = expected(sortBy, sortOrder);
        for (const limit of [1, 2, 4, 6]) {
          const pages: Array<string | undefined> = [];
          for (let offset = 0; offset < all.length; offset += limit) {
            const page = await keys(`?sortBy=${sortBy}&sortOrder=${sortOrder}&limit=${limit}&offset=${offset}`);
            expect(page.length).toBe(Math.min(limit, all.length - offset));
            pages.push(...page);
          }
          expect(pages, `${sortBy} ${sortOrder} by ${limit}`).toEqual(all);
        }
        expect(await keys(`?sortBy=${sortBy}&sortOrder=${sortOrder}&limit=2&offset=${all.length - 1}`)).toEqual(all.slice(-1));
        expect(await keys(`?sortBy=${sortBy}&sortOrder=${sortOrder}&offset=${all.length}`)).toEqual([]);
        expect(await keys(`?sortBy=${sortBy}&sortOrder=${sortOrder}&offset=1000`)).toEqual([]);
      }
    }
    expect(await keys('?limit=100')).toHaveLength(6);
  });

  it('filters free and commercial listings', async () => {
    expect(await keys('?isCommercial=true')).toEqual(expected('createdAt', 'desc', (s) => s.visibility === 'commercial'));
    expect(await keys('?isCommercial=false')).toEqual(expected('createdAt', 'desc', (s) => s.visibility === 'free'));
    expect(await keys('?isCommercial=true&sortBy=priceCents&sortOrder=asc&limit=2&offset=1')).toEqual(expected('priceCents', 'asc', (s) => s.visibility === 'commercial').slice(1, 3));
    expect(await keys('?isCommercial=')).toEqual(expected('createdAt', 'desc'));
  });

  it('searches title, summary and tags, case-insensitively, by word prefix, with the other filters', async () => {
    expect((await keys('?search=todo')).sort()).toEqual(['A', 'D']);
    expect((await keys('?search=TODO')).sort()).toEqual(['A', 'D']);
    expect((await keys('?search=productivity')).sort()).toEqual(['A', 'G']);
    expect((await keys('?search=PRODUCTIVITY&isCommercial=true'))).toEqual(['G']);
    expect((await keys('?search=productivity&isCommercial=false'))).toEqual(['A']);
    expect(await keys('?search=ai&sortBy=priceCents&sortOrder=asc')).toEqual(['B', 'E']);
    expect(await keys('?search=forecast')).toEqual(['B']);
    expect(await keys('?search=reci')).toEqual(['D']);
    expect(await keys(`?search=${encodeURIComponent('  Chess   CLOCK ')}`)).toEqual(['C']);
    expect(await keys('?search=chess%20weather')).toEqual([]);
    expect(await keys('?search=deleted')).toEqual([]);
    expect(await keys('?search=nothing-like-it')).toEqual([]);
    expect(await keys('?search=todo&limit=1&offset=1')).toHaveLength(1);
    // Operators and quotes are words to look for, never query syntax; no letters: no filter.
    for (const odd of ["o'brien", 'a & b | !c', "':*", '\\', '(todo', 'todo:*B']) {
      const res = await anonymous.get(`/api/listings?search=${encodeURIComponent(odd)}`);
      expect(res.status, odd).toBe(200);
    }
    expect(await keys(`?search=${encodeURIComponent('!!!')}`)).toEqual(expected('createdAt', 'desc'));
  });

  it('refuses bad parameters with a 400 that names them', async () => {
    const cases: Array<[string, string]> = [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      ['offset=2.5', 'offset'],
      ['sortBy=title', 'sortBy'],
      ['sortBy=created_at', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['isCommercial=yes', 'isCommercial'],
      ['isCommercial=1', 'isCommercial'],
      [`search=${'a'.repeat(201)}`, 'search'],
    ];
    for (const [query, name] of cases) {
      const res = await anonymous.get(`/api/listings?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe('BAD_REQUEST');
      expect(res.json.error, query).toContain(name);
    }
    // A repeated key takes its first value, like the schema says.
    expect(await keys('?limit=1&limit=abc')).toHaveLength(1);
  });
});
