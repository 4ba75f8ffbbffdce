import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

// GET /api/wolfpack/runs/:id/events: who may follow a run's events, and where the replay starts.
describe.each(testDatabases())('opening a run stream on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });

  const start = async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_DEMO_DELAY_MS: '40' } });
    servers.push(server);
    return server;
  };
  const signedIn = async (server: TestServer, username: string) => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    return client;
  };
  /** A finished run of `client`'s: its id and how many events it has. */
  const finishedRun = async (server: TestServer, client: TestClient) => {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A stopwatch page', cycles: 1 }),
    });
    expect(events.at(-1)?.event.type).toBe('complete');
    const first = events[0]!.event;
    if (first.type !== 'run') throw new Error(`the first event was ${first.type}`);
    return { runId: first.runId, count: events.length };
  };
  const open = (server: TestServer, runId: string, headers: Record<string, string>, query = '') => readEvents(`${server.url}/api/wolfpack/runs/${runId}/events${query}`, { headers });
  const sql = (server: TestServer, query: string) => server.db.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(query, []);

  it('streams every event with the headers every reply carries, and sets no cookie', async () => {
    const server = await start();
    const client = await signedIn(server, 'events-owner');
    const { runId, count } = await finishedRun(server, client);
    const { status, headers, events } = await open(server, runId, { cookie: client.cookieHeader() });
    expect(status).toBe(200);
    expect(Object.fromEntries([...headers].filter(([name]) => name !== 'date' && name !== 'transfer-encoding'))).toEqual({
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'content-type': 'text/event-stream; charset=utf-8',
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'strict-origin-when-cross-origin',
      // From the compression middleware, which leaves event streams uncompressed.
      vary: 'Accept-Encoding',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(events.at(-1)!.event.type).toBe('complete');
  });

  it('resumes after the Last-Event-ID header, or the lastEventId query, the header first', async () => {
    const server = await start();
    const client = await signedIn(server, 'events-resume');
    const { runId, count } = await finishedRun(server, client);
    const cookie = client.cookieHeader();
    const after = async (headers: Record<string, string>, query = '') => (await open(server, runId, { cookie, ...headers }, query)).events.map((e) => e.id);
    const rest = (from: number) => Array.from({ length: count - from }, (_, i) => from + i + 1);
    expect(await after({ 'last-event-id': '3' })).toEqual(rest(3));
    expect(await after({}, '?lastEventId=5')).toEqual(rest(5));
    expect(await after({ 'last-event-id': '2' }, '?lastEventId=5')).toEqual(rest(2));
  });

  it("refuses whoever is not signed in (no cookie, a forged signature, signed out), another user's run, and a bad Last-Event-ID", async () => {
    const server = await start();
    const owner = await signedIn(server, 'events-a');
    const other = await signedIn(server, 'events-b');
    const { runId } = await finishedRun(server, owner);
    const notSignedIn = 'You are not signed in. Sign in and try again.';

    const anonymous = await open(server, runId, {});
    expect([anonymous.status, JSON.parse(anonymous.body!).error]).toEqual([401, notSignedIn]);

    const forged = owner.cookieHeader().replace(/wolfpack\.sid\.sig=[^;]*/, 'wolfpack.sid.sig=AAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const bad = await open(server, runId, { cookie: forged });
    expect([bad.status, JSON.parse(bad.body!).error]).toEqual([401, notSignedIn]);

    const notTheirs = await open(server, runId, { cookie: other.cookieHeader() });
    expect([notTheirs.status, JSON.parse(notTheirs.body!).error]).toEqual([404, 'Run not found']);

    for (const [headers, query] of [[{ 'last-event-id': 'abc' }, ''], [{}, '?lastEventId=-1'], [{}, '?lastEventId=1.5']] as const) {
      const malformed = await open(server, runId, { cookie: owner.cookieHeader(), ...headers }, query);
      expect([malformed.status, JSON.parse(malformed.body!).error]).toEqual([400, 'Last-Event-ID must be the number of the last event you received.']);
    }

    const cookie = owner.cookieHeader();
    expect((await owner.post('/api/auth/logout', {})).status).toBeLessThan(300);
    const signedOut = await open(server, runId, { cookie });
    expect([signedOut.status, JSON.parse(signedOut.body!).error]).toEqual([401, notSignedIn]);
  });

  it('streams to a personal API token', async () => {
    const server = await start();
    const client = await signedIn(server, 'events-token');
    const { runId, count } = await finishedRun(server, client);
    const created = await new TestClient(server.url).post('/api/auth/tokens', { username: 'events-token', password: 'correct-horse', name: 'ci' });
    expect(created.status).toBe(201);
    const { status, events } = await open(server, runId, { authorization: `Bearer ${created.json.token as string}` });
    expect(status).toBe(200);
    expect(events).toHaveLength(count);
  });

  it("pushes back a session's idle deadline when it is due, with its cookie, and not again a minute within", async () => {
    const server = await start();
    const client = await signedIn(server, 'events-touch');
    const { runId, count } = await finishedRun(server, client);
    await sql(server, `update sessions set data = jsonb_set(data::jsonb, '{lastSeen}', '1')`);
    const due = await open(server, runId, { cookie: client.cookieHeader() });
    expect(due.status).toBe(200);
    expect(due.events).toHaveLength(count);
    expect(due.headers.getSetCookie().some((c) => c.startsWith('wolfpack.sid='))).toBe(true);
    const [row] = await sql(server, `select data::text as data from sessions`);
    const lastSeen = (JSON.parse(String(row!.data)) as { lastSeen: number }).lastSeen;
    expect(Date.now() - lastSeen).toBeLessThan(60_000);

    const fresh = await open(server, runId, { cookie: client.cookieHeader() });
    expect(fresh.events).toHaveLength(count);
    expect(fresh.headers.getSetCookie()).toEqual([]);
  });
});
