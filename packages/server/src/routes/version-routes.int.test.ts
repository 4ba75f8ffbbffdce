/**
 * A project's versions through the server, on a project two real runs made (a build and a
 * continuation, through a fake OpenAI server): the list, a version's files, diffs, restores,
 * edits, renames and deletes as new versions, stale and concurrent changes, another user's and
 * a visitor's requests, malformed input, and the export of an earlier version.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diffFileMaps,
  projectDetailReply,
  versionChangeReply,
  versionDiffReply,
  versionFilesReply,
  versionsReply,
  type ChatMessage,
  type PipelineEvent,
  type VerificationRecord,
} from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('versions API on %s', (kind) => {
  let fake: OpenAIFakeServer;
  let server: TestServer;
  let owner: TestClient;
  let other: TestClient;
  let projectId: string;
  let v1Verification: VerificationRecord | null;
  let v1Files: Record<string, string>;
  let v2Files: Record<string, string>;

  const run = async (body: unknown): Promise<Extract<PipelineEvent, { type: 'complete' }>> => {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookieHeader() },
      body: JSON.stringify(body),
    });
    const last = events.at(-1)!.event;
    if (last.type !== 'complete') throw new Error(`the run ended with ${JSON.stringify(last)}`);
    return last;
  };
  const put = (client: TestClient, path: string, body: unknown) => client.request('PUT', `/api/projects/${projectId}/files/${path}`, body);
  const del = (client: TestClient, path: string, expectedVersion: number | string) =>
    client.request('DELETE', `/api/projects/${projectId}/files/${path}?expectedVersion=${expectedVersion}`);
  const filesOf = async (n: number) => versionFilesReply.parse((await owner.get(`/api/projects/${projectId}/versions/${n}`)).json).files;
  const current = async () => versionsReply.parse((await owner.get(`/api/projects/${projectId}/versions`)).json).current;

  beforeAll(async () => {
    fake = await startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }),
    });
    server = await startTestServer(kind, {
      env: {
        WOLFPACK_SANDBOX: 'off',
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
    owner = new TestClient(server.url);
    expect((await owner.post('/api/auth/register', { username: 'versioner', password: 'correct-horse' })).status).toBe(201);
    other = new TestClient(server.url);
    expect((await other.post('/api/auth/register', { username: 'nosy', password: 'correct-horse' })).status).toBe(201);
    projectId = (await run({ idea: 'A habit tracker' })).projectId;
    const detail = projectDetailReply.parse((await owner.get(`/api/projects/${projectId}`)).json);
    v1Verification = detail.verification ?? null;
    expect(detail.version).toBe(1);
    await run({ idea: 'A recipe box with tags', projectId });
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    await fake?.close();
  });

  it('lists the versions newest first, each with its source, run, verdict and counts', async () => {
    const res = await owner.get(`/api/projects/${projectId}/versions`);
    expect(res.status).toBe(200);
    const reply = versionsReply.parse(res.json);
    expect(reply.current).toBe(2);
    expect(reply.versions.map((v) => [v.number, v.label, v.current])).toEqual([
      [2, 'Continue: A recipe box with tags', true],
      [1, 'Build', false],
    ]);
    const [v2, v1] = reply.versions;
    expect(v1).toMatchObject({ source: { kind: 'build' }, fileCount: 4, added: 4, changed: 0, removed: 0, verdict: v1Verification?.verdict ?? null });
    expect(v1!.runId).toEqual(expect.any(String));
    expect(v2!.runId).toEqual(expect.any(String));
    expect(v2!.runId).not.toBe(v1!.runId);
    expect(Date.parse(v2!.createdAt)).toBeGreaterThanOrEqual(Date.parse(v1!.createdAt));
  });

  it("gives a version's files, and one file of it", async () => {
    v1Files = await filesOf(1);
    v2Files = await filesOf(2);
    expect(Object.keys(v1Files)).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    expect(v1Files['README.md']).toContain('habit');
    expect(v2Files).not.toEqual(v1Files);
    // The current version is the project's working copy.
    const working = await owner.get(`/api/projects/${projectId}/versions/2?path=app.js`);
    expect(versionFilesReply.parse(working.json)).toMatchObject({ version: { number: 2, current: true }, files: { 'app.js': v2Files['app.js'] } });
    expect(Object.keys(versionFilesReply.parse(working.json).files)).toEqual(['app.js']);

    const missing = await owner.get(`/api/projects/${projectId}/versions/1?path=src/x.ts`);
    expect([missing.status, missing.json.error]).toEqual([404, 'Version 1 has no file src/x.ts.']);
    const noVersion = await owner.get(`/api/projects/${projectId}/versions/9`);
    expect([noVersion.status, noVersion.json.error]).toEqual([404, 'This project has no version 9: its versions are 1 to 2.']);
  });

  it('diffs a version against its parent, against any other version, and against nothing', async () => {
    const res = await owner.get(`/api/projects/${projectId}/versions/2/diff`);
    expect(res.status).toBe(200);
    const parent = versionDiffReply.parse(res.json);
    expect(parent).toEqual({ from: 1, to: 2, ...diffFileMaps(v1Files, v2Files) });
    expect(parent.changed).toBeGreaterThan(0);
    expect(parent.files[0]!.patch).toMatch(/^--- a\/\S+\n\+\+\+ b\/\S+\n@@ /);

    const againstCurrent = versionDiffReply.parse((await owner.get(`/api/projects/${projectId}/versions/1/diff?against=2`)).json);
    expect(againstCurrent).toEqual({ from: 2, to: 1, ...diffFileMaps(v2Files, v1Files) });

    const fromNothing = versionDiffReply.parse((await owner.get(`/api/projects/${projectId}/versions/1/diff?against=0`)).json);
    expect([fromNothing.from, fromNothing.added, fromNothing.changed, fromNothing.removed]).toEqual([0, 4, 0, 0]);
    expect(fromNothing.files.every((f) => f.status === 'added' && f.before === null && f.patch.startsWith('--- /dev/null\n'))).toBe(true);
    // Version 1's parent is nothing.
    expect(versionDiffReply.parse((await owner.get(`/api/projects/${projectId}/versions/1/diff`)).json)).toEqual(fromNothing);

    const bad = await owner.get(`/api/projects/${projectId}/versions/2/diff?against=5`);
    expect([bad.status, bad.json.error]).toEqual([404, 'This project has no version 5: its versions are 1 to 2.']);
  });

  it('writes, renames and deletes a file, each a version "Edited by you"; a stale version is a 409', async () => {
    const written = await put(owner, 'src%2Fnotes.md', { content: '# Notes\n', expectedVersion: 2 });
    expect(written.status).toBe(201);
    const v3 = versionChangeReply.parse(written.json);
    expect(v3.version).toMatchObject({ number: 3, label: 'Edited by you', source: { kind: 'edit' }, runId: null, current: true, added: 1, changed: 0, removed: 0, fileCount: 5 });
    expect(await filesOf(3)).toEqual({ ...v2Files, 'src/notes.md': '# Notes\n' });
    // The working copy follows: the project's page lists the new file.
    expect(projectDetailReply.parse((await owner.get(`/api/projects/${projectId}`)).json)).toMatchObject({ version: 3 });

    const stale = await put(owner, 'src/notes.md', { content: 'lost\n', expectedVersion: 2 });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatch(/3/);
    expect(await current()).toBe(3);

    const renamed = await put(owner, 'docs/notes.md', { content: '# Notes\n\nMoved.\n', expectedVersion: 3, renameFrom: './src/notes.md' });
    expect(renamed.status).toBe(201);
    expect(versionChangeReply.parse(renamed.json).version).toMatchObject({ number: 4, added: 1, removed: 1, fileCount: 5 });
    const v4Files = await filesOf(4);
    expect(v4Files['docs/notes.md']).toBe('# Notes\n\nMoved.\n');
    expect(v4Files).not.toHaveProperty('src/notes.md');

    const onto = await put(owner, 'app.js', { content: 'x', expectedVersion: 4, renameFrom: 'docs/notes.md' });
    expect([onto.status, onto.json.error]).toEqual([409, 'app.js exists already: pick another name, or delete it first.']);
    const ghost = await put(owner, 'b.md', { content: 'x', expectedVersion: 4, renameFrom: 'nowhere.md' });
    expect([ghost.status, ghost.json.error]).toEqual([404, 'Version 4 has no file nowhere.md to rename.']);

    const deleted = await del(owner, 'docs%2Fnotes.md', 4);
    expect(deleted.status).toBe(200);
    expect(versionChangeReply.parse(deleted.json).version).toMatchObject({ number: 5, label: 'Edited by you', removed: 1, fileCount: 4 });
    expect(await filesOf(5)).toEqual(v2Files);
    const gone = await del(owner, 'docs/notes.md', 5);
    expect([gone.status, gone.json.error]).toEqual([404, 'Version 5 has no file docs/notes.md.']);
    expect((await del(owner, 'app.js', 4)).status).toBe(409);
    expect(await current()).toBe(5);
  });

  it('restores an earlier version as a new one, keeping the history and its verification', async () => {
    const res = await owner.post(`/api/projects/${projectId}/versions/1/restore`, { expectedVersion: 5 });
    expect(res.status).toBe(201);
    const restored = versionChangeReply.parse(res.json);
    expect(restored.version).toMatchObject({ number: 6, label: 'Restored from version 1', source: { kind: 'restore', from: 1 }, current: true, runId: null });
    // Version 1's record, now the record of version 6: the same files, checked once.
    expect(v1Verification).not.toBeNull();
    expect(restored.verification).toEqual({ ...v1Verification, version: 6 });
    expect(projectDetailReply.parse((await owner.get(`/api/projects/${projectId}`)).json).verification).toEqual(restored.verification);
    expect(await filesOf(6)).toEqual(v1Files);
    const list = versionsReply.parse((await owner.get(`/api/projects/${projectId}/versions`)).json);
    expect(list.versions.map((v) => v.number)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(list.versions[0]!.verdict).toBe(v1Verification?.verdict ?? null);
    // The project's files are version 1's again; nothing in between is lost.
    const detail = projectDetailReply.parse((await owner.get(`/api/projects/${projectId}`)).json);
    expect(detail.files.sort()).toEqual(Object.keys(v1Files));
    expect(await filesOf(3)).toHaveProperty(['src/notes.md']);

    const again = await owner.post(`/api/projects/${projectId}/versions/6/restore`, {});
    expect([again.status, again.json.error]).toEqual([409, 'Version 6 is the current version already.']);
    const stale = await owner.post(`/api/projects/${projectId}/versions/2/restore`, { expectedVersion: 5 });
    expect(stale.status).toBe(409);
    expect(await current()).toBe(6);
  });

  it('takes exactly one of two edits made on the same version at once', async () => {
    const [a, b] = await Promise.all([
      put(owner, 'first.txt', { content: 'one\n', expectedVersion: 6 }),
      put(owner, 'second.txt', { content: 'two\n', expectedVersion: 6 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(await current()).toBe(7);
    const files = await filesOf(7);
    expect(Object.hasOwn(files, 'first.txt') !== Object.hasOwn(files, 'second.txt')).toBe(true);
  });

  it("exports an earlier version's files, and the current ones without ?version", async () => {
    const zipOf = async (query: string) => {
      const res = await fetch(`${server.url}/api/projects/${projectId}/export${query}`, { headers: { cookie: owner.cookieHeader() } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
      return Object.fromEntries(Object.entries(entries).map(([path, bytes]) => [path, Buffer.from(bytes).toString('utf8')]));
    };
    expect(await zipOf('?version=2')).toEqual(v2Files);
    expect(await zipOf('?version=1')).toEqual(v1Files);
    const now = await current();
    expect(await zipOf('')).toEqual(await filesOf(now));
    expect(await zipOf(`?version=${now}`)).toEqual(await filesOf(now));
    expect((await owner.get(`/api/projects/${projectId}/export?version=99`)).status).toBe(404);
    expect((await owner.get(`/api/projects/${projectId}/export?version=abc`)).status).toBe(400);
  });

  it("gives another user 404 and a visitor 401 on every route, and changes nothing", async () => {
    const before = await current();
    const visitor = new TestClient(server.url);
    const calls = (client: TestClient) => [
      client.get(`/api/projects/${projectId}/versions`),
      client.get(`/api/projects/${projectId}/versions/1`),
      client.get(`/api/projects/${projectId}/versions/1?path=app.js`),
      client.get(`/api/projects/${projectId}/versions/2/diff`),
      client.post(`/api/projects/${projectId}/versions/1/restore`, {}),
      client.request('PUT', `/api/projects/${projectId}/files/app.js`, { content: 'stolen', expectedVersion: before }),
      client.request('DELETE', `/api/projects/${projectId}/files/app.js?expectedVersion=${before}`),
      client.get(`/api/projects/${projectId}/export?version=1`),
    ];
    for (const res of await Promise.all(calls(other))) expect([res.status, res.json?.error]).toEqual([404, 'Project not found']);
    for (const res of await Promise.all(calls(visitor))) expect(res.status).toBe(401);
    expect(await current()).toBe(before);
    // Unknown and malformed project ids are the same 404.
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await owner.get(`/api/projects/${id}/versions`)).status).toBe(404);
      expect((await owner.request('PUT', `/api/projects/${id}/files/a.txt`, { content: 'x', expectedVersion: 1 })).status).toBe(404);
    }
  });

  it('answers malformed input with a 400 that says what to send, never a 500', async () => {
    const now = await current();
    for (const n of ['abc', '0', '-1', '1e99', '1.5', '99999999999']) {
      for (const path of [`versions/${n}`, `versions/${n}/diff`]) {
        const res = await owner.get(`/api/projects/${projectId}/${path}`);
        expect([res.status, path]).toEqual([400, path]);
        expect(res.json.error).toMatch(/version/i);
      }
      expect((await owner.post(`/api/projects/${projectId}/versions/${n}/restore`, {})).status).toBe(400);
    }
    for (const against of ['-1', 'x', '1.5']) expect((await owner.get(`/api/projects/${projectId}/versions/1/diff?against=${against}`)).status).toBe(400);
    expect((await owner.get(`/api/projects/${projectId}/versions/1?path=${'a'.repeat(1100)}`)).status).toBe(400);
    expect((await owner.post(`/api/projects/${projectId}/versions/1/restore`, { expectedVersion: 'soon' })).status).toBe(400);

    const unsafe = await put(owner, '..%2Fescape.txt', { content: 'x', expectedVersion: now });
    expect(unsafe.status).toBe(400);
    expect(unsafe.json.error).toBe('"../escape.txt" is not a safe file path: it contains ".." and would leave the project folder');
    expect((await put(owner, 'a.txt', { content: 'x', expectedVersion: now, renameFrom: '/etc/passwd' })).json.error).toMatch(/is absolute/);
    expect((await put(owner, '%E0%A4%A', { content: 'x', expectedVersion: now })).json.error).toMatch(/percent-encoding/);
    expect((await put(owner, 'a.txt', { expectedVersion: now })).json.error).toMatch(/content/);
    expect((await put(owner, 'a.txt', { content: 5, expectedVersion: now })).status).toBe(400);
    expect((await put(owner, 'a.txt', { content: 'x' })).json.error).toMatch(/version/i);
    expect((await put(owner, 'a.txt', 'not json{')).status).toBe(400);
    expect((await owner.request('PUT', `/api/projects/${projectId}/files/a.txt`, 'x', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await owner.request('DELETE', `/api/projects/${projectId}/files/app.js`)).json.error).toMatch(/version/i);
    expect((await del(owner, 'app.js', 'abc')).status).toBe(400);

    const big = await put(owner, 'big.txt', { content: 'x'.repeat(1024 * 1024 + 1), expectedVersion: now });
    expect([big.status, big.json.error]).toEqual([413, 'big.txt would be 1,048,577 bytes: a file can be at most 1,048,576 bytes (1 MiB).']);
    const huge = await put(owner, 'huge.txt', { content: 'x'.repeat(8 * 1024 * 1024), expectedVersion: now });
    expect(huge.status).toBe(413);
    // Exactly the limit is a file like any other.
    const full = await put(owner, 'full.txt', { content: 'é'.repeat(512 * 1024), expectedVersion: now });
    expect(full.status).toBe(201);
    expect(await current()).toBe(now + 1);
  });
});
