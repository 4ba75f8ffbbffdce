/**
 * The operator's njin licences: on a server without Stripe, PUT
 * /api/admin/njin-licences/{username} {until} with the admin secret grants a licence that
 * POST /api/njin/iterate honours until its end; DELETE revokes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminNjinLicenceReply, njinKeyCreatedReply, njinLicenseReply } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const SECRET = 'operator-secret-for-licence-tests';
const FILES = { 'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n' };
const GOOD = '```js src/math.js\nexport function add(a, b) {\n  return a + b;\n}\n\nexport function subtract(a, b) {\n  return a - b;\n}\n```\n';
const REQUEST = { files: FILES, instruction: 'Add subtract(a, b) to src/math.js', mode: 'single' };
const NO_PAYMENTS =
  'This API key has no active njin licence, and licences cannot be bought on this server: it takes no payments. Ask its operator to grant you one (wolfpack admin grant-licence USER --until DATE), or to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET so that licences can be bought on the njin page.';

describe.each(testDatabases())('njin licences granted by the operator on %s', (kind) => {
  let fake: OpenAIFakeServer;
  let server: TestServer;
  let now = new Date('2026-06-01T12:00:00Z');
  let users = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ fallback: () => ({ kind: 'stream', deltas: [GOOD] }) });
    server = await startTestServer(kind, {
      clock: () => now,
      env: {
        WOLFPACK_ADMIN_SECRET: SECRET,
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'm', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await fake?.close();
  });
  const sql = <T = Array<Record<string, unknown>>>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as Sql).execute<T>(text, params);

  async function keyHolder(): Promise<{ client: TestClient; username: string; userId: string; apiKey: string }> {
    const client = new TestClient(server.url);
    const username = `licensee${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await sql<Array<{ id: string }>>('select id from users where username = ?', [username]);
    const { apiKey } = njinKeyCreatedReply.parse((await client.post('/api/njin/keys')).json);
    return { client, username, userId: row!.id, apiKey };
  }
  const iterate = (apiKey: string) => new TestClient(server.url).post('/api/njin/iterate', REQUEST, { Authorization: `Bearer ${apiKey}` });
  const grant = (username: string, until: unknown, secret: string | null = SECRET) =>
    new TestClient(server.url).request('PUT', `/api/admin/njin-licences/${encodeURIComponent(username)}`, { until }, secret === null ? {} : { 'X-Admin-Secret': secret });
  const revoke = (username: string, secret: string | null = SECRET) =>
    new TestClient(server.url).request('DELETE', `/api/admin/njin-licences/${encodeURIComponent(username)}`, undefined, secret === null ? {} : { 'X-Admin-Secret': secret });

  it('grants a licence until the end of a day: iterate works for that user, and is refused again once it has passed', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const { client, username, apiKey } = await keyHolder();
    // Without a licence, on a server that takes no payments: the sentence says where one comes from.
    const refused = await iterate(apiKey);
    expect(refused.status).toBe(402);
    expect(refused.json.error).toBe(NO_PAYMENTS);

    // Any case of the username names the account.
    const granted = await grant(username.toUpperCase(), '2026-06-30');
    expect(granted.status, granted.text).toBe(200);
    expect(granted.headers.get('cache-control')).toBe('no-store');
    expect(adminNjinLicenceReply.parse(granted.json)).toEqual({
      licence: { username, status: 'active', expiresAt: '2026-06-30T23:59:59.999Z', usageCount: 0, paidThroughStripe: false },
      changed: true,
    });
    // Stored the way a paid licence is: the user's njin page shows it.
    expect(njinLicenseReply.parse((await client.get('/api/njin/license')).json).license).toMatchObject({ status: 'active', expiresAt: '2026-06-30T23:59:59.999Z', source: 'operator' });
    const works = await iterate(apiKey);
    expect(works.status, works.text).toBe(200);
    expect(works.json.files).toMatchObject({ 'src/math.js': expect.stringContaining('return a - b;') });

    // The last moment of the day still counts; the next one does not.
    now = new Date('2026-06-30T23:59:59.000Z');
    expect((await iterate(apiKey)).status).toBe(200);
    now = new Date('2026-07-01T00:00:00.000Z');
    const expired = await iterate(apiKey);
    expect(expired.status).toBe(402);
    expect(expired.json.error).toBe(NO_PAYMENTS);

    // Granted again, to an exact time: usage counts on.
    const again = adminNjinLicenceReply.parse((await grant(username, '2026-07-15T18:00:00+02:00')).json);
    expect(again.licence).toMatchObject({ status: 'active', expiresAt: '2026-07-15T16:00:00.000Z', usageCount: 2 });
    expect((await iterate(apiKey)).status).toBe(200);
  });

  it('revokes a granted licence at once; revoking again changes nothing', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const { username, apiKey } = await keyHolder();
    expect((await grant(username, '2027-01-31')).status).toBe(200);
    expect((await iterate(apiKey)).status).toBe(200);
    const revoked = await revoke(username);
    expect(revoked.status, revoked.text).toBe(200);
    expect(adminNjinLicenceReply.parse(revoked.json)).toEqual({
      licence: { username, status: 'canceled', expiresAt: now.toISOString(), usageCount: 1, paidThroughStripe: false },
      changed: true,
    });
    expect((await iterate(apiKey)).status).toBe(402);
    expect(adminNjinLicenceReply.parse((await revoke(username)).json).changed).toBe(false);
    // Never licensed: nothing to revoke either.
    const other = await keyHolder();
    expect(adminNjinLicenceReply.parse((await revoke(other.username)).json)).toEqual({
      licence: { username: other.username, status: 'inactive', expiresAt: null, usageCount: 0, paidThroughStripe: false },
      changed: false,
    });
  });

  it('refuses a wrong or missing secret, an unknown user, and an end that is not a future date', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const { username, apiKey } = await keyHolder();
    for (const res of [await grant(username, '2027-01-31', 'not-the-secret'), await grant(username, '2027-01-31', null), await revoke(username, 'not-the-secret')]) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
    expect((await iterate(apiKey)).status).toBe(402);
    expect(await sql('select user_id from njin_licences where user_id = (select id from users where username = ?)', [username])).toEqual([]);

    const nobody = await grant('nobody-here', '2027-01-31');
    expect(nobody.status).toBe(404);
    expect(nobody.json.error).toBe('There is no account named nobody-here on this server. Usernames are as people sign in with them.');
    for (const until of ['next month', '2027-02-30', '2027-01-31T10:00:00', 20270131, undefined]) {
      const bad = await grant(username, until);
      expect(bad.status, String(until)).toBe(400);
      expect(bad.json.error).toMatch(/^until must be a date such as 2027-01-31 \(the licence then runs through that day, UTC\)/);
    }
    const past = await grant(username, '2026-05-31');
    expect(past.status).toBe(400);
    expect(past.json.error).toBe('until must be in the future. To end a licence now, revoke it.');
    expect((await iterate(apiKey)).status).toBe(402);
  });

  it('leaves a licence that a Stripe subscription pays for to Stripe', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const { username, userId } = await keyHolder();
    await sql(
      `insert into njin_licences (user_id, status, current_period_end, stripe_subscription_id, cancel_at_period_end, usage_count, created_at, updated_at) values (?, 'active', ?, 'sub_paid_1', false, 0, ?, ?)`,
      [userId, new Date('2026-06-20T00:00:00Z'), now, now],
    );
    const granted = await grant(username, '2027-01-31');
    expect(granted.status).toBe(409);
    expect(granted.json.error).toBe(`${username} pays for njin through a Stripe subscription (active until 2026-06-20): a granted licence would be overruled by the subscription. Let it end (or cancel it in Stripe) first.`);
    const revoked = await revoke(username);
    expect(revoked.status).toBe(409);
    expect(revoked.json.error).toMatch(/cancel the subscription in Stripe instead; the licence ends with it\.$/);
    // Once the paid period is over, the operator may grant one; the subscription's id is let go.
    now = new Date('2026-06-21T00:00:00Z');
    expect(adminNjinLicenceReply.parse((await grant(username, '2027-01-31')).json).licence).toMatchObject({ status: 'active', paidThroughStripe: false });
    expect(await sql('select stripe_subscription_id from njin_licences where user_id = ?', [userId])).toEqual([{ stripe_subscription_id: null }]);
  });
});
