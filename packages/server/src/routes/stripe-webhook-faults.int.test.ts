/**
 * Stripe's webhooks on a bad day, beyond what payment-routes.int.test.ts covers: events out of
 * order (an expiry that arrives before, or after, the payment), one payment reported under two
 * event ids at once, the same event at two servers sharing one database, and signatures that are
 * malformed, made with a retired secret, or over bytes a proxy re-serialised. Credit moves exactly
 * once; a bad signature is a 400 with a sentence and changes nothing; nothing answers 500.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReply, ledgerReply } from '@wolfpack/core';
import type { FakeSession, FakeStripe } from '../testing/fake-stripe.js';
import { TestClient } from '../testing/http-client.js';
import { startPaidTestServer, TEST_WEBHOOK_SECRET, type PaidTestServer } from '../testing/paid-test-server.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

describe.each(testDatabases())('Stripe webhooks out of order and badly signed on %s', (kind) => {
  let paid: PaidTestServer;
  let fake: FakeStripe;
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    paid = await startPaidTestServer(kind);
    ({ fake, server } = paid);
  });
  afterAll(() => paid?.dispose());

  const sql = <T = Array<Record<string, unknown>>>(text: string, params: unknown[] = [], on: TestServer = server) => (on.db.orm.em.fork() as Sql).execute<T>(text, params);
  const balance = async (client: TestClient) => (await client.get('/api/billing/balance')).json.balanceCents as number;
  const status = async (sessionId: string) => (await sql<Array<{ status: string }>>('select status from stripe_checkouts where id = ?', [sessionId]))[0]?.status;
  const topUpCredits = async (client: TestClient) =>
    ledgerReply.parse((await client.get('/api/billing/ledger?limit=100')).json).entries.filter((e) => e.kind === 'top_up' || e.kind === 'pack_bonus');

  async function buyer(): Promise<TestClient> {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: `late${(users += 1)}`, password: 'correct-horse' })).status).toBe(201);
    return client;
  }

  async function topUp(client: TestClient, amountDollars = 25): Promise<FakeSession> {
    const res = await client.post('/api/billing/top-up', { amountDollars });
    expect(res.status, res.text).toBe(200);
    return fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
  }

  /** Posts exactly these bytes with this Stripe-Signature header, as a proxy or an attacker could. */
  async function post(body: string, signature: string | undefined): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${server.url}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  const sign = (payload: string, secret = TEST_WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000)) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  it('an expiry delivered before the payment it raced does not lose the payment: credited once, the checkout ends paid', async () => {
    const client = await buyer();
    const session = await topUp(client);
    const completed = fake.completeSession(session.id);
    // Stripe sent the expiry of a session that was in fact paid; it arrives first.
    const expired = fake.event('checkout.session.expired', { ...(completed.data.object as object), status: 'expired', payment_status: 'unpaid' });
    expect((await paid.deliver(expired)).status).toBe(200);
    expect(await status(session.id)).toBe('expired');
    expect(await balance(client)).toBe(1500);
    expect((await paid.deliver(completed)).status).toBe(200);
    expect(await status(session.id)).toBe('paid');
    expect(await balance(client)).toBe(1500 + 2500 + 50);
    // And the expiry again, late: a paid checkout never goes back.
    expect((await paid.deliver(expired)).status).toBe(200);
    expect(await status(session.id)).toBe('paid');
    expect(await balance(client)).toBe(4050);
  });

  it('one payment reported under two event ids, delivered together many times, credits once', async () => {
    const client = await buyer();
    const session = await topUp(client, 50);
    const first = fake.completeSession(session.id);
    const second = fake.event('checkout.session.completed', first.data.object as object);
    expect(second.id).not.toBe(first.id);
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => paid.deliver(i % 2 === 0 ? first : second)));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(await balance(client)).toBe(1500 + 5000 + 200);
    expect((await topUpCredits(client)).map((e) => [e.kind, e.amountCents]).sort()).toEqual([['pack_bonus', 200], ['top_up', 5000]]);
  });

  it('refuses malformed signature headers with a sentence, and changes nothing', async () => {
    const client = await buyer();
    const session = await topUp(client);
    const body = fake.signedWebhook(fake.completeSession(session.id), TEST_WEBHOOK_SECRET).body;
    const now = Math.floor(Date.now() / 1000);
    const good = sign(body);
    const goodV1 = /v1=([0-9a-f]+)/.exec(good)![1]!;
    const headers = [
      'nonsense',
      't=abc,v1=zzz',
      `t=${now}`,
      `v1=${goodV1}`,
      // A valid signature, but for another timestamp than the one the header states.
      `t=${now + 1},v1=${goodV1}`,
      // The legacy test-mode scheme only.
      `t=${now},v0=${goodV1}`,
      `t=${now},v1=${goodV1.toUpperCase()}`,
      'x'.repeat(8000),
    ];
    for (const header of headers) {
      const reply = await post(body, header);
      expect(reply.status, header.slice(0, 60)).toBe(400);
      expect(reply.json).toMatchObject({ code: 'BAD_REQUEST', error: 'The Stripe signature of this webhook does not verify: only Stripe can post to this webhook.' });
    }
    // A header too big for the server at all: refused before any code runs, and it keeps serving.
    expect((await post(body, `${good},x`.repeat(400))).status).toBe(431);
    const missing = await post(body, undefined);
    expect(missing.json).toMatchObject({ code: 'BAD_REQUEST', error: 'The Stripe-Signature header is missing: only Stripe can post to this webhook.' });
    // A proxy that re-serialises the JSON breaks the signature, even though it means the same.
    expect((await post(JSON.stringify(JSON.parse(body)), good)).status).toBe(400);
    expect(await balance(client)).toBe(1500);
    expect(await status(session.id)).toBe('open');
  });

  it('accepts a delivery signed with both the retired and the current secret while the secret is rolled', async () => {
    const client = await buyer();
    const session = await topUp(client, 10);
    const { body } = fake.signedWebhook(fake.completeSession(session.id), TEST_WEBHOOK_SECRET);
    const timestamp = Math.floor(Date.now() / 1000);
    const old = /v1=([0-9a-f]+)/.exec(sign(body, 'whsec_the_retired_secret', timestamp))![1];
    expect((await post(body, `t=${timestamp},v1=${old},${sign(body, TEST_WEBHOOK_SECRET, timestamp).split(',')[1]}`)).status).toBe(200);
    expect(await balance(client)).toBe(1500 + 1000);
    // Signed with the retired secret alone: refused.
    const other = await topUp(client, 10);
    const { body: otherBody } = fake.signedWebhook(fake.completeSession(other.id), TEST_WEBHOOK_SECRET);
    expect((await post(otherBody, sign(otherBody, 'whsec_the_retired_secret'))).status).toBe(400);
    expect(await balance(client)).toBe(2500);
  });

  it('a correctly signed body that is not an event is refused or ignored, never a 500', async () => {
    const client = await buyer();
    const bodies = [
      'not json at all',
      '',
      '[]',
      '{}',
      'null',
      JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed' }),
      JSON.stringify({ id: 'evt_2', object: 'event', type: 'checkout.session.completed', data: null }),
      JSON.stringify({ id: 'evt_3', object: 'event', type: 'checkout.session.completed', data: { object: { object: 'checkout.session' } } }),
      JSON.stringify({ object: 'event', type: 'checkout.session.completed', data: { object: { object: 'checkout.session', id: 'cs_unknown', payment_status: 'paid' } } }),
      JSON.stringify({ id: 'evt_4', object: 'event', type: 'checkout.session.expired', data: {} }),
      JSON.stringify({ id: 'evt_5', object: 'event', type: 'invoice.paid' }),
      JSON.stringify({ id: 'evt_6', object: 'event', type: 'customer.subscription.deleted', data: { object: 'x' } }),
      JSON.stringify({ id: 12, object: 'event', type: ['checkout.session.completed'], data: { object: [] } }),
    ];
    for (const body of bodies) {
      const reply = await post(body, sign(body));
      expect(reply.status, body).toBeLessThan(500);
      if (reply.status >= 400) expect(reply.json.error, body).toEqual(expect.any(String));
    }
    expect((await client.get('/api/health')).status).toBe(200);
    expect(await balance(client)).toBe(1500);
  });
});

describe.runIf(testDatabases().includes('postgres'))('one Stripe event at two servers sharing PostgreSQL', () => {
  it('credits once when both servers receive the same payment at the same moment', async () => {
    const paid = await startPaidTestServer('postgres');
    const twin = await startTestServer('postgres', {
      reuse: { dataDir: paid.server.dataDir, databaseUrl: paid.server.databaseUrl },
      env: { STRIPE_SECRET_KEY: 'sk_test_wolfpack_0123456789', STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, STRIPE_API_BASE: paid.fake.url },
    });
    try {
      const client = new TestClient(paid.server.url);
      expect((await client.post('/api/auth/register', { username: 'twins', password: 'correct-horse' })).status).toBe(201);
      const res = await client.post('/api/billing/top-up', { amountDollars: 100 });
      const session = paid.fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
      const completed = paid.fake.completeSession(session.id);
      const again = paid.fake.event('checkout.session.completed', completed.data.object as object);
      const targets = [paid.server, twin, paid.server, twin];
      const replies = await Promise.all(
        targets.flatMap((target, i) => [
          paid.fake.deliver(`${target.url}/api/billing/webhook`, i % 2 === 0 ? completed : again, TEST_WEBHOOK_SECRET),
          paid.fake.deliver(`${target.url}/api/billing/webhook`, completed, TEST_WEBHOOK_SECRET),
        ]),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await client.get('/api/billing/balance')).json.balanceCents).toBe(1500 + 10_000 + 400);
    } finally {
      await twin.close();
      await paid.dispose();
    }
  });
});
