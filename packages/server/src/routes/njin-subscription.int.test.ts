import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { startPaidTestServer, type PaidTestServer } from '../testing/paid-test-server.js';
import { testDatabases } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

describe.each(testDatabases())('njin subscription lifecycle on %s', (kind) => {
  let paid: PaidTestServer;
  let users = 0;
  beforeAll(async () => {
    paid = await startPaidTestServer(kind);
  });
  afterAll(() => paid?.dispose());
  const sql = <T = Array<Record<string, unknown>>>(text: string, params: unknown[] = []) => (paid.server.db.orm.em.fork() as Sql).execute<T>(text, params);

  /** A signed-in user who went through Checkout: the fake's session, completed, and its subscription id. */
  async function subscriber() {
    const client = new TestClient(paid.server.url);
    const username = `subscriber${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const res = await client.post('/api/njin/subscribe');
    expect(res.status, res.text).toBe(200);
    const session = paid.fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
    const completed = paid.fake.completeSession(session.id);
    const subscriptionId = paid.fake.sessions.get(session.id)!.subscription!;
    return { client, session, completed, subscriptionId };
  }
  // Not parsed with njinLicenseReply: its apiKey schema refuses the contract's "" for a user without keys.
  const license = async (client: TestClient) => (await client.get('/api/njin/license')).json.license as Record<string, unknown> | null;
  const periodEnd = (subscriptionId: string) => {
    const sub = paid.fake.subscriptions.get(subscriptionId)! as { items: { data: Array<{ current_period_end: number }> } };
    return new Date(sub.items.data[0]!.current_period_end * 1000).toISOString();
  };
  const deliver = async (event: object) => {
    const res = await paid.deliver(event);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  };

  it('subscribes through a $29/month subscription Checkout that names the user', async () => {
    const { session, subscriptionId } = await subscriber();
    expect(session.mode).toBe('subscription');
    expect(session.amount_total).toBe(2900);
    expect(paid.fake.lineItems(session.id)[0]!.price).toMatchObject({ unit_amount: 2900, recurring: { interval: 'month' }, type: 'recurring' });
    expect(session.metadata.purpose).toBe('njin');
    expect(paid.fake.subscriptions.get(subscriptionId)!.metadata).toMatchObject({ purpose: 'njin', userId: session.metadata.userId });
  });

  it('activates on checkout.session.completed with the period end, renews on invoice.paid, ignores duplicates', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    expect(await license(client)).toBeNull();
    await deliver(completed);
    await deliver(completed);
    expect(await license(client)).toMatchObject({ status: 'active', usageCount: 0, expiresAt: periodEnd(subscriptionId) });
    await deliver(paid.fake.firstInvoicePaid(subscriptionId));
    const first = periodEnd(subscriptionId);
    const renewal = paid.fake.renewSubscription(subscriptionId);
    await deliver(renewal);
    await deliver(renewal);
    const second = periodEnd(subscriptionId);
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    expect(await license(client)).toMatchObject({ status: 'active', expiresAt: second });
    const events = await sql<Array<{ n: number }>>('select count(*)::int as n from stripe_events where id = ?', [renewal.id]);
    expect(Number(events[0]!.n)).toBe(1);
    // Two invoices paid (the first and the renewal), each recorded once for the revenue figures.
    const payments = await sql<Array<{ amount_cents: number }>>('select amount_cents from njin_payments where subscription_id = ?', [subscriptionId]);
    expect(payments.map((p) => Number(p.amount_cents))).toEqual([2900, 2900]);
  });

  it('a failed renewal leaves the licence active until the period end; deletion ends it', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    await deliver(completed);
    const paidUntil = periodEnd(subscriptionId);
    await deliver(paid.fake.failRenewal(subscriptionId));
    expect(await license(client)).toMatchObject({ status: 'active', expiresAt: paidUntil });
    await deliver(paid.fake.endSubscription(subscriptionId));
    expect(await license(client)).toMatchObject({ status: 'canceled' });
  });

  it('cancels at the period end through Stripe: still active, Stripe told cancel_at_period_end', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    await deliver(completed);
    const res = await client.post('/api/njin/cancel');
    expect(res.status, res.text).toBe(200);
    expect(res.json.license).toMatchObject({ status: 'active', expiresAt: periodEnd(subscriptionId), source: 'subscription' });
    expect(paid.fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    const update = paid.fake.requests.find((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`);
    expect(update?.params).toEqual({ cancel_at_period_end: 'true' });
    const row = await sql<Array<{ cancel_at_period_end: boolean }>>('select cancel_at_period_end from njin_licences where stripe_subscription_id = ?', [subscriptionId]);
    expect(row[0]!.cancel_at_period_end).toBe(true);
    // Without a subscription there is nothing to cancel.
    const other = new TestClient(paid.server.url);
    expect((await other.post('/api/auth/register', { username: `nosub${(users += 1)}`, password: 'correct-horse' })).status).toBe(201);
    expect((await other.post('/api/njin/cancel')).status).toBe(404);
  });

  it('follows a cancellation set and taken back in Stripe; an older update arriving late changes nothing', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    await deliver(completed);
    const flag = async () =>
      (await sql<Array<{ cancel_at_period_end: boolean }>>('select cancel_at_period_end from njin_licences where stripe_subscription_id = ?', [subscriptionId]))[0]!.cancel_at_period_end;
    const cancelled = paid.fake.setCancelAtPeriodEnd(subscriptionId, true);
    const resumed = paid.fake.setCancelAtPeriodEnd(subscriptionId, false);
    (cancelled as { created: number }).created -= 60;
    await deliver(resumed);
    expect(await flag()).toBe(false);
    // The cancellation happened a minute before the resumption: arriving now, it is history.
    await deliver(cancelled);
    expect(await flag()).toBe(false);
    const again = paid.fake.setCancelAtPeriodEnd(subscriptionId, true);
    await deliver(again);
    await deliver(again);
    expect(await flag()).toBe(true);
    expect(await license(client)).toMatchObject({ status: 'active', expiresAt: periodEnd(subscriptionId) });
    // Taken back in Stripe, then cancelled here: the route sets the flag at the server's time, so
    // an update Stripe sent before it is older.
    const stale = paid.fake.setCancelAtPeriodEnd(subscriptionId, false);
    (stale as { created: number }).created -= 60;
    await deliver(paid.fake.setCancelAtPeriodEnd(subscriptionId, false));
    expect(await flag()).toBe(false);
    expect((await client.post('/api/njin/cancel')).status).toBe(200);
    expect(await flag()).toBe(true);
    await deliver(stale);
    expect(await flag()).toBe(true);
  });

  it('out of order: a renewal before the activation never moves the period end back', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    const firstInvoice = paid.fake.firstInvoicePaid(subscriptionId);
    const renewal = paid.fake.renewSubscription(subscriptionId);
    const latest = periodEnd(subscriptionId);
    await deliver(renewal);
    expect(await license(client)).toMatchObject({ status: 'active', expiresAt: latest });
    await deliver(firstInvoice);
    await deliver(completed);
    expect(await license(client)).toMatchObject({ status: 'active', expiresAt: latest });
  });

  it('out of order: a deletion before the payment events is never revived by them', async () => {
    const { client, completed, subscriptionId } = await subscriber();
    const invoice = paid.fake.firstInvoicePaid(subscriptionId);
    await deliver(paid.fake.endSubscription(subscriptionId));
    await deliver(invoice);
    await deliver(completed);
    expect((await license(client))?.status ?? 'none').not.toBe('active');
  });
});
