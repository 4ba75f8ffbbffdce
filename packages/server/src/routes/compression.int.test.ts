import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

/** A reply exactly as it crossed the wire (fetch would decompress it), read to its end. */
function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const BROWSER = 'gzip, deflate, br, zstd';

// What the compression middleware does in the real app: JSON over 1 KB compressed for clients that
// take it, small replies, the zip export and event streams sent as they are.
describe.each(testDatabases())('compressed replies on %s', (kind) => {
  let server: TestServer;
  let client: TestClient;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'squeezer', password: 'correct-horse' })).status).toBe(201);
    const conn = server.db.orm.em.getConnection();
    const [user] = (await conn.execute('select id from users where username_key = ?', ['squeezer'])) as Array<{ id: string }>;
    for (let i = 0; i < 30; i++) {
      const id = randomUUID();
      projectId ??= id;
      await conn.execute(
        `insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, ?, 1, 20, now(), now())`,
        [id, user!.id, `A habit tracker number ${i} with reminders and a dark mode`],
      );
    }
    await conn.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, 'index.html', '<p>hi</p>'.repeat(200), 1800]);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('compresses the project list (JSON over 1 KB) with gzip, says so, and varies by Accept-Encoding', async () => {
    const res = await rawRequest(`${server.url}/api/projects`, { headers: { cookie: client.cookieHeader(), 'accept-encoding': BROWSER } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const page = JSON.parse(gunzipSync(res.body).toString()) as { projects: unknown[] };
    expect(page.projects).toHaveLength(30);
    expect(res.body.length).toBeLessThan(JSON.stringify(page).length / 2);
  });

  it('sends the same list uncompressed to a client that does not ask for compression', async () => {
    const res = await rawRequest(`${server.url}/api/projects`, { headers: { cookie: client.cookieHeader() } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(res.body.toString()) as { projects: unknown[] }).projects).toHaveLength(30);
  });

  it('sends a reply under 1 KB as it is', async () => {
    const res = await rawRequest(`${server.url}/api/health`, { headers: { 'accept-encoding': BROWSER } });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toMatchObject({ ok: true });
  });

  it('never compresses the zip export', async () => {
    const res = await rawRequest(`${server.url}/api/projects/${projectId}/export`, { headers: { cookie: client.cookieHeader(), 'accept-encoding': BROWSER } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-encoding']).toBeUndefined();
    // A zip's local file header.
    expect(res.body.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });

  it('never compresses an event stream, live or replayed', async () => {
    const started = await rawRequest(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { cookie: client.cookieHeader(), 'accept-encoding': BROWSER, 'content-type': 'application/json' },
      body: JSON.stringify({ idea: 'A tiny timer page' }),
    });
    expect(started.status).toBe(200);
    expect(started.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(started.headers['content-encoding']).toBeUndefined();
    const text = started.body.toString();
    expect(text).toContain('"type":"complete"');
    const runId = /"runId":"([0-9a-f-]{36})"/.exec(text)![1]!;
    const replay = await rawRequest(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader(), 'accept-encoding': BROWSER } });
    expect(replay.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(replay.headers['content-encoding']).toBeUndefined();
    expect(replay.body.toString()).toContain('"type":"complete"');
  });
});
