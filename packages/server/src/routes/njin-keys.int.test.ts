import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { njinKeyCreatedReply, njinKeysReply, njinLicenseReply, njinSnippetReply, njinValidateReply } from '@wolfpack/core';
import { hashKey } from '../services/accounts/hash-key.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const sql = <T = Array<Record<string, unknown>>>(server: TestServer, text: string, params: unknown[] = []) => (server.db.orm.em.fork() as Sql).execute<T>(text, params);

describe.each(testDatabases())('njin API keys and licence on %s', (kind) => {
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  async function signUp(): Promise<{ client: TestClient; userId: string }> {
    const client = new TestClient(server.url);
    const username = `njinuser${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await sql<Array<{ id: string }>>(server, 'select id from users where username = ?', [username]);
    return { client, userId: row!.id };
  }
  const newKey = async (client: TestClient) => {
    const res = await client.post('/api/njin/keys');
    expect(res.status, res.text).toBe(201);
    return njinKeyCreatedReply.parse(res.json);
  };
  const activate = (userId: string, days = 30) =>
    sql(server, `insert into njin_licences (user_id, status, current_period_end, cancel_at_period_end, usage_count, created_at, updated_at) values (?, 'active', ?, false, 7, now(), now())
      on conflict (user_id) do update set status = 'active', current_period_end = excluded.current_period_end`, [userId, new Date(Date.now() + days * 86_400_000)]);

  it('issues njin_ keys shown once, keeps only their SHA-256 and lists them by prefix', async () => {
    const { client, userId } = await signUp();
    const a = await newKey(client);
    const b = await newKey(client);
    expect(a.apiKey).toMatch(/^njin_[0-9A-Za-z]{28}$/);
    expect(a.prefix).toBe(a.apiKey.slice(0, 11));
    const rows = await sql<Array<Record<string, unknown>>>(server, 'select * from njin_api_keys where user_id = ?', [userId]);
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.apiKey);
    expect(stored).not.toContain(a.apiKey.slice(11));
    expect(rows.map((r) => r.key_hash).sort()).toEqual([hashKey(a.apiKey), hashKey(b.apiKey)].sort());
    const { keys } = njinKeysReply.parse((await client.get('/api/njin/keys')).json);
    expect(keys.map((k) => k.id).sort()).toEqual([a.id, b.id].sort());
    expect(JSON.stringify(keys)).not.toContain(a.apiKey);
  });

  it('holds at most 10 live keys per user, however many are asked for at once; revoking one makes room', async () => {
    const { client } = await signUp();
    const replies = await Promise.all(Array.from({ length: 25 }, () => client.post('/api/njin/keys')));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(15);
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ error: 'You already have 10 active API keys, the most one account can hold. Revoke a key you no longer use, then create a new one.', code: 'CONFLICT' });
    }
    const { keys } = njinKeysReply.parse((await client.get('/api/njin/keys')).json);
    expect(keys).toHaveLength(10);
    expect((await client.request('DELETE', `/api/njin/keys/${keys[0]!.id}`)).status).toBe(204);
    await newKey(client);
    expect((await client.post('/api/njin/keys')).status).toBe(409);
    // Another user's keys are their own count.
    await newKey((await signUp()).client);
  });

  it('revokes a key: gone from the list, no longer valid, a second revoke is a 404', async () => {
    const { client, userId } = await signUp();
    await activate(userId);
    const key = await newKey(client);
    expect(njinValidateReply.parse((await client.post('/api/njin/validate', { apiKey: key.apiKey })).json)).toEqual({ valid: true, usageCount: 7 });
    expect((await client.request('DELETE', `/api/njin/keys/${key.id}`)).status).toBe(204);
    expect(njinKeysReply.parse((await client.get('/api/njin/keys')).json).keys).toEqual([]);
    expect(njinValidateReply.parse((await client.post('/api/njin/validate', { apiKey: key.apiKey })).json)).toEqual({ valid: false, error: 'Invalid License' });
    expect((await client.request('DELETE', `/api/njin/keys/${key.id}`)).status).toBe(404);
  });

  it("never lists, revokes or shows another user's keys or licence", async () => {
    const alice = await signUp();
    const bob = await signUp();
    await activate(alice.userId);
    const aliceKey = await newKey(alice.client);
    expect(njinKeysReply.parse((await bob.client.get('/api/njin/keys')).json).keys).toEqual([]);
    const res = await bob.client.request('DELETE', `/api/njin/keys/${aliceKey.id}`);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('This API key does not exist or was already revoked.');
    expect((await bob.client.request('DELETE', '/api/njin/keys/not-a-uuid')).status).toBe(404);
    // Whatever userId says, the caller's own licence: Bob has none.
    expect(njinLicenseReply.parse((await bob.client.get(`/api/njin/license?userId=${alice.userId}`)).json)).toEqual({ license: null });
    const own = njinLicenseReply.parse((await alice.client.get(`/api/njin/license?userId=${bob.userId}`)).json).license;
    expect(own).toMatchObject({ apiKey: `${aliceKey.prefix}…`, status: 'active', usageCount: 7 });
    expect(Date.parse(own!.expiresAt!)).toBeGreaterThan(Date.now());
    expect((await new TestClient(server.url).get('/api/njin/license?userId=1')).status).toBe(401);
  });

  it('catches a typo with the checksum before any lookup', async () => {
    const { client, userId } = await signUp();
    await activate(userId);
    const { apiKey } = await newKey(client);
    const typo = `${apiKey.slice(0, 8)}${apiKey[8] === 'x' ? 'y' : 'x'}${apiKey.slice(9)}`;
    // A row with the typo's hash would be found by a lookup: the checksum refuses the key first.
    await sql(server, `insert into njin_api_keys (id, user_id, prefix, key_hash, usage_count, rate_tokens, rate_updated_at, created_at) values (gen_random_uuid(), ?, 'njin_x', ?, 0, 10, now(), now())`, [userId, hashKey(typo)]);
    expect(njinValidateReply.parse((await client.post('/api/njin/validate', { apiKey: typo })).json)).toEqual({ valid: false, error: 'Invalid License' });
    expect((await client.get(`/api/njin/snippet?apiKey=${typo}`)).json.error).toMatch(/typo/);
  });

  it('validates only a key whose owner has an active, unexpired licence', async () => {
    const { client, userId } = await signUp();
    const { apiKey } = await newKey(client);
    const anon = new TestClient(server.url);
    expect(njinValidateReply.parse((await anon.post('/api/njin/validate', { apiKey })).json)).toMatchObject({ valid: false, error: 'Invalid License' });
    await activate(userId, -1);
    expect(njinValidateReply.parse((await anon.post('/api/njin/validate', { apiKey })).json)).toMatchObject({ valid: false, error: 'Invalid License' });
    expect(njinLicenseReply.parse((await client.get('/api/njin/license')).json).license?.status).toBe('inactive');
    await activate(userId, 3);
    expect(njinValidateReply.parse((await anon.post('/api/njin/validate', { apiKey })).json)).toEqual({ valid: true, usageCount: 7 });
    const empty = await anon.post('/api/njin/validate', { apiKey: '' });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatch(/Please enter your API key first/);
  });

  it('answers a snippet with curl and TypeScript calling this server with the key', async () => {
    const { client } = await signUp();
    const { apiKey } = await newKey(client);
    const reply = njinSnippetReply.parse((await new TestClient(server.url).get(`/api/njin/snippet?apiKey=${apiKey}`)).json);
    expect(reply.snippet).toContain(`curl -sS -X POST '${server.url}/api/njin/iterate'`);
    expect(reply.snippet).toContain(`Authorization: Bearer ${apiKey}`);
    expect(reply.snippet).toContain('```ts');
    expect((await client.get('/api/njin/snippet')).status).toBe(400);
  });

  it('shows no key as an empty apiKey on the licence', async () => {
    const { client, userId } = await signUp();
    await activate(userId);
    expect((await client.get('/api/njin/license')).json.license).toMatchObject({ apiKey: '', status: 'active' });
  });
});
