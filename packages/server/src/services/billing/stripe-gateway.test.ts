import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@wolfpack/core';
import { startFakeStripe, type FakeStripe } from '../../testing/fake-stripe.js';
import { cardOf, checkoutSessionFacts, invoiceFacts, StripeGateway, subscriptionFacts } from './stripe-gateway.js';

const KEY = 'sk_test_gateway_0123456789';
const SECRET = 'whsec_gateway';

describe('StripeGateway against the fake Stripe', () => {
  let fake: FakeStripe;
  let gateway: StripeGateway;
  beforeAll(async () => {
    fake = await startFakeStripe();
    gateway = new StripeGateway(KEY, SECRET, fake.url);
  });
  afterAll(() => fake.close());

  const input = (key: string) => ({
    amountCents: 5000,
    productName: 'Credits',
    metadata: { userId: 'u1', purpose: 'top_up', packDollars: '50' },
    clientReferenceId: 'u1',
    successUrl: 'http://app.test/settings?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://app.test/settings?checkout=cancelled',
    idempotencyKey: key,
  });

  it('is built only when both keys are configured', () => {
    expect(StripeGateway.fromConfig({ secretKey: KEY, webhookSecret: undefined, apiBase: undefined })).toBeUndefined();
    expect(StripeGateway.fromConfig({ secretKey: undefined, webhookSecret: SECRET, apiBase: undefined })).toBeUndefined();
    expect(StripeGateway.fromConfig({ secretKey: KEY, webhookSecret: SECRET, apiBase: fake.url })).toBeInstanceOf(StripeGateway);
  });

  it('creates a payment-mode session with one line item, sending the idempotency key', async () => {
    const created = await gateway.createCheckoutSession(input('k-1'));
    expect(await gateway.createCheckoutSession(input('k-1'))).toEqual(created);
    const session = fake.sessions.get(created.id)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 5000, currency: 'usd', url: created.url });
    expect(fake.requests.filter((r) => r.idempotencyKey === 'k-1')).toHaveLength(2);
  });

  it("turns Stripe's refusals into AppErrors that never show the key", async () => {
    const wrong = new StripeGateway('sk_live_wrongwrongwrong9999', SECRET, fake.url);
    const error = await wrong.createCheckoutSession(input('k-2')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/STRIPE_SECRET_KEY/) });
    expect((error as Error).message).not.toMatch(/sk_live|9999/);
    await gateway.createCheckoutSession(input('k-3'));
    await expect(gateway.createCheckoutSession({ ...input('k-3'), amountCents: 1000 })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(gateway.createCheckoutSession({ ...input('k-4'), successUrl: 'nope' })).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/Not a valid URL/) });
    const unreachable = new StripeGateway(KEY, SECRET, 'http://127.0.0.1:1');
    await expect(unreachable.createCheckoutSession(input('k-5'))).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/Could not reach Stripe/) });
  }, 20_000);

  it('verifies signatures over the exact bytes', async () => {
    const created = await gateway.createCheckoutSession(input('k-6'));
    const event = fake.completeSession(created.id);
    const { body, header } = fake.signedWebhook(event, SECRET);
    expect(gateway.constructEvent(Buffer.from(body), header).id).toBe(event.id);
    expect(() => gateway.constructEvent(Buffer.from(JSON.stringify(JSON.parse(body))), header)).toThrow(/does not verify/);
    expect(() => gateway.constructEvent(Buffer.from(body), undefined)).toThrow(/Stripe-Signature header is missing/);
    expect(() => gateway.constructEvent(Buffer.from(body), 'garbage')).toThrow(AppError);
  });

  it('reads the card of a payment intent', async () => {
    const created = await gateway.createCheckoutSession(input('k-7'));
    const event = fake.completeSession(created.id, { card: { brand: 'amex', last4: '0005', expMonth: 1, expYear: 2030 } });
    const facts = checkoutSessionFacts(event.data.object)!;
    expect(await gateway.paymentCard(facts.paymentIntentId!)).toEqual({ brand: 'amex', last4: '0005', expMonth: 1, expYear: 2030 });
    await expect(gateway.paymentCard('pi_missing')).rejects.toMatchObject({ code: 'BAD_GATEWAY' });
  });
});

describe('cardOf and checkoutSessionFacts', () => {
  const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 };
  it('prefers the payment method card, falls back to the charge, and gives null without either', () => {
    const intent = (pm: unknown, charge: unknown) => ({ payment_method: pm, latest_charge: charge }) as unknown as Stripe.PaymentIntent;
    expect(cardOf(intent({ card }, 'ch_1'))).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    expect(cardOf(intent('pm_1', { payment_method_details: { card: { ...card, brand: 'jcb' } } }))).toMatchObject({ brand: 'jcb' });
    expect(cardOf(intent('pm_1', 'ch_1'))).toBeNull();
    expect(cardOf(intent(null, null))).toBeNull();
    expect(cardOf(intent({ card: { ...card, last4: null } }, null))).toBeNull();
  });

  it('reads id, payment status and payment intent (id or expanded) of a session only', () => {
    expect(checkoutSessionFacts({ object: 'checkout.session', id: 'cs_1', payment_status: 'paid', payment_intent: 'pi_1' })).toEqual({ id: 'cs_1', paymentStatus: 'paid', paymentIntentId: 'pi_1', mode: '', subscriptionId: null, metadata: {} });
    expect(checkoutSessionFacts({ object: 'checkout.session', id: 'cs_3', mode: 'subscription', subscription: 'sub_1', metadata: { purpose: 'njin' } })).toMatchObject({ mode: 'subscription', subscriptionId: 'sub_1', metadata: { purpose: 'njin' } });
    expect(checkoutSessionFacts({ object: 'checkout.session', id: 'cs_1', payment_status: 'unpaid', payment_intent: { id: 'pi_2' } })?.paymentIntentId).toBe('pi_2');
    expect(checkoutSessionFacts({ object: 'checkout.session', id: 'cs_1', payment_intent: null })?.paymentIntentId).toBeNull();
    expect(checkoutSessionFacts({ object: 'customer', id: 'cus_1' })).toBeNull();
    expect(checkoutSessionFacts(null)).toBeNull();
  });

  it('reads the period end of a subscription from its items and of an invoice from its lines', () => {
    const sub = { object: 'subscription', id: 'sub_1', status: 'active', cancel_at_period_end: true, customer: 'cus_1', metadata: { userId: 'u' }, items: { data: [{ current_period_end: 100 }, { current_period_end: 200 }] } };
    expect(subscriptionFacts(sub)).toEqual({ id: 'sub_1', status: 'active', currentPeriodEnd: 200, cancelAtPeriodEnd: true, customerId: 'cus_1', metadata: { userId: 'u' } });
    const invoice = { object: 'invoice', id: 'in_1', customer: { id: 'cus_1' }, period_end: 50, lines: { data: [{ period: { start: 50, end: 150 } }] }, parent: { subscription_details: { subscription: 'sub_1', metadata: { purpose: 'njin' } } } };
    expect(invoiceFacts({ ...invoice, amount_paid: 2900, currency: 'usd' })).toEqual({ id: 'in_1', subscriptionId: 'sub_1', periodEnd: 150, customerId: 'cus_1', metadata: { purpose: 'njin' }, amountPaidCents: 2900, currency: 'usd' });
    expect(invoiceFacts(sub)).toBeNull();
    expect(subscriptionFacts(invoice)).toBeNull();
  });
});
