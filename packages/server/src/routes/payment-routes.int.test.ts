import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReply, ledgerReply, PAYMENTS_NOT_CONFIGURED } from '@wolfpack/core';
import { startFakeStripe, type FakeStripe } from '../testing/fake-stripe.js';
import { startPaidTestServer, TEST_STRIPE_KEY, TEST_WEBHOOK_SECRET, type PaidTestServer } from '../testing/paid-test-server.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const KEY = TEST_STRIPE_KEY;
const SECRET = TEST_WEBHOOK_SECRET;

const sql = <T = Array<Record<string, unknown>>>(server: TestServer, text: string, params: unknown[] = []) =>
  (server.db.orm.em.fork() as Sql).execute<T>(text, params);

describe.each(testDatabases())('Stripe payments on %s', (kind) => {
  let paid: PaidTestServer;
  let fake: FakeStripe;
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    paid = await startPaidTestServer(kind);
    ({ fake, server } = paid);
  });
  afterAll(() => paid?.dispose());

  /** A new signed-in user with the new-account balance, and their id. */
  async function buyer(on: TestServer = server): Promise<{ client: TestClient; userId: string }> {
    const client = new TestClient(on.url);
    const username = `buyer${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    expect(await balance(client)).toBe(1500);
    const [row] = await sql<Array<{ id: string }>>(on, 'select id from users where username = ?', [username]);
    return { client, userId: row!.id };
  }
  const balance = async (client: TestClient) => (await client.get('/api/billing/balance')).json.balanceCents as number;
  async function topUp(client: TestClient, amountDollars: number, headers: Record<string, string> = {}) {
    const res = await client.post('/api/billing/top-up', { amountDollars }, headers);
    expect(res.status, res.text).toBe(200);
    const { checkoutUrl } = checkoutReply.parse(res.json);
    const session = fake.sessionByUrl(checkoutUrl);
    expect(session, 'the URL is a session the fake created').toBeDefined();
    return session!;
  }
  const deliver = (event: object, secret = SECRET, on: TestServer = server) => fake.deliver(`${on.url}/api/billing/webhook`, event, secret);
  const checkoutRow = async (id: string) =>
    (await sql<Array<{ status: string; amount_cents: number; pack_dollars: number; user_id: string; fulfilled_at: Date | null }>>(server, 'select * from stripe_checkouts where id = ?', [id]))[0];
  const entries = async (client: TestClient) => ledgerReply.parse((await client.get('/api/billing/ledger?limit=100')).json).entries;

  it('a $25 top-up answers the checkout URL of a session with the pack amount, metadata and redirects', async () => {
    const { client, userId } = await buyer();
    const session = await topUp(client, 25);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 2500,
      currency: 'usd',
      metadata: { userId, purpose: 'top_up', packDollars: '25' },
      client_reference_id: userId,
      success_url: `${server.url}/settings?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/settings?checkout=cancelled`,
    });
    expect(fake.lineItems(session.id)).toMatchObject([{ quantity: 1, amount_total: 2500, price: { unit_amount: 2500, currency: 'usd' } }]);
    const created = fake.requests.find((r) => r.method === 'POST' && r.status === 200 && r.params.client_reference_id === userId);
    expect(created?.idempotencyKey).toMatch(new RegExp(`^topup:${userId}:`));
    expect(await checkoutRow(session.id)).toMatchObject({ status: 'open', amount_cents: 2500, pack_dollars: 25, user_id: userId });
    expect(await balance(client)).toBe(1500);
  });

  it('the same Idempotency-Key gives back the same checkout; another key a new one', async () => {
    const { client, userId } = await buyer();
    const first = await topUp(client, 50, { 'idempotency-key': 'click-42' });
    const again = await topUp(client, 50, { 'idempotency-key': 'click-42' });
    const other = await topUp(client, 50, { 'idempotency-key': 'click-43' });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    const rows = await sql<Array<{ n: string | number }>>(server, 'select count(*) as n from stripe_checkouts where user_id = ?', [userId]);
    expect(Number(rows[0]!.n)).toBe(2);
    const conflict = await client.post('/api/billing/top-up', { amountDollars: 10 }, { 'idempotency-key': 'click-42' });
    expect(conflict.status).toBe(409);
    const bad = await client.post('/api/billing/top-up', { amountDollars: 10 }, { 'idempotency-key': 'ü' });
    expect(bad.status).toBe(400);
  });

  it('refuses an amount that is not a pack with a 400 naming the packs, and a signed-out caller with 401', async () => {
    const { client } = await buyer();
    const before = fake.requests.length;
    for (const amountDollars of [30, 0, -10, '25', 25.5]) {
      const res = await client.post('/api/billing/top-up', { amountDollars });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'Choose a credit pack of $10, $25, $50 or $100' });
    }
    expect(fake.requests.length).toBe(before);
    expect((await new TestClient(server.url).post('/api/billing/top-up', { amountDollars: 25 })).status).toBe(401);
  });

  it('a bad or missing signature is a 400 and changes nothing', async () => {
    const { client } = await buyer();
    const session = await topUp(client, 25);
    const event = fake.completeSession(session.id);
    expect((await deliver(event, 'whsec_someone_else')).status).toBe(400);
    const { body, header } = fake.signedWebhook(event, SECRET);
    const post = (b: string, h: Record<string, string>) => fetch(`${server.url}/api/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...h }, body: b });
    const tampered = await post(body.replace('"amount_total": 2500', '"amount_total": 250000'), { 'stripe-signature': header });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/signature/) });
    expect((await post(body, {})).status).toBe(400);
    const stale = fake.signedWebhook(event, SECRET, Math.floor(Date.now() / 1000) - 3600);
    expect((await post(stale.body, { 'stripe-signature': stale.header })).status).toBe(400);
    expect(await balance(client)).toBe(1500);
    expect((await checkoutRow(session.id))!.status).toBe('open');
    expect(await sql(server, 'select id from stripe_events where id = ?', [event.id])).toHaveLength(0);
  });

  it('the same completed event delivered 10 times at once credits 2500 + 50 once, and keeps the card', async () => {
    const { client, userId } = await buyer();
    const session = await topUp(client, 25);
    const event = fake.completeSession(session.id, { card: { brand: 'mastercard', last4: '5454', expMonth: 7, expYear: 2032 } });
    const replies = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies[0]!.json).toEqual({ received: true });
    expect(await balance(client)).toBe(1500 + 2500 + 50);
    const credits = (await entries(client)).filter((e) => e.kind === 'top_up' || e.kind === 'pack_bonus');
    expect(credits.map((e) => [e.kind, e.amountCents]).sort()).toEqual([['pack_bonus', 50], ['top_up', 2500]]);
    expect(await checkoutRow(session.id)).toMatchObject({ status: 'paid', fulfilled_at: expect.anything() });
    expect(await sql(server, 'select id from stripe_events where id = ?', [event.id])).toHaveLength(1);
    const cards = await sql<Array<Record<string, unknown>>>(server, 'select brand, last4, exp_month, exp_year from payment_cards where user_id = ?', [userId]);
    expect(cards).toEqual([{ brand: 'mastercard', last4: '5454', exp_month: 7, exp_year: 2032 }]);
    // Later redelivery, days after: still once.
    expect((await deliver(event)).status).toBe(200);
    expect(await balance(client)).toBe(4050);
  });

  it('async_payment_succeeded after a paid completed event credits once', async () => {
    const { client } = await buyer();
    const session = await topUp(client, 100);
    const completed = fake.completeSession(session.id);
    const succeeded = fake.asyncPaymentSucceeded(session.id);
    expect((await deliver(completed)).status).toBe(200);
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await balance(client)).toBe(1500 + 10000 + 400);
  });

  it('events out of order (async success before completed) credit once', async () => {
    const { client } = await buyer();
    const session = await topUp(client, 10);
    const completed = fake.completeSession(session.id, { paid: false });
    const succeeded = fake.asyncPaymentSucceeded(session.id);
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await balance(client)).toBe(1500 + 1000);
    expect((await deliver(completed)).status).toBe(200);
    expect(await balance(client)).toBe(2500);
    expect((await entries(client)).filter((e) => e.kind === 'pack_bonus')).toHaveLength(0);
  });

  it('an unpaid completed event credits nothing until the async success arrives', async () => {
    const { client, userId } = await buyer();
    const session = await topUp(client, 50);
    const completed = fake.completeSession(session.id, { paid: false });
    expect((await deliver(completed)).status).toBe(200);
    expect(await balance(client)).toBe(1500);
    expect((await checkoutRow(session.id))!.status).toBe('open');
    expect(await sql(server, 'select user_id from payment_cards where user_id = ?', [userId])).toHaveLength(0);
    const succeeded = fake.asyncPaymentSucceeded(session.id);
    expect((await Promise.all([deliver(succeeded), deliver(succeeded), deliver(completed)])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await balance(client)).toBe(1500 + 5000 + 200);
    expect(await sql(server, 'select user_id from payment_cards where user_id = ?', [userId])).toHaveLength(1);
  });

  it('unknown event types, and sessions this server never created, are acknowledged and ignored', async () => {
    const { client } = await buyer();
    const unknown = fake.event('customer.created', { id: 'cus_123', object: 'customer' });
    expect(await deliver(unknown)).toEqual({ status: 200, json: { received: true } });
    const stranger = await new Stripe(KEY, { host: '127.0.0.1', port: fake.port, protocol: 'http' }).checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 9900, product_data: { name: 'Elsewhere' } } }],
      success_url: 'https://elsewhere.example/ok',
      metadata: { userId: 'not-ours', purpose: 'top_up', packDollars: '100' },
    });
    expect((await deliver(fake.completeSession(stranger.id))).status).toBe(200);
    expect(await sql(server, 'select id from stripe_checkouts where id = ?', [stranger.id])).toHaveLength(0);
    expect(await balance(client)).toBe(1500);
  });

  it('an expired session is marked expired and never credits', async () => {
    const { client } = await buyer();
    const session = await topUp(client, 25);
    expect((await deliver(fake.expireSession(session.id))).status).toBe(200);
    expect((await checkoutRow(session.id))!.status).toBe('expired');
    expect(await balance(client)).toBe(1500);
  });

  it('refuses a webhook body over 1 MB with 413', async () => {
    const res = await fetch(`${server.url}/api/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(res.status).toBe(413);
  });

  it('without Stripe keys, top-up and webhook answer 503 with the sentence', async () => {
    const bare = await startTestServer(kind);
    try {
      const { client } = await buyer(bare);
      const res = await client.post('/api/billing/top-up', { amountDollars: 25 });
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: PAYMENTS_NOT_CONFIGURED });
      expect((await deliver(fake.event('customer.created', {}), SECRET, bare)).status).toBe(503);
      expect(await balance(client)).toBe(1500);
    } finally {
      await bare.dispose();
    }
  });

  it('a card that cannot be fetched never blocks the credit', async () => {
    const broken = await startFakeStripe();
    const other = await startTestServer(kind, { env: { STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: broken.url } });
    try {
      broken.failRequests('GET', '/v1/payment_intents/');
      const { client, userId } = await buyer(other);
      const res = await client.post('/api/billing/top-up', { amountDollars: 25 });
      const session = broken.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
      const delivered = await broken.deliver(`${other.url}/api/billing/webhook`, broken.completeSession(session.id), SECRET);
      expect(delivered.status).toBe(200);
      expect(await balance(client)).toBe(4050);
      expect(await sql(other, 'select user_id from payment_cards where user_id = ?', [userId])).toHaveLength(0);
      expect(broken.requests.some((r) => r.path.startsWith('/v1/payment_intents/') && r.status === 500)).toBe(true);
    } finally {
      await other.dispose();
      await broken.close();
    }
  });
});
