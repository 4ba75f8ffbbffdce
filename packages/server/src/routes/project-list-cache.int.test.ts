/**
 * The project list over HTTP caching: each page carries a weak ETag of its content and
 * `Cache-Control: private, no-cache`; asked again with If-None-Match it is a 304 without a body
 * while the page is unchanged, and a 200 with a new ETag once anything it shows changed, however
 * the change was made (the API, a folder removed, SQL behind the server's back). Each user's pages
 * are their own, and two server processes on one PostgreSQL database agree on a page's ETag.
 * The list's version of the past (its table, triggers and functions) is gone. PGlite and PostgreSQL.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsPageReply } from '@wolfpack/core';
import { plainSql } from '../db/plain-sql.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const sqlOf = (server: TestServer) => plainSql(server.db.orm.em.fork());

async function register(server: TestServer, username: string): Promise<[TestClient, string]> {
  const client = new TestClient(server.url);
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  const [row] = await sqlOf(server).execute<Array<{ id: string }>>('select id from users where username = ?', [username]);
  return [client, row!.id];
}

async function addProject(server: TestServer, userId: string, idea: string): Promise<string> {
  const id = randomUUID();
  await sqlOf(server).execute(`insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, ?, 1, 0, now(), now())`, [id, userId, idea]);
  return id;
}

interface Answer {
  status: number;
  etag: string | undefined;
  cacheControl: string | undefined;
  encoding: string | undefined;
  body: Buffer;
}

/** GET as it crosses the wire (fetch would answer a 304 from nowhere, having no cache). */
function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            etag: res.headers.etag,
            cacheControl: res.headers['cache-control'],
            encoding: res.headers['content-encoding'],
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const ideasOf = (answer: Answer) => projectsPageReply.parse(JSON.parse((answer.encoding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString())).projects.map((p) => p.idea);

describe.each(testDatabases())('the project list revalidated by ETag on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let aliceId: string;
  const page = (client: TestClient, etag?: string, path = '/api/projects?folderId=root', extra: Record<string, string> = {}) =>
    get(server.url, path, { cookie: client.cookieHeader(), ...(etag ? { 'if-none-match': etag } : {}), ...extra });

  beforeAll(async () => {
    server = await startTestServer(kind);
    [alice, aliceId] = await register(server, 'alice');
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers a page with a weak ETag, private and revalidated, and a 304 without a body while it is unchanged', async () => {
    await addProject(server, aliceId, 'First');
    const first = await page(alice);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.cacheControl).toBe('private, no-cache');
    expect(ideasOf(first)).toEqual(['First']);

    const again = await page(alice, first.etag);
    expect(again.status).toBe(304);
    expect(again.etag).toBe(first.etag);
    expect(again.body.length).toBe(0);
    // One ETag whatever the encoding: a gzip reply and a plain one are the same page.
    const gzipped = await page(alice, undefined, undefined, { 'accept-encoding': 'gzip' });
    expect(gzipped.etag).toBe(first.etag);
    expect((await page(alice, first.etag, undefined, { 'accept-encoding': 'gzip' })).status).toBe(304);
    // Another query of the same list is another page.
    const oldest = await page(alice, first.etag, '/api/projects?folderId=root&sort=oldest&counts=true');
    expect(oldest.status).toBe(200);
    expect(oldest.etag).not.toBe(first.etag);
  });

  it('answers a 200 with a new ETag once the page changed, through the API or behind the server’s back', async () => {
    const id = await addProject(server, aliceId, 'Soon renamed');
    const before = await page(alice);
    expect(ideasOf(before)).toContain('Soon renamed');

    await sqlOf(server).execute('update projects set idea = ? where id = ?', ['Renamed in SQL', id]);
    const renamed = await page(alice, before.etag);
    expect(renamed.status).toBe(200);
    expect(renamed.etag).not.toBe(before.etag);
    expect(ideasOf(renamed)).toContain('Renamed in SQL');

    expect((await alice.request('DELETE', `/api/projects/${id}`)).status).toBe(200);
    const deleted = await page(alice, renamed.etag);
    expect(deleted.status).toBe(200);
    expect(ideasOf(deleted)).not.toContain('Renamed in SQL');

    // A project moved into a folder leaves the root's page; the folder removed brings it back.
    const folder = await alice.post('/api/folders', { name: 'Away', parentFolderId: null });
    const folderId = (folder.json.folder as { id: string }).id;
    const moved = await addProject(server, aliceId, 'Moved away');
    const withIt = await page(alice);
    expect((await alice.request('PUT', `/api/projects/${moved}/folder`, { folderId })).status).toBe(200);
    const without = await page(alice, withIt.etag);
    expect(without.status).toBe(200);
    expect(ideasOf(without)).not.toContain('Moved away');
    expect((await alice.request('DELETE', `/api/folders/${folderId}`)).status).toBe(200);
    expect((await page(alice, undefined, `/api/projects?folderId=${folderId}`)).status).toBe(404);
  });

  it('never answers one user’s ETag with a 304 for another user’s page', async () => {
    const [bob, bobId] = await register(server, 'bob');
    await addProject(server, bobId, 'Bob’s');
    const alices = await page(alice);
    const bobs = await page(bob, alices.etag);
    expect(bobs.status).toBe(200);
    expect(ideasOf(bobs)).toEqual(['Bob’s']);
    // A visitor with someone's ETag is asked to sign in.
    const visitor = await get(server.url, '/api/projects?folderId=root', { 'if-none-match': alices.etag! });
    expect(visitor.status).toBe(401);
  });

  it('keeps no list version any more: its table, triggers and functions are gone', async () => {
    const sql = sqlOf(server);
    expect(await sql.execute(`select 1 from information_schema.tables where table_name = 'project_list_versions'`)).toEqual([]);
    expect(await sql.execute(`select 1 from pg_trigger where tgname in ('projects_list_version', 'folders_list_version')`)).toEqual([]);
    expect(await sql.execute(`select 1 from pg_proc where proname in ('project_list_bump', 'project_list_bump_user')`)).toEqual([]);
  });
});

// Several processes share one PostgreSQL database (PGlite is one process).
describe.runIf(testDatabases().includes('postgres'))('the project list on two server processes on one PostgreSQL', () => {
  it('gives a page the same ETag through either process, and a change made through one is seen through the other', async () => {
    const server = await startTestServer('postgres');
    const replica = await startTestServer('postgres', { reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
    try {
      const [alice, aliceId] = await register(server, 'alice');
      await addProject(server, aliceId, 'Seen everywhere');
      const path = '/api/projects?folderId=root';
      const here = await get(server.url, path, { cookie: alice.cookieHeader() });
      expect((await get(replica.url, path, { cookie: alice.cookieHeader(), 'if-none-match': here.etag! })).status).toBe(304);
      const other = await addProject(server, aliceId, 'Added through the first');
      const there = await get(replica.url, path, { cookie: alice.cookieHeader(), 'if-none-match': here.etag! });
      expect(there.status).toBe(200);
      expect(ideasOf(there)).toContain('Added through the first');
      expect((await alice.request('DELETE', `/api/projects/${other}`)).status).toBe(200);
      expect(ideasOf(await get(replica.url, path, { cookie: alice.cookieHeader() }))).not.toContain('Added through the first');
    } finally {
      await replica.dispose();
      await server.dispose();
    }
  });
});
