import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { PASSWORD_COST } from '../services/accounts/password.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const register = (c: TestClient, username = 'alice', password = 'correct-horse') =>
  c.post('/api/auth/register', { username, password });

describe.each(testDatabases())('accounts and sessions on %s', (kind) => {
  let server: TestServer;
  let client: TestClient;

  beforeEach(async () => {
    server = await startTestServer(kind);
    client = new TestClient(server.url);
  });
  afterEach(async () => {
    await server.dispose();
  });

  it('registers, signs the user in, and answers me', async () => {
    const res = await register(client);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, error: '', user: { username: 'alice', plan: 'Free' } });
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/wolfpack\.sid=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=lax/i);
    expect(setCookie).not.toMatch(/secure/i);
    const me = await client.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ user: { username: 'alice', plan: 'Free' } });
  });

  it('stores only an scrypt hash of the password, at OWASP\'s cost, and signs in with it', async () => {
    // The other tests' servers hash at a test cost (TEST_PASSWORD_COST); this one is a real server's.
    const real = await startTestServer(kind, { passwordCost: PASSWORD_COST });
    try {
      const realClient = new TestClient(real.url);
      expect((await register(realClient, 'bob', 'a-long-password')).status).toBe(201);
      const rows = await real.db.orm.em.getConnection().execute('select password_hash from users');
      expect(rows).toHaveLength(1);
      const hash = String(rows[0]!.password_hash);
      expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(hash).not.toContain('a-long-password');
      const login = (password: string) => new TestClient(real.url).post('/api/auth/login', { username: 'bob', password });
      expect((await login('a-long-password')).status).toBe(200);
      expect((await login('a-wrong-password')).status).toBe(401);
    } finally {
      await real.dispose();
    }
  }, 180_000);

  it('refuses a taken username with 409, whatever its case', async () => {
    await register(client);
    const again = await register(new TestClient(server.url), 'ALICE');
    expect(again.status).toBe(409);
    expect(again.json.success).toBe(false);
    expect(again.json.code).toBe('CONFLICT');
    expect(again.json.error).toMatch(/already taken/);
  });

  it('refuses short usernames and passwords with the spec messages', async () => {
    const res = await register(client, 'al', 'short');
    expect(res.status).toBe(400);
    expect(errorReply.parse(res.json).issues).toEqual([
      { path: 'username', message: 'Username must be at least 3 characters' },
      { path: 'password', message: 'Password must be at least 8 characters' },
    ]);
    expect(res.json.error).toBe('Username must be at least 3 characters');
    const pw = await register(client, 'carol', 'short');
    expect(pw.json.error).toBe('Password must be at least 8 characters');
    const count = await server.db.orm.em.getConnection().execute('select count(*)::int as n from users');
    expect(count[0]!.n).toBe(0);
  });

  it('answers bad bodies with clear 400, 413 and 415 errors, never 500', async () => {
    const broken = await client.post('/api/auth/login', '{"username": "al', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toMatch(/not valid JSON/);
    const form = await client.post('/api/auth/login', 'username=a&password=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const huge = await client.post('/api/auth/login', { username: 'alice', password: 'x'.repeat(100_000) });
    expect(huge.status).toBe(413);
    const wrongTypes = await client.post('/api/auth/login', { username: ['a'], password: 12345678 });
    expect(wrongTypes.status).toBe(400);
    const array = await client.post('/api/auth/login', '[1,2]', { 'content-type': 'application/json' });
    expect(array.status).toBe(400);
    expect(array.json.error).toBe('Send the body as a JSON object ({…}), not an array.');
    // Valid JSON of the wrong shape is not "not valid JSON": the answer says what to send.
    const nothing = await client.post('/api/auth/login', 'null', { 'content-type': 'application/json' });
    expect(nothing.json).toMatchObject({ error: 'Send the body as a JSON object ({…}), not null.', code: 'BAD_REQUEST' });
    const text = await client.post('/api/auth/login', '"alice"', { 'content-type': 'application/json' });
    expect(text.json).toMatchObject({ error: 'Send the body as a JSON object ({…}), not a string.', code: 'BAD_REQUEST' });
    expect(wrongTypes.json.issues).toEqual([
      { path: 'username', message: 'username must be a string, not array.' },
      { path: 'password', message: 'password must be a string, not number.' },
    ]);
    const empty = await client.post('/api/auth/login', {});
    expect(empty.json.error).toBe('username is required: send a string.');
    for (const res of [broken, form, huge, wrongTypes, array, nothing, text, empty]) expect(errorReply.safeParse(res.json).success).toBe(true);
  });

  it('logs in with the right password and refuses a wrong one or an unknown user alike', async () => {
    await register(client);
    const fresh = new TestClient(server.url);
    const wrong = await fresh.post('/api/auth/login', { username: 'alice', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ success: false, error: 'Invalid username or password.', code: 'UNAUTHORIZED' });
    const unknown = await fresh.post('/api/auth/login', { username: 'nobody', password: 'not-the-password' });
    expect(unknown.status).toBe(401);
    expect(unknown.json.error).toBe(wrong.json.error);
    expect((await fresh.get('/api/auth/me')).status).toBe(401);
    const ok = await fresh.post('/api/auth/login', { username: 'Alice', password: 'correct-horse' });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ success: true, error: '', user: { username: 'alice', plan: 'Free' } });
    expect((await fresh.get('/api/auth/me')).json).toEqual({ user: { username: 'alice', plan: 'Free' } });
  });

  it('gives a new session key at every sign-in and ends the old one', async () => {
    await register(client);
    const before = client.cookieHeader();
    const again = await client.post('/api/auth/login', { username: 'alice', password: 'correct-horse' });
    expect(again.status).toBe(200);
    const after = client.cookieHeader();
    expect(after).not.toBe(before);
    const old = new TestClient(server.url);
    old.setCookieHeader(before);
    expect((await old.get('/api/auth/me')).status).toBe(401);
    const sessions = await server.db.orm.em.getConnection().execute('select key_hash from sessions');
    expect(sessions).toHaveLength(1);
    expect(String(sessions[0]!.key_hash)).toMatch(/^[0-9a-f]{64}$/);
    // The stored key is a hash: the cookie value itself appears nowhere in the table.
    const sid = /wolfpack\.sid=([^;]+)/.exec(after)![1]!;
    expect(JSON.stringify(sessions)).not.toContain(sid);
  });

  it('logout ends the session on the server, not only in the browser', async () => {
    await register(client);
    const stolen = client.cookieHeader();
    const out = await client.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    const replay = new TestClient(server.url);
    replay.setCookieHeader(stolen);
    const me = await replay.get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('expires idle sessions and sessions past the absolute limit', async () => {
    await register(client);
    const conn = server.db.orm.em.getConnection();
    await conn.execute(`update sessions set expires_at = now() - interval '1 second'`);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    await client.post('/api/auth/login', { username: 'alice', password: 'correct-horse' });
    expect((await client.get('/api/auth/me')).status).toBe(200);
    await conn.execute(`update sessions set created_at = now() - interval '31 days'`);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('throttles a username after 10 failures in 15 minutes, even for the right password', async () => {
    await register(client);
    const attacker = new TestClient(server.url);
    for (let i = 0; i < 10; i++) {
      const res = await attacker.post('/api/auth/login', { username: 'alice', password: `guess-${i}-wrong` });
      expect(res.status).toBe(401);
    }
    const blocked = await attacker.post('/api/auth/login', { username: 'alice', password: 'correct-horse' });
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe('TOO_MANY_REQUESTS');
    expect(blocked.json.error).toMatch(/Try again in 15 minutes/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    // The CLI's token login shares the throttle.
    const token = await attacker.post('/api/auth/tokens', { username: 'alice', password: 'correct-horse' });
    expect(token.status).toBe(429);
    // Another username is not affected.
    expect((await register(new TestClient(server.url), 'dave')).status).toBe(201);
    // Once the failures leave the window, sign-in works again.
    await server.db.orm.em.getConnection().execute(`update login_failures set failed_at = now() - interval '16 minutes'`);
    expect((await attacker.post('/api/auth/login', { username: 'alice', password: 'correct-horse' })).status).toBe(200);
  }, 120_000); // ten scrypt hashes per database: slow on a busy 2-CPU machine

  it('issues personal API tokens, accepts them as Bearer, stores only a hash, and revokes them', async () => {
    await register(client);
    const created = await new TestClient(server.url).post('/api/auth/tokens', {
      username: 'alice',
      password: 'correct-horse',
      name: 'ci',
    });
    expect(created.status).toBe(201);
    const token = String(created.json.token);
    expect(token).toMatch(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(created.headers.getSetCookie()).toEqual([]);
    const bearer = new TestClient(server.url, { authorization: `Bearer ${token}` });
    expect((await bearer.get('/api/auth/me')).json).toEqual({ user: { username: 'alice', plan: 'Free' } });
    const rows = await server.db.orm.em.getConnection().execute('select * from api_tokens');
    expect(JSON.stringify(rows)).not.toContain(token);
    const forged = new TestClient(server.url, { authorization: `Bearer wpk_${'A'.repeat(43)}` });
    expect((await forged.get('/api/auth/me')).status).toBe(401);
    expect((await bearer.request('DELETE', '/api/auth/tokens/current')).status).toBe(204);
    const after = await bearer.get('/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.json.error).toMatch(/wolfpack login/);
    const badCreds = await new TestClient(server.url).post('/api/auth/tokens', { username: 'alice', password: 'wrong-password' });
    expect(badCreds.status).toBe(401);
  });

  it('refuses cross-site state changes made with the session cookie', async () => {
    await register(client);
    const evilOrigin = await client.post('/api/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    const crossSite = await client.post('/api/auth/logout', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const sameSite = await client.post('/api/auth/logout', undefined, { 'sec-fetch-site': 'same-site' });
    expect(sameSite.status).toBe(403);
    const loginCsrf = await new TestClient(server.url).post(
      '/api/auth/login',
      { username: 'alice', password: 'correct-horse' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(loginCsrf.status).toBe(403);
    // Still signed in: the forged logouts did nothing.
    expect((await client.get('/api/auth/me')).status).toBe(200);
    const sameOrigin = await client.post('/api/auth/logout', undefined, {
      'sec-fetch-site': 'same-origin',
      origin: server.url,
    });
    expect(sameOrigin.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('answers unknown API routes and wrong methods as JSON errors', async () => {
    const missing = await client.get('/api/does-not-exist');
    expect(missing.status).toBe(404);
    expect(errorReply.parse(missing.json).code).toBe('NOT_FOUND');
    const method = await client.request('DELETE', '/api/auth/me');
    expect(method.status).toBe(405);
    expect(errorReply.parse(method.json).code).toBe('METHOD_NOT_ALLOWED');
    const health = await client.get('/api/health');
    expect(health.json).toEqual({ ok: true, database: kind });
  });

  it('keeps accounts and sessions across a restart', async () => {
    await register(client);
    const reuse = { dataDir: server.dataDir, databaseUrl: server.databaseUrl };
    await server.close();
    const restarted = await startTestServer(kind, { reuse });
    try {
      const again = new TestClient(restarted.url);
      again.setCookieHeader(client.cookieHeader());
      expect((await again.get('/api/auth/me')).json).toEqual({ user: { username: 'alice', plan: 'Free' } });
    } finally {
      await restarted.close();
    }
  });
});

describe.each(testDatabases())('cookies behind a TLS proxy on %s', (kind) => {
  it('marks the session cookie Secure when a trusted proxy says the request came over https', async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_TRUST_PROXY: 'true' } });
    try {
      const res = await new TestClient(server.url).post(
        '/api/auth/register',
        { username: 'erin', password: 'correct-horse' },
        { 'x-forwarded-proto': 'https' },
      );
      expect(res.status).toBe(201);
      expect(res.headers.getSetCookie().join('\n')).toMatch(/;\s*secure/i);
    } finally {
      await server.dispose();
    }
  });
});

describe.runIf(testDatabases().includes('postgres'))('several servers on one PostgreSQL database', () => {
  it('share sessions, and a logout on one ends the session on the other', async () => {
    const env = { WOLFPACK_SESSION_KEYS: 'shared-signing-key-0123456789abcdef0123456789' };
    const first = await startTestServer('postgres', { env });
    const second = await startTestServer('postgres', { env, reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    try {
      const a = new TestClient(first.url);
      await register(a);
      const b = new TestClient(second.url);
      b.setCookieHeader(a.cookieHeader());
      expect((await b.get('/api/auth/me')).json).toEqual({ user: { username: 'alice', plan: 'Free' } });
      expect((await b.post('/api/auth/logout')).status).toBe(200);
      expect((await a.get('/api/auth/me')).status).toBe(401);
    } finally {
      await second.close();
      await first.dispose();
    }
  });
});
