/**
 * Attacks on sign-in and sessions, through a real server and real cookies: a session planted
 * before sign-in (fixation), writes forged from other origins (CSRF), cookies and API tokens
 * replayed after logout or revocation, guessing passwords faster than the throttle counts, and
 * headers far larger than any browser sends. Each is refused with a clear answer, never a 500,
 * and the server keeps serving.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_LIMIT } from '../services/accounts/auth-service.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const PASSWORD = 'correct-horse';

describe.each(testDatabases())('session security on %s', (kind) => {
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  const sql = <T>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text, params);
  const sidOf = (cookieHeader: string) => /wolfpack\.sid=([^;]+)/.exec(cookieHeader)?.[1];

  async function account(prefix = 'user'): Promise<{ client: TestClient; username: string }> {
    const client = new TestClient(server.url);
    const username = `${prefix}${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(201);
    return { client, username };
  }

  describe('session fixation', () => {
    it("an attacker's session planted in the victim's browser is replaced at sign-in and ends, and never becomes the victim's", async () => {
      const attacker = await account('attacker');
      const planted = attacker.client.cookieHeader();
      const { username: victimName } = await account('victim');
      const victim = new TestClient(server.url);
      victim.setCookieHeader(planted);
      expect((await victim.get('/api/auth/me')).json).toMatchObject({ user: { username: attacker.username } });

      const login = await victim.post('/api/auth/login', { username: victimName, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(sidOf(victim.cookieHeader())).toBeDefined();
      expect(sidOf(victim.cookieHeader())).not.toBe(sidOf(planted));
      expect((await victim.get('/api/auth/me')).json).toMatchObject({ user: { username: victimName } });
      // The attacker's copy of the planted cookie is not signed in as the victim, nor as anyone.
      const replay = new TestClient(server.url);
      replay.setCookieHeader(planted);
      expect((await replay.get('/api/auth/me')).status).toBe(401);
    });

    it('a made-up session cookie planted before sign-in is never adopted', async () => {
      const { username } = await account();
      const victim = new TestClient(server.url);
      const forged = `wolfpack.sid=${'A'.repeat(43)}; wolfpack.sid.sig=${'B'.repeat(27)}`;
      victim.setCookieHeader(forged);
      expect((await victim.get('/api/auth/me')).status).toBe(401);
      expect((await victim.post('/api/auth/login', { username, password: PASSWORD })).status).toBe(200);
      expect(sidOf(victim.cookieHeader())).not.toBe('A'.repeat(43));
      const keys = await sql<Array<{ key_hash: string }>>('select key_hash from sessions');
      expect(JSON.stringify(keys)).not.toContain('A'.repeat(43));
      const replay = new TestClient(server.url);
      replay.setCookieHeader(forged);
      expect((await replay.get('/api/auth/me')).status).toBe(401);
    });
  });

  describe('cross-site request forgery', () => {
    it('refuses state changes from another origin on every kind of write, and changes nothing', async () => {
      const { client } = await account();
      const folder = await client.post('/api/folders', { name: 'Keep me', parentFolderId: null });
      expect(folder.status).toBeLessThan(300);
      const folders = async () => ((await client.get('/api/folders')).json.folders as Array<{ id: string; name: string }>).map((f) => f.name);
      const folderId = ((await client.get('/api/folders')).json.folders as Array<{ id: string }>)[0]!.id;
      const origins = ['https://evil.example', 'null', `${server.url}.evil.example`, server.url.replace(/:\d+$/, ':1'), server.url.replace('http:', 'https:'), `${server.url}@evil.example`];
      const writes: Array<[string, string, unknown]> = [
        ['POST', '/api/folders', { name: 'Planted', parentFolderId: null }],
        ['PUT', `/api/folders/${folderId}`, { name: 'Renamed by evil' }],
        ['DELETE', `/api/folders/${folderId}`, undefined],
        ['PUT', '/api/settings/github', { token: 'ghp_attacker' }],
        ['POST', '/api/wolfpack/stream', { idea: 'Spend their credits' }],
        ['POST', '/api/auth/tokens', { username: 'x', password: 'y' }],
        ['DELETE', '/api/account', undefined],
      ];
      for (const origin of origins) {
        for (const [method, path, body] of writes) {
          const res = await client.request(method, path, body, { origin });
          expect(res.status, `${method} ${path} from ${origin}`).toBe(403);
          expect(res.json).toEqual({ success: false, code: 'FORBIDDEN', error: 'This request came from another site and was refused. Open Wolfpack directly and try again.' });
        }
      }
      expect(await folders()).toEqual(['Keep me']);
      expect((await client.get('/api/auth/me')).status).toBe(200);
      expect((await client.get('/api/settings/github')).json).toMatchObject({ connected: false });
    });

    it('a form-style cross-site post (no Origin, text/plain body) cannot reach a JSON route', async () => {
      const { client } = await account();
      const res = await client.post('/api/folders', '{"name":"Planted","parentFolderId":null}', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
      expect(res.json.error).toEqual(expect.any(String));
      expect((await client.get('/api/folders')).json.folders).toEqual([]);
    });

    it('a Bearer header cannot be used to slip the session cookie past the check', async () => {
      const { client } = await account();
      // A cross-site page cannot set Authorization without CORS, but if it could, a bad token is
      // a 401 on its own: the cookie riding along is not used as a fall-back.
      const res = await client.post('/api/folders', { name: 'Planted', parentFolderId: null }, { origin: 'https://evil.example', authorization: 'Bearer nonsense' });
      expect(res.status).toBe(401);
      expect((await client.get('/api/folders')).json.folders).toEqual([]);
    });

    it('an njin key in Authorization does not exempt a request that the session cookie authenticates', async () => {
      const { client, username } = await account();
      // An njin key is no login: authentication uses the cookie, so the cross-site check applies.
      const njin = { origin: 'https://evil.example', authorization: 'Bearer njin_0123456789abcdef0123456789abcdef01234567' };
      const res = await client.post('/api/folders', { name: 'Planted', parentFolderId: null }, njin);
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('FORBIDDEN');
      expect((await client.request('DELETE', '/api/account', undefined, njin)).status).toBe(403);
      expect((await client.get('/api/folders')).json.folders).toEqual([]);
      // A personal API token authenticates on its own: no cookie, no check to pass.
      const created = await new TestClient(server.url).post('/api/auth/tokens', { username, password: PASSWORD, name: 'ci' });
      expect(created.status).toBe(201);
      const bearer = new TestClient(server.url);
      const made = await bearer.post('/api/folders', { name: 'From CI', parentFolderId: null }, { origin: 'https://evil.example', authorization: `Bearer ${(created.json as { token: string }).token}` });
      expect(made.status).toBe(201);
    });
  });

  describe('credentials after logout and revocation', () => {
    it('a session cookie replayed after logout is refused on reads and writes alike', async () => {
      const { client } = await account();
      const stolen = client.cookieHeader();
      expect((await client.post('/api/auth/logout')).status).toBe(200);
      const replay = new TestClient(server.url);
      replay.setCookieHeader(stolen);
      for (const [method, path, body] of [
        ['GET', '/api/projects', undefined],
        ['GET', '/api/billing/balance', undefined],
        ['POST', '/api/folders', { name: 'x', parentFolderId: null }],
        ['POST', '/api/auth/tokens/current', undefined],
      ] as Array<[string, string, unknown]>) {
        const res = await replay.request(method, path, body);
        expect([401, 404, 405], `${method} ${path}: ${res.text}`).toContain(res.status);
        expect(res.status).not.toBe(200);
      }
      expect((await replay.get('/api/auth/me')).json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      // Logging out again with the dead cookie is harmless.
      expect((await replay.post('/api/auth/logout')).status).toBe(200);
    });

    it('a CLI token stops working after logout with it and after revocation; other credentials live on', async () => {
      const { client, username } = await account();
      const mint = async (name: string) => String((await new TestClient(server.url).post('/api/auth/tokens', { username, password: PASSWORD, name })).json.token);
      const [laptop, ci] = [await mint('laptop'), await mint('ci')];
      const as = (token: string) => new TestClient(server.url, { authorization: `Bearer ${token}` });
      expect((await as(laptop).get('/api/auth/me')).status).toBe(200);

      // `wolfpack logout` on the laptop revokes the laptop's token only.
      expect((await as(laptop).post('/api/auth/logout')).status).toBe(200);
      const dead = await as(laptop).get('/api/projects');
      expect(dead.status).toBe(401);
      expect(dead.json.error).toBe('The API token was revoked. Create a new one under API tokens in Settings, or run `wolfpack login` again.');
      expect((await as(laptop).post('/api/folders', { name: 'x', parentFolderId: null })).status).toBe(401);
      expect((await as(ci).get('/api/auth/me')).status).toBe(200);
      expect((await client.get('/api/auth/me')).status).toBe(200);

      // Revoked from CI itself.
      expect((await as(ci).request('DELETE', '/api/auth/tokens/current')).status).toBe(204);
      expect((await as(ci).get('/api/auth/me')).status).toBe(401);
      // Near misses of a live token are not accepted either.
      const live = await mint('live');
      for (const wrong of [live.slice(0, -1), `${live}x`, live.toUpperCase(), `${live.slice(0, -1)}${live.endsWith('A') ? 'B' : 'A'}`, `${live} ${live}`]) {
        expect((await as(wrong).get('/api/auth/me')).status, wrong).toBe(401);
      }
      expect((await as(live).get('/api/auth/me')).status).toBe(200);
    });

    it('closing the account ends its sessions and its tokens', async () => {
      const { client, username } = await account();
      const token = String((await new TestClient(server.url).post('/api/auth/tokens', { username, password: PASSWORD })).json.token);
      const cookie = client.cookieHeader();
      const closed = await client.request('DELETE', '/api/account');
      expect(closed.status, closed.text).toBeLessThan(300);
      const replay = new TestClient(server.url);
      replay.setCookieHeader(cookie);
      expect((await replay.get('/api/auth/me')).status).toBe(401);
      expect((await new TestClient(server.url, { authorization: `Bearer ${token}` }).get('/api/auth/me')).status).toBe(401);
    });

    it('a session whose account was closed or renamed behind its back signs in as nobody, or as the account as it is now', async () => {
      // The user is read in the session's own statement: what it reads must be the account as it is.
      const { client, username } = await account();
      const [me] = await sql<Array<{ id: string }>>('select id from users where username = ?', [username]);
      await sql('update users set username = ?, username_key = ? where id = ?', [`${username}x`, `${username}x`, me!.id]);
      expect((await client.get('/api/auth/me')).json.user).toMatchObject({ username: `${username}x` });
      // Closed without its sessions deleted (a request racing the closing): refused, and the session ends.
      await sql(`update users set status = 'closed' where id = ?`, [me!.id]);
      const refused = await client.get('/api/projects');
      expect(refused.status).toBe(401);
      expect(await sql<unknown[]>('select 1 from sessions where user_id = ?', [me!.id])).toHaveLength(0);
      // Another account's session is untouched by it.
      const other = await account();
      expect((await other.client.get('/api/auth/me')).status).toBe(200);
    });
  });

  describe('guessing passwords', () => {
    it(`a burst of concurrent guesses gets at most ${LOGIN_FAILURE_LIMIT} tries; the rest wait, the right password too`, async () => {
      const { username } = await account('target');
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => new TestClient(server.url).post('/api/auth/login', { username, password: `wrong-guess-${i}` })),
      );
      const statuses = guesses.map((g) => g.status);
      const tried = statuses.filter((s) => s === 401).length;
      expect(tried).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      for (const refused of guesses.filter((g) => g.status === 429)) expect(refused.json.error).toMatch(/^Too many failed sign-in attempts for this username\. Try again in \d+ minutes? \(after \d\d:\d\d UTC\)\.$/);
      // Only real tries are kept: the refused ones do not push the lock further out.
      const rows = await sql<Array<{ n: string | number }>>('select count(*) as n from login_failures where username_key = ?', [username.toLowerCase()]);
      expect(Number(rows[0]!.n)).toBe(tried);
      // Tries left over (if the refusals were cautious) are still counted: never more than the limit in all.
      for (let i = tried; i < LOGIN_FAILURE_LIMIT; i++) expect((await new TestClient(server.url).post('/api/auth/login', { username, password: `late-guess-${i}` })).status).toBe(401);
      const right = await new TestClient(server.url).post('/api/auth/login', { username, password: PASSWORD });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    }, 120_000);

    it('spelling the username differently does not get around the throttle, and unknown names are throttled alike', async () => {
      const { username } = await account('spelled');
      const spellings = [username, username.toUpperCase(), ` ${username} `, username.replace(/./g, (c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))];
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
        expect((await new TestClient(server.url).post('/api/auth/login', { username: spellings[i % spellings.length], password: `nope-nope-${i}` })).status).toBe(401);
      }
      for (const spelling of spellings) {
        expect((await new TestClient(server.url).post('/api/auth/login', { username: spelling, password: PASSWORD })).status, spelling).toBe(429);
      }
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) await new TestClient(server.url).post('/api/auth/login', { username: 'nobody-here', password: `nope-nope-${i}` });
      const unknown = await new TestClient(server.url).post('/api/auth/login', { username: 'nobody-here', password: PASSWORD });
      expect(unknown.status).toBe(429);
    }, 120_000);

    it('usernames that grow under Unicode normalisation are refused with a sentence, not a 500', async () => {
      // U+FB03 (ﬃ) is one letter that NFKC turns into three: 64 of them make a 192-letter key.
      for (const username of ['\ufb03'.repeat(64), '\ufdfa'.repeat(10), 'İ'.repeat(64)]) {
        const register = await new TestClient(server.url).post('/api/auth/register', { username, password: PASSWORD });
        expect(register.status, register.text).toBe(400);
        expect(register.json.error).toBe('Username must be at most 64 characters');
        const login = await new TestClient(server.url).post('/api/auth/login', { username, password: PASSWORD });
        expect(login.status, login.text).toBe(400);
        const token = await new TestClient(server.url).post('/api/auth/tokens', { username, password: PASSWORD });
        expect(token.status, token.text).toBe(400);
      }
    });
  });

  describe('oversized headers', () => {
    /** Sends raw headers with node:http (fetch refuses some of these before they leave). */
    function raw(headers: Record<string, string>, path = '/api/auth/me'): Promise<{ status: number; body: string }> {
      const url = new URL(server.url);
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    }

    /**
     * The status of a request the server may refuse before reading all of it: Node answers 431
     * and closes, so a client still sending 100 KB can see the reset instead of the answer.
     */
    const refusal = (headers: Record<string, string>) => raw(headers).then((r) => r.status, (e: NodeJS.ErrnoException) => e.code ?? 'error');

    it('refuses a 100 KB cookie or header with 431 (or drops it), never a 500, and keeps serving', async () => {
      const { client } = await account();
      // Just over the limit: the whole request arrives, and the answer is a 431.
      expect((await raw({ cookie: `wolfpack.sid=${'a'.repeat(20_000)}` })).status).toBe(431);
      expect((await raw({ 'x-filler': 'b'.repeat(20_000) })).status).toBe(431);
      for (const headers of [{ cookie: `wolfpack.sid=${'a'.repeat(100_000)}` }, { 'x-filler': 'b'.repeat(100_000) }, { authorization: `Bearer ${'c'.repeat(100_000)}` }, Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`x-h${i}`, 'v']))]) {
        expect([400, 431, 'ECONNRESET', 'EPIPE']).toContain(await refusal(headers));
      }
      expect((await client.get('/api/auth/me')).status).toBe(200);
      expect((await client.get('/api/health')).status).toBe(200);
    });

    it('answers large but accepted headers with a sentence, never a 500', async () => {
      const cases: Array<Record<string, string>> = [
        { cookie: `wolfpack.sid=${'a'.repeat(12_000)}; wolfpack.sid.sig=${'b'.repeat(1000)}` },
        { cookie: Array.from({ length: 400 }, (_, i) => `c${i}=${'v'.repeat(20)}`).join('; ') },
        { cookie: 'wolfpack.sid=%E0%A4%A; wolfpack.sid.sig=%%%' },
        { cookie: 'wolfpack.sid="\\"; =;;; ==' },
        { authorization: `Bearer ${'c'.repeat(12_000)}` },
        { authorization: `Bearer wpk_${'A'.repeat(43)} extra` },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { 'accept-language': 'x'.repeat(12_000), 'user-agent': 'y'.repeat(2000) },
      ];
      for (const headers of cases) {
        const reply = await raw(headers);
        expect(reply.status, JSON.stringify(headers).slice(0, 80)).toBe(401);
        expect(reply.body).toMatch(/"error":"[^"]+/);
      }
      const longPath = await raw({}, `/api/projects/${'x'.repeat(12_000)}`);
      expect(longPath.status).toBeLessThan(500);
      expect((await raw({}, '/api/health')).status).toBe(200);
    });
  });
});
