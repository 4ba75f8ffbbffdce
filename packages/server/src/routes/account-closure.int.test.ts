import { afterEach, describe, expect, it } from 'vitest';
import { capsulesReply, checkoutReply, listingReply, njinKeyCreatedReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { startPaidTestServer, TEST_STRIPE_KEY, TEST_WEBHOOK_SECRET, type PaidTestServer } from '../testing/paid-test-server.js';
import { completeBuild } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const PASSWORD = 'correct-horse';
const ITERATE = { files: { 'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n' }, instruction: 'Add subtract(a, b) to src/math.js', mode: 'single' };

/** Closing an account ends everything it pays for or exposes. */
describe.each(testDatabases())('closing an account on %s', (kind) => {
  const started: PaidTestServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.dispose()));
  });
  const start = async () => {
    const paid = await startPaidTestServer(kind);
    started.push(paid);
    return paid;
  };
  const sql = (server: TestServer, query: string, params: unknown[] = []) => server.db.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(query, params);

  const member = async (server: TestServer, username: string) => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(201);
    const [row] = await sql(server, 'select id from users where username_key = ?', [username]);
    return { client, id: String(row!.id) };
  };
  /** A member with a paid njin subscription (through the fake Stripe) and an njin key that works. */
  const subscriber = async (paid: PaidTestServer, username: string) => {
    const who = await member(paid.server, username);
    const res = await who.client.post('/api/njin/subscribe');
    expect(res.status, res.text).toBe(200);
    const session = paid.fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
    expect((await paid.deliver(paid.fake.completeSession(session.id))).status).toBe(200);
    const subscriptionId = paid.fake.sessions.get(session.id)!.subscription!;
    const { apiKey } = njinKeyCreatedReply.parse((await who.client.post('/api/njin/keys')).json);
    return { ...who, subscriptionId, apiKey };
  };
  const iterate = (server: TestServer, apiKey: string) => new TestClient(server.url).post('/api/njin/iterate', ITERATE, { Authorization: `Bearer ${apiKey}` });
  const cancelRequests = (paid: PaidTestServer, subscriptionId: string) =>
    paid.fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`);

  it('cancels the njin subscription at Stripe, revokes keys and tokens, unpublishes listings (bought copies stay) and makes capsules private', async () => {
    const paid = await start();
    const { server } = paid;
    const seller = await subscriber(paid, 'closing-seller');
    expect((await iterate(server, seller.apiKey)).status).toBe(200);
    const token = (await seller.client.post('/api/auth/tokens', { username: 'closing-seller', password: PASSWORD, name: 'laptop' })).json.token as string;
    expect((await new TestClient(server.url).get('/api/auth/me', { Authorization: `Bearer ${token}` })).status).toBe(200);

    const projectId = (await completeBuild(server.url, seller.client.cookieHeader(), 'A tip calculator')).at(-1)!.event;
    if (projectId.type !== 'complete') throw new Error('no project');
    const created = await seller.client.post('/api/listings', { projectId: projectId.projectId, title: 'Tip calculator', summary: 'Splits a bill.', visibility: 'free' });
    expect(created.status, created.text).toBe(201);
    const listing = listingReply.parse(created.json).listing;
    const capsule = capsulesReply.parse((await seller.client.get('/api/capsules/user/my-capsules')).json).capsules[0]!;
    expect((await seller.client.post(`/api/capsules/${capsule.id}/publish`, { isPublic: true })).status).toBe(200);
    const buyer = await member(server, 'earlier-buyer');
    const copy = await buyer.client.post(`/api/listings/${listing.id}/purchase`);
    expect(copy.status).toBe(200);
    const visitor = new TestClient(server.url);
    expect((await visitor.get(`/api/capsules/${capsule.slug}`)).status).toBe(200);

    const closed = await seller.client.request('DELETE', '/api/account');
    expect(closed.status, closed.text).toBe(200);

    // Stripe was told, and the subscription stops at the end of the period already paid for.
    const cancels = cancelRequests(paid, seller.subscriptionId);
    expect(cancels.map((r) => [r.status, r.params.cancel_at_period_end])).toEqual([[200, 'true']]);
    expect(paid.fake.subscriptions.get(seller.subscriptionId)!.cancel_at_period_end).toBe(true);
    const [licence] = await sql(server, 'select cancel_at_period_end from njin_licences where user_id = ?', [seller.id]);
    expect([true, 't']).toContain(licence!.cancel_at_period_end);
    // The key, the CLI token and the session are worthless.
    expect((await iterate(server, seller.apiKey)).status).toBe(401);
    expect((await new TestClient(server.url).get('/api/auth/me', { Authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await seller.client.get('/api/auth/me')).status).toBe(401);
    // The listing is gone from the Showcase and cannot be bought; the copy bought before stays.
    expect((await visitor.get(`/api/listings/${listing.id}`)).status).toBe(404);
    expect(((await visitor.get('/api/listings')).json.listings as unknown[]).length).toBe(0);
    expect((await (await member(server, 'later-buyer')).client.post(`/api/listings/${listing.id}/purchase`)).status).toBe(404);
    expect((await buyer.client.get(`/api/projects/${copy.json.projectId as string}`)).status).toBe(200);
    // The capsule is private: nobody can open it.
    expect((await visitor.get(`/api/capsules/${capsule.slug}`)).status).toBe(404);
    expect(((await visitor.get('/api/capsules/discover/latest')).json.capsules as unknown[]).length).toBe(0);
    // Nothing more was sent to Stripe for it.
    expect(cancelRequests(paid, seller.subscriptionId)).toHaveLength(1);
  }, 120_000);

  it('retries the cancellation until Stripe acknowledges it, and closes the account even while Stripe is down', async () => {
    const paid = await start();
    const { server } = paid;
    const flaky = await subscriber(paid, 'flaky-stripe');
    paid.fake.failRequests('POST', `/v1/subscriptions/${flaky.subscriptionId}`, 500, 2);
    expect((await flaky.client.request('DELETE', '/api/account')).status).toBe(200);
    expect(cancelRequests(paid, flaky.subscriptionId).map((r) => r.status)).toEqual([500, 500, 200]);
    expect(paid.fake.subscriptions.get(flaky.subscriptionId)!.cancel_at_period_end).toBe(true);

    const down = await subscriber(paid, 'stripe-down');
    paid.fake.failRequests('POST', `/v1/subscriptions/${down.subscriptionId}`, 500);
    expect((await down.client.request('DELETE', '/api/account')).status).toBe(200);
    expect(cancelRequests(paid, down.subscriptionId).map((r) => r.status)).toEqual([500, 500, 500]);
    // Closed all the same, and the licence row says the cancellation is still owed.
    const [row] = await sql(server, 'select u.status, l.cancel_at_period_end from users u join njin_licences l on l.user_id = u.id where u.id = ?', [down.id]);
    expect(row!.status).toBe('closed');
    expect([false, 'f']).toContain(row!.cancel_at_period_end);
    expect((await iterate(server, down.apiKey)).status).toBe(401);
  }, 120_000);

  it('cancels at the next start what a server stopped before Stripe acknowledged it', async () => {
    const paid = await start();
    const leaver = await subscriber(paid, 'left-pending');
    // Down for the three attempts made while the request waits.
    paid.fake.failRequests('POST', `/v1/subscriptions/${leaver.subscriptionId}`, 500, 3);
    expect((await leaver.client.request('DELETE', '/api/account')).status).toBe(200);
    expect(paid.fake.subscriptions.get(leaver.subscriptionId)!.cancel_at_period_end).toBe(false);
    const { dataDir, databaseUrl } = paid.server;
    await paid.server.close();

    // The next server on the same database, Stripe up again: the cancellation goes through.
    const again = await startTestServer(kind, {
      reuse: { dataDir, databaseUrl },
      env: { STRIPE_SECRET_KEY: TEST_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, STRIPE_API_BASE: paid.fake.url },
    });
    try {
      await cancelledAfterRestart(paid, leaver, again);
    } finally {
      await again.close();
    }
  }, 120_000);

  const cancelledAfterRestart = async (paid: PaidTestServer, leaver: { id: string; subscriptionId: string }, again: TestServer) => {
    const deadline = Date.now() + 30_000;
    while (!paid.fake.subscriptions.get(leaver.subscriptionId)!.cancel_at_period_end) {
      if (Date.now() > deadline) throw new Error('the subscription was not cancelled after the restart');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(cancelRequests(paid, leaver.subscriptionId).map((r) => r.status)).toEqual([500, 500, 500, 200]);
    // The row is written once Stripe's answer is back, a moment after Stripe has the request.
    const recorded = async () => {
      const [licence] = await sql(again, 'select cancel_at_period_end from njin_licences where user_id = ?', [leaver.id]);
      return licence!.cancel_at_period_end === true || licence!.cancel_at_period_end === 't';
    };
    while (!(await recorded())) {
      if (Date.now() > deadline) throw new Error('the licence row does not say the subscription was cancelled after the restart');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
});
