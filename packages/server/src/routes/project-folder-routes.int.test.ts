import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { foldersReply, projectsReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

async function user(server: TestServer, username: string): Promise<TestClient> {
  const c = new TestClient(server.url);
  expect((await c.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  return c;
}

async function build(server: TestServer, c: TestClient, idea: string): Promise<string> {
  const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: c.cookieHeader() },
    body: JSON.stringify({ idea }),
  });
  const last = events.at(-1)!.event;
  if (last.type !== 'complete') throw new Error(`run did not complete: ${JSON.stringify(last)}`);
  return last.projectId;
}

describe.each(testDatabases())('projects and folders on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let mallory: TestClient;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    alice = await user(server, 'alice');
    mallory = await user(server, 'mallory');
    projectA = await build(server, alice, 'Recipe book');
    projectB = await build(server, alice, 'Chess clock');
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates nested folders, renames them, refuses blank names and cycles', async () => {
    const work = await alice.post('/api/folders', { name: 'Work', parentFolderId: null });
    expect(work.status).toBe(201);
    const workId = (work.json.folder as { id: string }).id;
    const sub = await alice.post('/api/folders', { name: 'Clients', parentFolderId: workId });
    const subId = (sub.json.folder as { id: string }).id;
    const blank = await alice.post('/api/folders', { name: '   ', parentFolderId: null });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe('Please enter a folder name');
    const renamed = await alice.request('PUT', `/api/folders/${subId}`, { name: 'Customers' });
    expect(renamed.json.folder).toEqual({ id: subId, name: 'Customers', parentFolderId: workId });
    const cycle = await alice.request('PUT', `/api/folders/${workId}`, { name: 'Work', parentFolderId: subId });
    expect(cycle.status).toBe(409);
    const self = await alice.request('PUT', `/api/folders/${workId}`, { name: 'Work', parentFolderId: workId });
    expect(self.status).toBe(409);
    const list = foldersReply.parse((await alice.get('/api/folders')).json).folders;
    expect(list.map((f) => f.name).sort()).toEqual(['Customers', 'Work']);
    expect((await mallory.get('/api/folders')).json).toEqual({ folders: [] });
  });

  it('moves projects into folders; deleting a folder moves its projects and subfolders to the root', async () => {
    const parent = (await alice.post('/api/folders', { name: 'Games', parentFolderId: null })).json.folder as { id: string };
    const child = (await alice.post('/api/folders', { name: 'Board', parentFolderId: parent.id })).json.folder as { id: string };
    expect((await alice.request('PUT', `/api/projects/${projectB}/folder`, { folderId: parent.id })).status).toBe(200);
    const inFolder = projectsReply.parse((await alice.get(`/api/folders/${parent.id}/projects`)).json).projects;
    expect(inFolder.map((p) => p.id)).toEqual([projectB]);
    const root = projectsReply.parse((await alice.get('/api/folders/root/projects')).json).projects;
    expect(root.map((p) => p.id)).toEqual([projectA]);
    expect((await alice.request('DELETE', `/api/folders/${parent.id}`)).status).toBe(200);
    const after = projectsReply.parse((await alice.get('/api/folders/root/projects')).json).projects;
    expect(after.map((p) => p.id).sort()).toEqual([projectA, projectB].sort());
    const folders = foldersReply.parse((await alice.get('/api/folders')).json).folders;
    expect(folders.find((f) => f.id === child.id)?.parentFolderId).toBeNull();
    expect(folders.some((f) => f.id === parent.id)).toBe(false);
  });

  it('exports a zip whose entries are byte-equal to the stored files, named project-<8>.zip', async () => {
    const res = await fetch(`${server.url}/api/projects/${projectA}/export`, { headers: { cookie: alice.cookieHeader() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="project-${projectA.slice(0, 8)}.zip"`);
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const detail = (await alice.get(`/api/projects/${projectA}`)).json.project as { fsIndex: Record<string, string> };
    expect(Object.keys(entries).sort()).toEqual(Object.keys(detail.fsIndex).sort());
    for (const [path, bytes] of Object.entries(entries)) expect(strFromU8(bytes)).toBe(detail.fsIndex[path]);
  });

  it('never writes a hostile stored path into the zip', async () => {
    const conn = server.db.orm.em.getConnection();
    for (const path of ['../escape.txt', '/etc/passwd', 'a/../../b.txt', 'C:\\evil.txt']) {
      await conn.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectA, path, 'x', 1]);
    }
    const res = await fetch(`${server.url}/api/projects/${projectA}/export`, { headers: { cookie: alice.cookieHeader() } });
    const names = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())));
    expect(names.some((n) => n.includes('..') || n.startsWith('/') || n.includes('\\') || n.includes(':'))).toBe(false);
    await conn.execute(`delete from project_files where project_id = ? and path in ('../escape.txt', '/etc/passwd', 'a/../../b.txt', 'C:\\evil.txt')`, [projectA]);
  });

  it('answers 404 to another user on every id route, and changes nothing', async () => {
    const folder = (await alice.post('/api/folders', { name: 'Secret', parentFolderId: null })).json.folder as { id: string };
    const probes: Array<[string, string, unknown?]> = [
      ['GET', `/api/projects/${projectA}`],
      ['DELETE', `/api/projects/${projectA}`],
      ['PUT', `/api/projects/${projectA}/folder`, { folderId: null }],
      ['GET', `/api/projects/${projectA}/export`],
      ['GET', `/api/projects/${projectA}/replit-code`],
      ['GET', `/api/projects/${projectA}/prompt-history`],
      ['PUT', `/api/folders/${folder.id}`, { name: 'Mine now' }],
      ['DELETE', `/api/folders/${folder.id}`],
      ['GET', `/api/folders/${folder.id}/projects`],
      ['POST', '/api/folders', { name: 'Inside', parentFolderId: folder.id }],
    ];
    for (const [method, path, body] of probes) {
      const res = await mallory.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // Mallory cannot move her own project into Alice's folder either.
    const own = await build(server, mallory, 'My own thing');
    expect((await mallory.request('PUT', `/api/projects/${own}/folder`, { folderId: folder.id })).status).toBe(404);
    expect((await alice.get(`/api/projects/${projectA}`)).status).toBe(200);
    expect(foldersReply.parse((await alice.get('/api/folders')).json).folders.find((f) => f.id === folder.id)?.name).toBe('Secret');
  });

  it('deletes a project', async () => {
    const doomed = await build(server, alice, 'Throwaway');
    expect((await alice.request('DELETE', `/api/projects/${doomed}`)).status).toBe(200);
    expect((await alice.get(`/api/projects/${doomed}`)).status).toBe(404);
    const list = projectsReply.parse((await alice.get('/api/projects')).json).projects;
    expect(list.some((p) => p.id === doomed)).toBe(false);
  });
});
