/**
 * The project list's kept pages: each user's list version (migration 0015) moves once
 * per transaction that writes their projects or folders, whoever writes them, and only theirs; a
 * page asked again under the same version is answered from what was kept (shown by a change made
 * behind the triggers' back, which only a kept page hides), a user reads their own writes at once,
 * a request with an API token (no version read with it) reads the list anew, and a second server
 * process on the same PostgreSQL database sees a change made through the first at once. PGlite and
 * PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsPageReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

type Sql = EntityManager & { execute<T = Array<Record<string, unknown>>>(sql: string, params?: unknown[]): Promise<T> };

const sqlOf = (server: TestServer) => server.db.orm.em.fork() as Sql;

async function register(server: TestServer, username: string): Promise<[TestClient, string]> {
  const client = new TestClient(server.url);
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  const [row] = await sqlOf(server).execute<Array<{ id: string }>>('select id from users where username = ?', [username]);
  return [client, row!.id];
}

async function addProject(em: Sql, userId: string, idea: string): Promise<string> {
  const id = randomUUID();
  await em.execute(`insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, ?, 1, 0, now(), now())`, [id, userId, idea]);
  return id;
}

/** The ideas of the first page of the root, as `client` is answered. */
async function ideas(client: TestClient, headers?: Record<string, string>): Promise<string[]> {
  const res = await client.get('/api/projects?folderId=root', headers);
  expect(res.status, res.text).toBe(200);
  return projectsPageReply.parse(res.json).projects.map((p) => p.idea);
}

describe.each(testDatabases())('the project list kept under each user’s version on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let aliceId: string;
  let bobId: string;
  const sql = () => sqlOf(server);
  const version = async (userId: string) => Number((await sql().execute<Array<{ version: string | number }>>('select version from project_list_versions where user_id = ?', [userId]))[0]?.version ?? 0);

  beforeAll(async () => {
    server = await startTestServer(kind);
    [alice, aliceId] = await register(server, 'alice');
    [bob, bobId] = await register(server, 'bob');
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  it('moves once per transaction that writes a user’s projects or folders, and never another user’s', async () => {
    const start = await version(aliceId);
    const bobs = await version(bobId);
    const first = await addProject(sql(), aliceId, 'First');
    expect(await version(aliceId)).toBe(start + 1);

    // Three inserts, an update and a delete in one transaction: one step.
    await server.db.orm.em.fork().transactional(async (em) => {
      const tx = em as Sql;
      const second = await addProject(tx, aliceId, 'Second');
      await addProject(tx, aliceId, 'Third');
      await addProject(tx, aliceId, 'Fourth');
      await tx.execute('update projects set idea = ? where id = ?', ['First, renamed', first]);
      await tx.execute('delete from projects where id = ?', [second]);
    });
    expect(await version(aliceId)).toBe(start + 2);

    const folder = await alice.post('/api/folders', { name: 'Work', parentFolderId: null });
    expect(folder.status).toBe(201);
    const folderId = (folder.json.folder as { id: string }).id;
    expect(await version(aliceId)).toBe(start + 3);
    expect((await alice.request('PUT', `/api/projects/${first}/folder`, { folderId })).status).toBe(200);
    expect(await version(aliceId)).toBe(start + 4);
    expect((await alice.request('DELETE', `/api/folders/${folderId}`)).status).toBe(200);
    expect(await version(aliceId)).toBeGreaterThanOrEqual(start + 5);
    const beforeDelete = await version(aliceId);
    expect((await alice.request('DELETE', `/api/projects/${first}`)).status).toBe(200);
    expect(await version(aliceId)).toBe(beforeDelete + 1);

    expect(await version(bobId)).toBe(bobs);
  });

  it('answers a page again from what it kept until the version moves; each user their own', async () => {
    const shown = await addProject(sql(), aliceId, 'Kept page');
    const other = await addProject(sql(), aliceId, 'Another');
    const before = await ideas(alice);
    expect(before).toContain('Kept page');

    // A change the triggers do not see (replication mode skips them): only a kept page hides it.
    await server.db.orm.em.fork().transactional(async (em) => {
      const tx = em as Sql;
      await tx.execute(`set local session_replication_role = replica`);
      await tx.execute('update projects set idea = ? where id = ?', ['Changed behind its back', shown]);
    });
    expect(await ideas(alice)).toEqual(before);
    // Bob's page is his own, kept apart.
    expect(await ideas(bob)).not.toContain('Kept page');

    // An API token's request reads no version with its session: it reads the list anew.
    const token = await alice.post('/api/auth/tokens', { username: 'alice', password: 'correct-horse', name: 'test' });
    expect(token.status).toBe(201);
    const cli = new TestClient(server.url);
    expect(await ideas(cli, { authorization: `Bearer ${String(token.json.token)}` })).toContain('Changed behind its back');

    // Any write that the triggers see moves the version: the next page is made anew.
    await sql().execute('update projects set idea = ? where id = ?', ['Another, renamed', other]);
    const after = await ideas(alice);
    expect(after).toContain('Changed behind its back');
    expect(after).toContain('Another, renamed');
  });

  it('shows a user their own change at once, however it was made (API, a folder removed)', async () => {
    const mine = await addProject(sql(), aliceId, 'Soon gone');
    expect(await ideas(alice)).toContain('Soon gone');
    expect((await alice.request('DELETE', `/api/projects/${mine}`)).status).toBe(200);
    expect(await ideas(alice)).not.toContain('Soon gone');

    const folder = await alice.post('/api/folders', { name: 'Away', parentFolderId: null });
    const folderId = (folder.json.folder as { id: string }).id;
    const moved = await addProject(sql(), aliceId, 'Moved away');
    expect(await ideas(alice)).toContain('Moved away');
    expect((await alice.request('PUT', `/api/projects/${moved}/folder`, { folderId })).status).toBe(200);
    expect(await ideas(alice)).not.toContain('Moved away');
    // The folder's page, kept, then the folder removed: its page is a 404, not the kept one.
    const folderPage = await alice.get(`/api/projects?folderId=${folderId}`);
    expect(projectsPageReply.parse(folderPage.json).projects.map((p) => p.idea)).toEqual(['Moved away']);
    expect((await alice.request('DELETE', `/api/folders/${folderId}`)).status).toBe(200);
    expect((await alice.get(`/api/projects?folderId=${folderId}`)).status).toBe(404);
  });

  it('lets an account with projects and folders be deleted (its version row goes with it)', async () => {
    const [carol, carolId] = await register(server, 'carol');
    await addProject(sql(), carolId, 'Carol’s');
    expect((await carol.post('/api/folders', { name: 'Hers', parentFolderId: null })).status).toBe(201);
    expect(await version(carolId)).toBeGreaterThan(0);
    await sql().execute('delete from users where id = ?', [carolId]);
    expect(await sql().execute('select * from project_list_versions where user_id = ?', [carolId])).toEqual([]);
  });
});

// Several processes share one PostgreSQL database (PGlite is one process): each keeps its own pages.
describe.runIf(testDatabases().includes('postgres'))('the project list kept by two server processes on one PostgreSQL', () => {
  it('shows a change made through one process at once through the other', async () => {
    const server = await startTestServer('postgres');
    const replica = await startTestServer('postgres', { reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
    try {
      const [alice, aliceId] = await register(server, 'alice');
      const there = new TestClient(replica.url, { cookie: alice.cookieHeader() });
      const id = await addProject(sqlOf(server), aliceId, 'Seen everywhere');
      expect(await ideas(there)).toContain('Seen everywhere');
      expect(await ideas(alice)).toContain('Seen everywhere');
      expect((await alice.request('DELETE', `/api/projects/${id}`)).status).toBe(200);
      expect(await ideas(there)).not.toContain('Seen everywhere');
      expect(await ideas(alice)).not.toContain('Seen everywhere');
    } finally {
      await replica.dispose();
      await server.dispose();
    }
  });
});
