/**
 * GET /api/projects in pages (Load): for every sort order, walking the pages gives each
 * of the user's projects exactly once, in order, never more than `limit` at a time, and never
 * another user's; projects added between two pages do not shift the rest; folder, search and
 * counts; clear 400s for bad parameters; and the keyset query reads migration 0011's indexes at
 * 10,000 projects, on PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_SORTS, projectsPageReply, type ProjectSort, type ProjectSummary } from '@wolfpack/core';
import { decodeCursor, pageSql } from '../services/projects/project-list-query.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

/** What the test knows of each inserted project, to compute the expected orders itself. */
interface Seeded {
  id: string;
  idea: string;
  fileCount: number;
  /** Microseconds since the epoch: PostgreSQL keeps them, and so must the cursor. */
  micros: bigint;
  folderId: string | null;
}

const BASE_MICROS = BigInt(Date.UTC(2026, 0, 1)) * 1000n;

function isoMicros(micros: bigint): string {
  const ms = Number(micros / 1000n);
  const rest = String(micros % 1000n).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${rest}Z`);
}

/** The title the server sorts by (see TITLE_KEY_SQL); the test ideas are ASCII. */
function titleKey(idea: string): string {
  const line = idea.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').split('\n')[0]!.replace(/^[ \t\r]+|[ \t\r]+$/g, '');
  return line.slice(0, 200).toLowerCase() || 'untitled project';
}

const cmp = (a: string | bigint | number, b: string | bigint | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The order the server promises for each sort (core's PROJECT_SORTS). */
function expectedOrder(rows: Seeded[], sort: ProjectSort): string[] {
  const byUpdated = (a: Seeded, b: Seeded) => cmp(a.micros, b.micros) || cmp(a.id, b.id);
  const ascending: Record<ProjectSort, [(a: Seeded, b: Seeded) => number, 1 | -1]> = {
    newest: [byUpdated, -1],
    oldest: [byUpdated, 1],
    'a-z': [(a, b) => cmp(titleKey(a.idea), titleKey(b.idea)) || byUpdated(a, b), 1],
    'z-a': [(a, b) => cmp(titleKey(a.idea), titleKey(b.idea)) || byUpdated(a, b), -1],
    'most-files': [(a, b) => cmp(a.fileCount, b.fileCount) || byUpdated(a, b), -1],
    'least-files': [(a, b) => cmp(a.fileCount, b.fileCount) || byUpdated(a, b), 1],
  };
  const [compare, sign] = ascending[sort];
  return [...rows].sort((a, b) => sign * compare(a, b)).map((row) => row.id);
}

describe.each(testDatabases())('GET /api/projects pages on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let aliceId: string;
  let bobId: string;
  let workFolder: string;
  let bobsFolder: string;
  const seeded: Seeded[] = [];
  const bobsProjects = new Set<string>();
  const sql = () => server.db.orm.em.fork().getConnection() as unknown as Sql;

  async function register(username: string): Promise<[TestClient, string]> {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await sql().execute<Array<{ id: string }>>('select id from users where username = ?', [username]);
    return [client, row!.id];
  }

  async function insert(userId: string, rows: Seeded[]): Promise<void> {
    const values = rows.map(() => `(?, ?, ?, ?, ?, 0, ?::timestamptz, ?::timestamptz)`).join(', ');
    await sql().execute(
      `insert into projects (id, user_id, idea, file_count, folder_id, total_bytes, created_at, updated_at) values ${values}`,
      rows.flatMap((r) => [r.id, userId, r.idea, r.fileCount, r.folderId, isoMicros(r.micros), isoMicros(r.micros)]),
    );
  }

  async function folder(client: TestClient, name: string): Promise<string> {
    const res = await client.post('/api/folders', { name, parentFolderId: null });
    expect(res.status).toBe(201);
    return (res.json.folder as { id: string }).id;
  }

  async function page(client: TestClient, query: Record<string, string>) {
    const res = await client.get(`/api/projects?${new URLSearchParams(query).toString()}`);
    expect(res.status, res.text).toBe(200);
    return projectsPageReply.parse(res.json);
  }

  /** Every page from the first to the one whose nextCursor is null. */
  async function walk(client: TestClient, query: Record<string, string>, between?: (pageNo: number) => Promise<void>) {
    const pages: ProjectSummary[][] = [];
    let cursor: string | null = null;
    do {
      const reply = await page(client, cursor === null ? query : { ...query, cursor });
      pages.push(reply.projects);
      cursor = reply.nextCursor;
      if (cursor !== null) await between?.(pages.length);
    } while (cursor !== null && pages.length < 1_000);
    return pages;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    [alice, aliceId] = await register('alice');
    [bob, bobId] = await register('bob');
    workFolder = await folder(alice, 'Work');
    bobsFolder = await folder(bob, 'Bobs');
    const ideas = ['Apple tracker', 'apple tracker', 'banana\nsecond line', '  Cherry pie', '', '\n\nDate night planner', '50% off sale', 'under_score app', 'zebra'];
    for (let i = 0; i < 230; i++) {
      seeded.push({
        id: randomUUID(),
        idea: `${ideas[i % ideas.length]}${i % 3 === 0 ? '' : ` ${i % 17}`}`,
        fileCount: i % 5,
        // Ties on purpose: groups of four share one instant; some differ only in microseconds.
        micros: BASE_MICROS + BigInt(Math.floor(i / 4)) * 1_000_000n + (i % 11 === 0 ? 7n : 0n),
        folderId: i % 7 === 0 ? workFolder : null,
      });
    }
    await insert(aliceId, seeded);
    const bobs: Seeded[] = Array.from({ length: 40 }, (_, i) => ({
      id: randomUUID(),
      idea: `Apple tracker of bob ${i}`,
      fileCount: i % 5,
      micros: BASE_MICROS + BigInt(i) * 999_999n,
      folderId: i % 2 === 0 ? bobsFolder : null,
    }));
    await insert(bobId, bobs);
    for (const row of bobs) bobsProjects.add(row.id);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers the newest 50 with a cursor by default, and the whole spec shape', async () => {
    const reply = await page(alice, {});
    expect(reply.projects).toHaveLength(50);
    expect(reply.nextCursor).toEqual(expect.any(String));
    expect(reply.projects.map((p) => p.id)).toEqual(expectedOrder(seeded, 'newest').slice(0, 50));
    expect(reply.total).toBeUndefined();
    const first = reply.projects[0]!;
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['id', 'idea', 'updatedAt', 'createdAt', 'fileCount', 'folderId']));
    expect(Date.parse(first.updatedAt)).toBe(Number(seeded.find((s) => s.id === first.id)!.micros / 1000n));
  });

  it.each(PROJECT_SORTS)('walks every page of %s: disjoint, complete, in order, bounded, only the owner’s', async (sort) => {
    const limit = 37;
    const pages = await walk(alice, { sort, limit: String(limit) });
    expect(pages.every((p) => p.length <= limit)).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    const ids = pages.flat().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expectedOrder(seeded, sort));
    expect(ids.some((id) => bobsProjects.has(id))).toBe(false);
  });

  it('keeps pages disjoint and complete while projects are added between them', async () => {
    const added: Seeded[] = [];
    const pages = await walk(alice, { limit: '25' }, async (pageNo) => {
      // Newer than everything (belongs before the cursor) and older than everything (after it).
      const newer = { id: randomUUID(), idea: `Added newer ${pageNo}`, fileCount: 1, micros: BASE_MICROS + 10_000_000_000n + BigInt(pageNo), folderId: null };
      const older = { id: randomUUID(), idea: `Added older ${pageNo}`, fileCount: 1, micros: BASE_MICROS - 10_000_000_000n - BigInt(pageNo), folderId: null };
      await insert(aliceId, [newer, older]);
      added.push(newer, older);
    });
    const ids = pages.flat().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Everything that existed, once, in order; plus the older additions (behind the cursor), newest first.
    const olderAdded = added.filter((row) => row.micros < BASE_MICROS);
    expect(ids).toEqual([...expectedOrder(seeded, 'newest'), ...expectedOrder(olderAdded, 'newest')]);
    seeded.push(...added);
    // The next walk from the top sees all of them.
    expect((await walk(alice, { limit: '200' })).flat().map((p) => p.id)).toEqual(expectedOrder(seeded, 'newest'));
  });

  it('pages one folder, the root, and refuses a folder that is not the user’s', async () => {
    for (const [folderId, want] of [
      [workFolder, seeded.filter((s) => s.folderId === workFolder)],
      ['root', seeded.filter((s) => s.folderId === null)],
    ] as const) {
      for (const sort of ['newest', 'a-z', 'least-files'] as const) {
        const pages = await walk(alice, { folderId, sort, limit: '9' });
        expect(pages.flat().map((p) => p.id)).toEqual(expectedOrder([...want], sort));
      }
    }
    for (const folderId of [bobsFolder, randomUUID(), 'not-a-folder']) {
      const res = await alice.get(`/api/projects?folderId=${folderId}`);
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('Folder not found');
    }
    const bobsRoot = await walk(bob, { folderId: 'root', limit: '7' });
    expect(bobsRoot.flat().every((p) => bobsProjects.has(p.id) && p.folderId === null)).toBe(true);
  });

  it('searches ideas ignoring case, with % and _ taken literally', async () => {
    const apples = await walk(alice, { q: 'APPLE', limit: '20' });
    expect(apples.flat().map((p) => p.id)).toEqual(expectedOrder(seeded.filter((s) => s.idea.toLowerCase().includes('apple')), 'newest'));
    const percent = (await walk(alice, { q: '50%', limit: '200' })).flat();
    expect(percent.length).toBeGreaterThan(0);
    expect(percent.every((p) => p.idea.includes('50%'))).toBe(true);
    expect((await page(alice, { q: '%' })).projects.every((p) => p.idea.includes('%'))).toBe(true);
    expect((await page(alice, { q: '_' })).projects.every((p) => p.idea.includes('_'))).toBe(true);
    expect((await page(alice, { q: 'no such words anywhere' })).projects).toEqual([]);
  });

  it('counts on request: the total of the filter and the projects of every folder', async () => {
    const all = await page(alice, { counts: 'true', limit: '1' });
    const inWork = seeded.filter((s) => s.folderId === workFolder).length;
    expect(all.total).toBe(seeded.length);
    expect(all.folderCounts).toEqual({ root: seeded.length - inWork, [workFolder]: inWork });
    expect((await page(alice, { counts: 'true', folderId: workFolder })).total).toBe(inWork);
    expect((await page(alice, { counts: 'true', folderId: 'root' })).total).toBe(seeded.length - inWork);
    const zebras = seeded.filter((s) => s.idea.includes('zebra') && s.folderId === null).length;
    expect((await page(alice, { counts: 'true', folderId: 'root', q: 'zebra' })).total).toBe(zebras);
    expect((await page(bob, { counts: 'true' })).total).toBe(bobsProjects.size);
    // The counts come with the page's rows; a page without rows (here: a cursor past the oldest
    // project) still brings them, the search's total included.
    const pastTheEnd = Buffer.from(JSON.stringify([1, 'newest', null, '1970-01-01T00:00:00.000001Z', randomUUID()])).toString('base64url');
    expect(await page(alice, { counts: 'true', folderId: 'root', q: 'zebra', cursor: pastTheEnd })).toEqual({
      projects: [],
      nextCursor: null,
      total: zebras,
      folderCounts: all.folderCounts,
    });
    const nothing = await page(alice, { counts: 'true', q: 'no such words anywhere' });
    expect(nothing).toMatchObject({ projects: [], total: 0, folderCounts: all.folderCounts });
    const [carol] = await register('carol-counts');
    const emptyFolder = await folder(carol, 'Empty');
    expect(await page(carol, { counts: 'true', folderId: emptyFolder })).toEqual({ projects: [], nextCursor: null, total: 0, folderCounts: {} });
  });

  it('answers a sentence for a bad limit, cursor or sort, and asks a visitor to sign in', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit must be at least 1'],
      ['limit=201', 'limit must be at most 200'],
      ['limit=abc', 'limit must be a number'],
      ['limit=1.5', 'limit must be a whole number'],
      ['sort=sideways', 'sort must be one of newest, oldest, a-z, z-a, most-files, least-files'],
      ['cursor=garbage', 'cursor is not valid: pass the nextCursor of an earlier page, or leave cursor out to start from the first page.'],
      [`cursor=${'x'.repeat(3000)}`, 'cursor must be the nextCursor of an earlier page'],
      ['counts=yes', 'counts must be true or false'],
      // A NUL anywhere in a query is refused before the route's schema, naming the parameter (unstorable-text.ts).
      ['q=%00', 'The query parameter q contains a NUL character (\\u0000), which cannot be stored. Remove it and send it again.'],
    ];
    for (const [query, message] of cases) {
      const res = await alice.get(`/api/projects?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error, query).toBe(message);
    }
    const { nextCursor } = await page(alice, { sort: 'a-z', limit: '2' });
    const mixed = await alice.get(`/api/projects?sort=newest&cursor=${nextCursor}`);
    expect(mixed.status).toBe(400);
    expect(mixed.json.error).toBe('cursor belongs to another sort order (a-z): leave cursor out to start from the first page.');
    // A forged cursor with a date PostgreSQL refuses is a 400 as well, not a 500.
    const forged = Buffer.from(JSON.stringify([1, 'newest', null, '2026-02-30T00:00:00.000000Z', randomUUID()])).toString('base64url');
    expect((await alice.get(`/api/projects?cursor=${forged}`)).status).toBe(400);
    expect((await new TestClient(server.url).get('/api/projects')).status).toBe(401);
  });

  it('never answers a 500 to a hostile query string or a forged cursor', async () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('', '0', '-1', '1e9', 'NaN', '9'.repeat(40), 'root', 'ROOT', 'true', '%', '_', '\\', '\u0000', 'a-z', randomUUID()),
    );
    const forgedCursor = fc
      .tuple(
        fc.oneof(fc.constant(1), fc.integer()),
        fc.constantFrom(...PROJECT_SORTS, 'up'),
        fc.oneof(fc.constant(null), fc.string({ unit: 'binary', maxLength: 30 }), fc.integer(), fc.double()),
        fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '123Z')), fc.string({ maxLength: 30 })),
        fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })),
      )
      .map((parts) => Buffer.from(JSON.stringify(parts)).toString('base64url'));
    const query = fc.record(
      {
        limit: value,
        sort: fc.oneof(value, fc.constantFrom(...PROJECT_SORTS)),
        folderId: value,
        q: value,
        counts: value,
        cursor: fc.oneof(value, forgedCursor),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const res = await alice.get(`/api/projects?${new URLSearchParams(params as Record<string, string>).toString()}`);
        expect([200, 400, 404], `${JSON.stringify(params)} -> ${res.status} ${res.text}`).toContain(res.status);
        if (res.status !== 200) expect(res.json.error).toMatch(/\w.*\S$/);
        else expect(projectsPageReply.parse(res.json).projects.every((p) => !bobsProjects.has(p.id))).toBe(true);
      }),
      { numRuns: Number(process.env.WOLFPACK_FUZZ_RUNS ?? 150) },
    );
  }, 120_000);

  it('keeps every folder’s count right as projects are added, moved (also racing), deleted and their folder removed', async () => {
    const [dave, daveId] = await register('dave');
    const [home, away] = [await folder(dave, 'Home'), await folder(dave, 'Away')];
    /** The counts as the sidebar gets them, beside a count of the rows themselves. */
    const check = async (label: string) => {
      const counted = await sql().execute<Array<{ folder: string; n: number | string }>>(
        `select coalesce(folder_id::text, 'root') as folder, count(*) as n from projects where user_id = ? group by folder_id`,
        [daveId],
      );
      const reply = await page(dave, { counts: 'true', limit: '1' });
      expect(reply.folderCounts, label).toEqual(Object.fromEntries(counted.map((row) => [row.folder, Number(row.n)])));
      expect(reply.total, label).toBe(counted.reduce((sum, row) => sum + Number(row.n), 0));
      return reply.folderCounts!;
    };
    expect(await check('no projects yet')).toEqual({});
    const made = (folderId: string | null, n: number) =>
      Array.from({ length: n }, (_, i): Seeded => ({ id: randomUUID(), idea: `Dave ${i}`, fileCount: 1, micros: BASE_MICROS + BigInt(i), folderId }));
    const [inHome, inAway, inRoot] = [made(home, 12), made(away, 12), made(null, 6)];
    await insert(daveId, [...inHome, ...inAway, ...inRoot]);
    expect(await check('inserted in one statement')).toEqual({ [home]: 12, [away]: 12, root: 6 });
    // Twelve moves each way at once: the counts are shared rows, and nothing may deadlock.
    const moves = await Promise.all([
      ...inHome.map((p) => dave.request('PUT', `/api/projects/${p.id}/folder`, { folderId: away })),
      ...inAway.map((p) => dave.request('PUT', `/api/projects/${p.id}/folder`, { folderId: home })),
      dave.request('PUT', `/api/projects/${inRoot[0]!.id}/folder`, { folderId: home }),
    ]);
    expect(moves.map((res) => res.status)).toEqual(moves.map(() => 200));
    expect(await check('after racing moves')).toEqual({ [home]: 13, [away]: 12, root: 5 });
    // A save that changes nothing about where a project is moves no count.
    await sql().execute(`update projects set idea = idea || '!', updated_at = now() where user_id = ?`, [daveId]);
    await check('after an update of every project');
    expect((await dave.request('DELETE', `/api/projects/${inRoot[1]!.id}`)).status).toBe(200);
    expect(await check('after a delete')).toEqual({ [home]: 13, [away]: 12, root: 4 });
    // Removing a folder puts its projects in the root (the foreign key sets them to null).
    expect((await dave.request('DELETE', `/api/folders/${away}`)).status).toBe(200);
    expect(await check('after its folder was removed')).toEqual({ [home]: 13, root: 16 });
    // Another user's projects never count for dave, and an account's removal takes its counts.
    expect((await page(bob, { counts: 'true', limit: '1' })).total).toBe(bobsProjects.size);
    await sql().execute('delete from users where id = ?', [daveId]);
    expect(await sql().execute<unknown[]>('select * from project_counts where user_id = ?', [daveId])).toEqual([]);
  });

  it('reads the keyset indexes of migration 0011 at 10,000 projects', async () => {
    const [carol, carolId] = await register('carol');
    const carolsFolder = await folder(carol, 'Carols');
    await sql().execute(
      `insert into projects (id, user_id, idea, file_count, folder_id, total_bytes, created_at, updated_at)
       select gen_random_uuid(), ?, 'Idea number ' || g, g % 9,
              case when g % 3 = 0 then ?::uuid else null end, 0,
              now() - g * interval '1 minute', now() - g * interval '1 minute'
       from generate_series(1, 10000) g`,
      [carolId, carolsFolder],
    );
    await sql().execute('analyze projects');
    /** The query of a page 2,000 rows deep, from the cursor the server handed out there. */
    const deep = async (sort: ProjectSort, folderId: string | null | undefined) => {
      let cursor = '';
      for (let i = 0; i < 10; i++) {
        const query: Record<string, string> = { sort, limit: '200', ...(folderId === undefined ? {} : { folderId: folderId ?? 'root' }) };
        cursor = (await page(carol, cursor ? { ...query, cursor } : query)).nextCursor!;
      }
      return pageSql({ userId: carolId, folderId, q: undefined }, sort, 50, decodeCursor(cursor, sort));
    };
    // A folder holding most projects may be read through the index of every folder, filtered:
    // the planner expects the next 50 within the first few dozen entries either way.
    const byUpdate = /projects_user_updated_index|projects_user_folder_updated_index/;
    const plans: Array<[string, { sql: string; params: unknown[] }, string | RegExp]> = [
      ['first page, every folder', pageSql({ userId: carolId, folderId: undefined, q: undefined }, 'newest', 50, undefined), 'projects_user_updated_index'],
      ['deep page, every folder', await deep('newest', undefined), 'projects_user_updated_index'],
      ['deep page, oldest', await deep('oldest', undefined), 'projects_user_updated_index'],
      ['root, newest', await deep('newest', null), byUpdate],
      ['folder, oldest', await deep('oldest', carolsFolder), byUpdate],
      ['folder, a-z', await deep('a-z', carolsFolder), 'projects_user_folder_title_index'],
      ['root, z-a', await deep('z-a', null), 'projects_user_folder_title_index'],
      ['folder, most files', await deep('most-files', carolsFolder), 'projects_user_folder_files_index'],
      ['root, least files', await deep('least-files', null), 'projects_user_folder_files_index'],
    ];
    for (const [name, { sql: query, params }, index] of plans) {
      const rows = await sql().execute<Array<Record<string, string>>>(`explain ${query}`, params);
      const plan = rows.map((row) => Object.values(row)[0]).join('\n');
      expect(plan, `${name}:\n${plan}`).toMatch(index);
      expect(plan, `${name}:\n${plan}`).not.toMatch(/Seq Scan|Sort Method|\bSort\b/);
    }
    // And through HTTP: the last page of 10,000 is reached by cursor, 200 at a time.
    const pages = await walk(carol, { limit: '200' });
    expect(pages).toHaveLength(50);
    expect(new Set(pages.flat().map((p) => p.id)).size).toBe(10_000);
  }, 120_000);
});
