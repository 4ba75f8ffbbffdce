/**
 * The fake Stripe's subscriptions and invoices (njin licences): what a paid subscription-mode
 * checkout starts, and the events tests deliver as the subscription lives on (renewals, failed
 * charges, cancellations, the end).
 */
import type Stripe from 'stripe';
import { invoiceJson, periodEnd, randomId, subscriptionJson, unixNow, type FakeLineItem } from './stripe-wire.js';

type Json = Record<string, unknown>;
type MakeEvent = (type: string, object: object) => Stripe.Event;

const currentPeriodEnd = (sub: Json): number => Number((sub.items as { data: Json[] }).data[0]!.current_period_end);

export function fakeSubscriptionBook(event: MakeEvent) {
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();

  const open = (id: string): Json => {
    const sub = subscriptions.get(id);
    if (!sub) throw new Error(`fake Stripe: no subscription ${id}`);
    return sub;
  };

  /** The next period of a subscription and its invoice, paid or not. */
  const nextPeriod = (id: string, paid: boolean): Json => {
    const sub = open(id);
    const item = (sub.items as { data: Json[] }).data[0]!;
    const start = Number(item.current_period_end);
    const interval = (item.price as FakeLineItem['price']).recurring?.interval ?? 'month';
    item.current_period_start = start;
    item.current_period_end = periodEnd(start, interval);
    const invoice = invoiceJson(sub, 'subscription_cycle', paid);
    sub.latest_invoice = invoice.id;
    sub.status = paid ? 'active' : 'past_due';
    invoices.set(String(invoice.id), invoice);
    return invoice;
  };

  /** Sets or takes back the cancellation at the period end, as `POST /v1/subscriptions/{id}` does. */
  const setCancel = (sub: Json, cancel: boolean): void => {
    sub.cancel_at_period_end = cancel;
    sub.canceled_at = cancel ? unixNow() : null;
    sub.cancel_at = cancel ? currentPeriodEnd(sub) : null;
  };

  return {
    subscriptions,
    invoices,
    setCancel,
    /** A paid subscription-mode checkout: its subscription and first (paid) invoice; answers the subscription id. */
    start(input: { customer: string; item: FakeLineItem; metadata: Record<string, string>; created: number }): string {
      const id = randomId('sub_');
      const sub = subscriptionJson({ id, customer: input.customer, item: input.item, metadata: input.metadata, latestInvoice: '', start: input.created });
      const invoice = invoiceJson(sub, 'subscription_create', true);
      sub.latest_invoice = invoice.id;
      subscriptions.set(id, sub);
      invoices.set(String(invoice.id), invoice);
      return id;
    },
    /** Events of a subscription's life, to sign and deliver. */
    events: {
      /** The first invoice of a subscription started by a checkout was paid: `invoice.paid`. */
      firstInvoicePaid(subscriptionId: string): Stripe.Event {
        return event('invoice.paid', invoices.get(String(open(subscriptionId).latest_invoice))!);
      },
      /** The next period was charged: the period moves on one interval and `invoice.paid` is returned. */
      renewSubscription(subscriptionId: string): Stripe.Event {
        return event('invoice.paid', nextPeriod(subscriptionId, true));
      },
      /** The next period's charge failed: the subscription is past_due and `invoice.payment_failed` is returned. */
      failRenewal(subscriptionId: string): Stripe.Event {
        return event('invoice.payment_failed', nextPeriod(subscriptionId, false));
      },
      /** A cancellation at the period end set or taken back outside the server (the dashboard, the portal): `customer.subscription.updated`. */
      setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Stripe.Event {
        const sub = open(subscriptionId);
        setCancel(sub, cancel);
        return event('customer.subscription.updated', sub);
      },
      /** The subscription ended (cancelled now, or its last period ran out): `customer.subscription.deleted`. */
      endSubscription(subscriptionId: string): Stripe.Event {
        const sub = open(subscriptionId);
        sub.status = 'canceled';
        sub.ended_at = unixNow();
        sub.canceled_at ??= unixNow();
        return event('customer.subscription.deleted', sub);
      },
    },
  };
}
