/**
 * DatabaseSessionStore against the test server's real database: each read answers its own
 * session with its own user, never a neighbour's; a session ended or past its idle or absolute
 * deadline is not found (the store's clock is set, not waited for), and its row is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../../testing/test-server.js';
import { hashKey } from './hash-key.js';
import { DatabaseSessionStore } from './session-store.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(testDatabases())('session store on %s', (kind) => {
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  /** A store on the server's database whose clock reads `clock.now`. */
  function storeAt(clock: { now: number }, idleMs = DAY, absoluteMs = 30 * DAY): DatabaseSessionStore {
    return new DatabaseSessionStore(server.db.orm, { idleMs, absoluteMs, now: () => clock.now });
  }

  /** A user signed up through the API, with the key of their session (the cookie's value). */
  async function signedUp(): Promise<{ client: TestClient; username: string; key: string }> {
    const client = new TestClient(server.url);
    const username = `reader${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const key = /wolfpack\.sid=([^;]+)/.exec(client.cookieHeader())?.[1];
    expect(key).toBeDefined();
    return { client, username, key: key! };
  }

  async function rowsOf(key: string): Promise<number> {
    const rows: unknown[] = await server.db.orm.em.fork().getConnection().execute('select 1 from sessions where key_hash = ?', [hashKey(key)]);
    return rows.length;
  }

  it('reads each session with its own user, at once, and nothing for a key it does not hold', async () => {
    const store = storeAt({ now: Date.now() });
    const people = await Promise.all(Array.from({ length: 6 }, signedUp));
    const unknown = 'x'.repeat(43);
    const result = await Promise.all([...people.map((p) => store.getWithUser(p.key)), store.getWithUser(unknown), store.getWithUser(people[2]!.key)]);
    expect(result.map((r) => r.user?.username)).toEqual([...people.map((p) => p.username), undefined, people[2]!.username]);
    for (const i of people.keys()) expect(result[i]!.session).toMatchObject({ userId: result[i]!.user!.id, createdAt: expect.any(Number) });
    expect(new Set(people.map((_, i) => result[i]!.user!.id)).size).toBe(people.length);
    expect(result[6]).toEqual({});
  });

  it('gives two requests on one session copies of their own', async () => {
    const store = storeAt({ now: Date.now() });
    const { key } = await signedUp();
    const [a, b] = await Promise.all([store.getWithUser(key), store.getWithUser(key)]);
    a.session!.lastSeen = 1;
    a.user!.username = 'changed';
    expect(b.session!.lastSeen).not.toBe(1);
    expect(b.user!.username).not.toBe('changed');
  });

  it('does not find a session ended before the read, while the others are found', async () => {
    const store = storeAt({ now: Date.now() });
    const [gone, stays] = await Promise.all([signedUp(), signedUp()]);
    await store.destroy(gone.key);
    const [a, b] = await Promise.all([store.getWithUser(gone.key), store.getWithUser(stays.key)]);
    expect(a).toEqual({});
    expect(b.user?.username).toBe(stays.username);
  });

  it('ends a session once it was unused for the idle time, and a session in use at its absolute deadline', async () => {
    const clock = { now: Date.now() };
    const store = storeAt(clock, 30 * MINUTE, 2 * 60 * MINUTE);
    const [idle, busy] = await Promise.all([signedUp(), signedUp()]);
    const created = clock.now;
    for (const { key } of [idle, busy]) await store.set(key, { userId: (await store.getWithUser(key)).user!.id, createdAt: created });

    // One minute before the idle deadline: both are there; the busy one is used (set again).
    clock.now = created + 29 * MINUTE;
    expect((await store.getWithUser(idle.key)).user?.username).toBe(idle.username);
    const used = await store.getWithUser(busy.key);
    await store.set(busy.key, used.session!);

    // Past the idle deadline: the unused one is gone, row and all; the used one goes on.
    clock.now = created + 31 * MINUTE;
    expect(await store.getWithUser(idle.key)).toEqual({});
    expect(await rowsOf(idle.key)).toBe(0);
    expect((await store.getWithUser(busy.key)).user?.username).toBe(busy.username);

    // Used every 25 minutes, it still ends at its absolute deadline (two hours after its start).
    for (let at = 50; at < 120; at += 25) {
      clock.now = created + at * MINUTE;
      const again = await store.getWithUser(busy.key);
      expect(again.user?.username).toBe(busy.username);
      await store.set(busy.key, again.session!);
    }
    clock.now = created + 119 * MINUTE;
    expect((await store.getWithUser(busy.key)).user?.username).toBe(busy.username);
    clock.now = created + 120 * MINUTE;
    expect(await store.getWithUser(busy.key)).toEqual({});
    expect(await rowsOf(busy.key)).toBe(0);
  });

  it('sweeps the sessions whose deadline passed by its clock, and only those', async () => {
    const clock = { now: Date.now() };
    const store = storeAt(clock, 30 * MINUTE);
    const [old, fresh] = await Promise.all([signedUp(), signedUp()]);
    await store.set(old.key, { userId: (await store.getWithUser(old.key)).user!.id });
    clock.now += 20 * MINUTE;
    await store.set(fresh.key, { userId: (await store.getWithUser(fresh.key)).user!.id });
    clock.now += 15 * MINUTE;
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(old.key)).toBe(0);
    expect(await rowsOf(fresh.key)).toBe(1);
  });

  it('answers a crowd of signed-in requests at once, each as its own user, and a signed-out one as nobody', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, signedUp));
    // The cookie of a session that then signs out, replayed in the crowd.
    const replay = new TestClient(server.url);
    replay.setCookieHeader(people[5]!.client.cookieHeader());
    expect((await people[5]!.client.post('/api/auth/logout', {})).status).toBeLessThan(300);
    const answers = await Promise.all(people.map((p, i) => (i === 5 ? replay : p.client).get('/api/auth/me')));
    expect(answers.map((a) => (a.status === 200 ? (a.json as { user: { username: string } }).user.username : a.status))).toEqual(
      people.map((p, i) => (i === 5 ? 401 : p.username)),
    );
  });
});
