/**
 * An active session's idle deadline is pushed back once a minute, by whatever request comes:
 * also by one that answers with an event stream, whose headers leave before the route ends.
 * The push must reach both the store and the browser (a fresh cookie), and nothing may fail
 * after the headers are out (it used to: ERR_HTTP_HEADERS_SENT from the session's late commit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

describe.each(testDatabases())('session touched by an event stream on %s', (kind) => {
  let server: TestServer;
  const problems: string[] = [];
  beforeAll(async () => {
    const note = (message: string, error?: unknown) => problems.push(`${message}${error ? `: ${(error as Error).message ?? String(error)}` : ''}`);
    server = await startTestServer(kind, { logger: { info: () => {}, warn: note, error: note } });
  });
  afterAll(() => server?.dispose());

  const sql = <T>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text, params);

  /** The user's one session as stored: its data (json comes back as text or parsed, by driver), when it was last touched and when it expires. */
  async function stored(userId: string) {
    const [row] = await sql<Array<{ data: Record<string, unknown> | string; expires_at: Date | string }>>('select data, expires_at from sessions where user_id = ?', [userId]);
    const data = typeof row!.data === 'string' ? (JSON.parse(row!.data) as Record<string, unknown>) : row!.data;
    return { data, lastSeen: typeof data.lastSeen === 'number' ? data.lastSeen : 0, expiresAt: new Date(row!.expires_at).getTime() };
  }

  it.each([
    ['a run', '/api/wolfpack/stream', { idea: 'A habit tracker', modelOrder: [], cycles: 1 }, '"type":"complete"'],
    ['an enhancement', '/api/multi-pass-enhancements', { prompt: 'a habit tracker' }, '"type":"complete"'],
  ])('%s answered as a stream refreshes the cookie and the stored deadline, and logs nothing', async (_what, path, body, last) => {
    const client = new TestClient(server.url);
    const username = `touch${Math.random().toString(36).slice(2, 10)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const userId = (await sql<Array<{ id: string }>>('select id from users where username = ?', [username]))[0]!.id;
    // The last touch two minutes ago, the deadline near: this request must push both back.
    const aged = Date.now() - 120_000;
    const { data } = await stored(userId);
    await sql('update sessions set data = cast(? as json), expires_at = ? where user_id = ?', [JSON.stringify({ ...data, lastSeen: aged }), new Date(Date.now() + 5_000), userId]);
    const before = await stored(userId);
    expect(before.lastSeen).toBe(aged);
    problems.length = 0;

    const started = Date.now();
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const finished = Date.now();
    expect(res.status, text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toContain(last);
    // The browser's cookie is renewed with the stream's headers: same session, a new expiry.
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wolfpack.sid='));
    expect(cookie, res.headers.getSetCookie().join('\n')).toBeDefined();
    expect(cookie).toContain(client.cookieHeader().match(/wolfpack\.sid=([^;]+)/)![1]!);
    const after = await stored(userId);
    // Touched by this request: between the clock readings on either side of it.
    expect(after.lastSeen).toBeGreaterThanOrEqual(started);
    expect(after.lastSeen).toBeLessThanOrEqual(finished);
    expect(after.expiresAt).toBeGreaterThan(before.expiresAt + 60_000);
    // Give a late commit (a session saved after the answer went out) the time to happen and be logged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(problems).toEqual([]);
    // The session still works.
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });
});
