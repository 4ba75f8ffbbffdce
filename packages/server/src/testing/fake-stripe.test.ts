import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { decodeStripeForm } from './stripe-wire.js';

const KEY = 'sk_test_fake_0123456789';

describe('decodeStripeForm', () => {
  it('reads bracket notation into hashes and indexed arrays, leaves as strings', () => {
    const text = 'mode=payment&metadata[userId]=u1&line_items[0][quantity]=1&line_items[0][price_data][unit_amount]=2500&line_items[1][quantity]=2&expand[]=a&expand[]=b&x=a%26b%3Dc';
    expect(decodeStripeForm(text)).toEqual({
      mode: 'payment',
      metadata: { userId: 'u1' },
      line_items: [{ quantity: '1', price_data: { unit_amount: '2500' } }, { quantity: '2' }],
      expand: ['a', 'b'],
      x: 'a&b=c',
    });
  });

  it('orders indexed entries by index and refuses a value that is also a hash', () => {
    expect(decodeStripeForm('a[1]=second&a[0]=first')).toEqual({ a: ['first', 'second'] });
    expect(() => decodeStripeForm('a=1&a[b]=2')).toThrow(/Invalid hash/);
    expect(() => decodeStripeForm('a[b]=2&a=1')).toThrow(/expected a hash/);
  });
});

describe('fake Stripe through the official SDK', () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = new Stripe(KEY, { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
  });
  afterAll(() => fake.close());

  const sessionParams = (): Stripe.Checkout.SessionCreateParams => ({
    mode: 'payment',
    line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Credits' } } }],
    metadata: { userId: 'u1', purpose: 'top_up', packDollars: '25' },
    client_reference_id: 'u1',
    success_url: 'http://app.test/settings?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/settings?checkout=cancelled',
  });

  it('creates a Checkout Session from form-encoded parameters and retrieves it', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    expect(session).toMatchObject({
      object: 'checkout.session', mode: 'payment', amount_total: 2500, currency: 'usd', status: 'open', payment_status: 'unpaid',
      metadata: { userId: 'u1', purpose: 'top_up', packDollars: '25' }, client_reference_id: 'u1', payment_intent: null,
      success_url: 'http://app.test/settings?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);
    const again = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(again.line_items?.data[0]).toMatchObject({ amount_total: 2500, quantity: 1, description: 'Credits' });
    const recorded = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(recorded?.params.line_items).toEqual([{ quantity: '1', price_data: { currency: 'usd', unit_amount: '2500', product_data: { name: 'Credits' } } }]);
    expect((await fetch(session.url!)).status).toBe(200);
  });

  it('replays the same session for the same Idempotency-Key and refuses the key with other parameters', async () => {
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'click-1' });
    const second = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'click-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = { ...sessionParams(), client_reference_id: 'u2' };
    await expect(stripe.checkout.sessions.create(other, { idempotencyKey: 'click-1' })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    const third = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'click-2' });
    expect(third.id).not.toBe(first.id);
  });

  it('refuses missing, unknown and wrong parameters with 400 and the param', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...sessionParams(), mode: undefined }, 'mode', /Missing required param: mode/],
      [{ ...sessionParams(), line_items: undefined }, 'line_items', /Missing required param: line_items/],
      [{ ...sessionParams(), colour: 'red' }, 'colour', /Received unknown parameter: colour/],
      [{ ...sessionParams(), success_url: 'not a url' }, 'success_url', /Not a valid URL/],
      [{ ...sessionParams(), line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 'lots', product_data: { name: 'x' } } }] }, 'line_items[0][price_data][unit_amount]', /Invalid integer/],
      [{ ...sessionParams(), line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2500 } }] }, 'line_items[0][price_data][product_data][name]', /Missing required param/],
      [{ ...sessionParams(), line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 10, product_data: { name: 'x' } } }] }, 'line_items', /at least \$0.50/],
      [{ ...sessionParams(), mode: 'subscription' }, 'line_items[0]', /recurring price/],
      [{ ...sessionParams(), metadata: { userId: { nested: 'x' } } }, 'metadata[userId]', /must be a string/],
    ];
    for (const [params, param, message] of cases) {
      const error = await stripe.checkout.sessions.create(params as unknown as Stripe.Checkout.SessionCreateParams).catch((e: unknown) => e);
      expect(error, param).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect((error as Stripe.errors.StripeError).statusCode).toBe(400);
      expect((error as Stripe.errors.StripeError).param).toBe(param);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('requires a Bearer sk_test_ key, with Stripe error JSON otherwise', async () => {
    const wrong = new Stripe('sk_live_abcdefgh1234', { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
    const error = await wrong.checkout.sessions.create(sessionParams()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Error).message).toBe('Invalid API Key provided: sk_live_********1234');
    const bare = await fetch(`${fake.url}/v1/checkout/sessions`, { method: 'POST' });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { type: string; message: string } }).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/You did not provide an API key/) });
  });

  it('answers unknown routes and ids with 404 in Stripe error JSON', async () => {
    const route = await fetch(`${fake.url}/v1/charges/nope`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(route.status).toBe(404);
    expect(await route.json()).toMatchObject({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL (GET: /v1/charges/nope). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.' } });
    const error = await stripe.checkout.sessions.retrieve('cs_test_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such checkout.session: 'cs_test_missing'" });
    await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('completes a session: a payment intent whose expanded charge and payment method carry the card', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const event = fake.completeSession(session.id, { card: { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 } });
    expect(event).toMatchObject({ object: 'event', type: 'checkout.session.completed', data: { object: { id: session.id, payment_status: 'paid', status: 'complete', metadata: { userId: 'u1' } } } });
    const intentId = (event.data.object as Stripe.Checkout.Session).payment_intent as string;
    const plain = await stripe.paymentIntents.retrieve(intentId);
    expect(plain).toMatchObject({ status: 'succeeded', amount: 2500, latest_charge: expect.stringMatching(/^ch_/), payment_method: expect.stringMatching(/^pm_/) });
    const expanded = await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge', 'payment_method'] });
    expect((expanded.payment_method as Stripe.PaymentMethod).card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 });
    expect((expanded.latest_charge as Stripe.Charge).payment_method_details?.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    await expect(stripe.paymentIntents.retrieve(intentId, { expand: ['customer.invoice'] })).rejects.toMatchObject({ statusCode: 400, message: 'This property cannot be expanded (customer.invoice).' });
    expect(() => fake.completeSession(session.id)).toThrow(/is complete/);
  });

  it('a delayed payment completes unpaid, then async_payment_succeeded pays it', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const completed = fake.completeSession(session.id, { paid: false });
    expect((completed.data.object as Stripe.Checkout.Session).payment_status).toBe('unpaid');
    const succeeded = fake.asyncPaymentSucceeded(session.id);
    expect(succeeded.type).toBe('checkout.session.async_payment_succeeded');
    expect((succeeded.data.object as Stripe.Checkout.Session).payment_status).toBe('paid');
    expect(succeeded.id).not.toBe(completed.id);
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
  });

  it('signs webhooks that the SDK verifies, and a wrong secret does not verify', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const event = fake.completeSession(session.id);
    const { body, header } = fake.signedWebhook(event, 'whsec_test_secret');
    expect(stripe.webhooks.constructEvent(body, header, 'whsec_test_secret').id).toBe(event.id);
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(body.replace('"paid"', '"unpaid"'), header, 'whsec_test_secret')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('fails requests on demand, as an outage would', async () => {
    const local = await startFakeStripe();
    try {
      const client = new Stripe(KEY, { host: '127.0.0.1', port: local.port, protocol: 'http' });
      local.failRequests('GET', '/v1/payment_intents/');
      await expect(client.paymentIntents.retrieve('pi_any')).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(local.requests.filter((r) => r.path === '/v1/payment_intents/pi_any')).toHaveLength(1);
    } finally {
      await local.close();
    }
  });

  it('runs a subscription: checkout in subscription mode, the subscription and its invoices, cancel at period end', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2900, recurring: { interval: 'month' }, product_data: { name: 'njin' } } }],
      metadata: { userId: 'u1', purpose: 'njin' },
      subscription_data: { metadata: { userId: 'u1', purpose: 'njin' } },
      success_url: 'https://example.com/ok',
      cancel_url: 'https://example.com/no',
    });
    const completed = fake.completeSession(session.id).data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ mode: 'subscription', payment_status: 'paid', payment_intent: null });
    const sub = await stripe.subscriptions.retrieve(String(completed.subscription));
    expect(sub).toMatchObject({ status: 'active', cancel_at_period_end: false, metadata: { purpose: 'njin' } });
    const end = sub.items.data[0]!.current_period_end;
    expect(end).toBeGreaterThan(sub.items.data[0]!.current_period_start);
    const first = fake.firstInvoicePaid(sub.id).data.object as Stripe.Invoice;
    expect(first).toMatchObject({ status: 'paid', amount_paid: 2900, billing_reason: 'subscription_create', parent: { subscription_details: { subscription: sub.id } } });
    expect(first.lines.data[0]!.period.end).toBe(end);
    const renewal = fake.renewSubscription(sub.id);
    expect(renewal.type).toBe('invoice.paid');
    expect((renewal.data.object as Stripe.Invoice).lines.data[0]!.period).toMatchObject({ start: end });
    const failed = fake.failRenewal(sub.id);
    expect(failed).toMatchObject({ type: 'invoice.payment_failed', data: { object: { status: 'open', amount_paid: 0 } } });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const cancelled = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(cancelled.cancel_at_period_end).toBe(true);
    const deleted = fake.endSubscription(sub.id);
    expect(deleted).toMatchObject({ type: 'customer.subscription.deleted', data: { object: { id: sub.id, status: 'canceled' } } });
    await expect(stripe.subscriptions.update(sub.id, { cancel_at_period_end: false })).rejects.toThrow(/canceled subscription/);
    await expect(stripe.subscriptions.retrieve('sub_missing')).rejects.toThrow(/No such subscription/);
    // Payment mode refuses recurring prices and subscription_data, as Stripe does.
    await expect(stripe.checkout.sessions.create({ ...sessionParams(), subscription_data: { metadata: { a: 'b' } } })).rejects.toThrow(/subscription_data/);
  });
});
