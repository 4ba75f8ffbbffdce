/**
 * DatabaseSessionStore's reads: sessions asked for in one turn of the event loop are read in one
 * statement (a crowd of signed-in requests), each request getting its own session and its own
 * user, never a neighbour's; a session gone before the turn is not found; more keys than one
 * statement takes are split, none lost. Against the test server's real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/core';
import { nativeClientOf } from '../../db/native-client.js';
import { openDatabase, type Database } from '../../db/orm.js';
import { TestClient } from '../../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../../testing/test-server.js';
import { DatabaseSessionStore } from './session-store.js';

const DAY = 86_400_000;

describe.each(testDatabases())('session reads on %s', (kind) => {
  let server: TestServer;
  let store: DatabaseSessionStore;
  let storeOrm: MikroORM;
  /** On PostgreSQL the store has a pool of its own, so that the statements counted are its alone (not the server's sweeps). */
  let own: Database | undefined;
  let users = 0;
  beforeAll(async () => {
    server = await startTestServer(kind);
    own = kind === 'postgres' ? await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir }) : undefined;
    storeOrm = own?.orm ?? server.db.orm;
    store = new DatabaseSessionStore(storeOrm, { idleMs: DAY, absoluteMs: 30 * DAY });
  });
  afterAll(async () => {
    await own?.close();
    await server?.dispose();
  });

  /** A user signed up through the API, with the key of their session (the cookie's value). */
  async function signedUp(): Promise<{ client: TestClient; username: string; key: string }> {
    const client = new TestClient(server.url);
    const username = `reader${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const key = /wolfpack\.sid=([^;]+)/.exec(client.cookieHeader())?.[1];
    expect(key).toBeDefined();
    return { client, username, key: key! };
  }

  /** How many statements PostgreSQL's pool ran while `work` ran (each takes a connection); undefined on PGlite. */
  async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number | undefined }> {
    const native = await nativeClientOf(storeOrm.em.getConnection());
    if (native?.kind !== 'postgres') return { result: await work(), statements: undefined };
    let statements = 0;
    const count = () => statements++;
    native.pool.on('acquire', count);
    try {
      return { result: await work(), statements };
    } finally {
      native.pool.off('acquire', count);
    }
  }

  it('reads the sessions asked for in one turn in one statement, each with its own user', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, signedUp));
    const unknown = 'x'.repeat(43);
    const { result, statements } = await statementsDuring(() => Promise.all([...people.map((p) => store.getWithUser(p.key)), store.getWithUser(unknown), store.getWithUser(people[2]!.key)]));
    expect(result.map((r) => r.user?.username)).toEqual([...people.map((p) => p.username), undefined, people[2]!.username]);
    for (const i of people.keys()) expect(result[i]!.session).toMatchObject({ userId: result[i]!.user!.id, createdAt: expect.any(Number) });
    expect(new Set(people.map((_, i) => result[i]!.user!.id)).size).toBe(people.length);
    expect(result[6]).toEqual({});
    if (kind === 'postgres') expect(statements).toBe(1);
  });

  it('gives two requests on one session copies of their own', async () => {
    const { key } = await signedUp();
    const [a, b] = await Promise.all([store.getWithUser(key), store.getWithUser(key)]);
    a.session!.lastSeen = 1;
    a.user!.username = 'changed';
    expect(b.session!.lastSeen).not.toBe(1);
    expect(b.user!.username).not.toBe('changed');
  });

  it('does not find a session ended before the turn, while its neighbours in the turn are found', async () => {
    const [gone, stays] = await Promise.all([signedUp(), signedUp()]);
    await store.destroy(gone.key);
    const [a, b] = await Promise.all([store.getWithUser(gone.key), store.getWithUser(stays.key)]);
    expect(a).toEqual({});
    expect(b.user?.username).toBe(stays.username);
  });

  it('splits more keys than one statement takes, and loses none', async () => {
    const people = await Promise.all(Array.from({ length: 3 }, signedUp));
    const keys = Array.from({ length: 150 }, (_, i) => (i % 50 === 7 ? people[Math.floor(i / 50)]!.key : `unknown-${i}`.padEnd(43, 'k')));
    const { result, statements } = await statementsDuring(() => Promise.all(keys.map((key) => store.getWithUser(key))));
    expect(result.map((r, i) => (r.user ? `${i}:${r.user.username}` : undefined)).filter(Boolean)).toEqual(people.map((p, n) => `${n * 50 + 7}:${p.username}`));
    if (kind === 'postgres') expect(statements).toBe(3);
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

  // A lock that holds even reads (ACCESS EXCLUSIVE) keeps the first reads out on PostgreSQL; PGlite
  // has one connection, which the lock would hold too, so there the test is not made.
  if (kind === 'postgres') it('keys asked for while two reads are out wait for one and go together, in order, none lost', async () => {
    const people = await Promise.all(Array.from({ length: 7 }, signedUp));
    const native = await nativeClientOf(server.db.orm.em.getConnection());
    if (native?.kind !== 'postgres') throw new Error('expected a PostgreSQL pool');
    const locker = await native.pool.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table sessions in access exclusive mode');
      const { result, statements } = await statementsDuring(async () => {
        const turn = () => new Promise((resolve) => setImmediate(resolve));
        // Two turns, two reads out (both wait at the lock) ...
        const first = store.getWithUser(people[0]!.key);
        await turn();
        const second = store.getWithUser(people[1]!.key);
        await turn();
        // ... then five keys in five turns of their own: one batch, waiting for a read to come back.
        const rest: Array<ReturnType<DatabaseSessionStore['getWithUser']>> = [];
        for (const person of people.slice(2)) {
          rest.push(store.getWithUser(person.key));
          await turn();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        await locker.query('commit');
        return Promise.all([first, second, ...rest]);
      });
      expect(result.map((r) => r.user?.username)).toEqual(people.map((p) => p.username));
      expect(statements).toBe(3);
    } finally {
      await locker.query('rollback').catch(() => {});
      locker.release();
    }
  });
});
