import Stripe from 'stripe';
import { AppError, type PaymentCard } from '@wolfpack/core';
import { paymentsConfigured, type StripeConfig } from '../../config/env.js';

export interface CheckoutSessionInput {
  amountCents: number;
  productName: string;
  metadata: Record<string, string>;
  clientReferenceId: string;
  successUrl: string;
  cancelUrl: string;
  /** The same key within 24 hours gives back the same session instead of a second one. */
  idempotencyKey: string;
  /** A subscription charges `amountCents` every `interval`; metadata is copied onto the subscription too. */
  subscription?: { interval: 'month' | 'year' };
}

export interface CreatedCheckout {
  id: string;
  url: string;
}

/** The fields of a Checkout Session a webhook handler reads. */
export interface CheckoutSessionFacts {
  id: string;
  paymentStatus: string;
  paymentIntentId: string | null;
  mode: string;
  /** The subscription a subscription-mode session started. */
  subscriptionId: string | null;
  metadata: Record<string, string>;
}

/** The fields of a Subscription the njin licence follows. */
export interface SubscriptionFacts {
  id: string;
  status: string;
  /** Unix seconds: the end of the period paid for (the latest among its items). */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
  metadata: Record<string, string>;
}

/** The fields of a subscription Invoice the njin licence follows. */
export interface InvoiceFacts {
  id: string;
  subscriptionId: string | null;
  /** Unix seconds: the end of the period the invoice bills (its lines' period, not its own period_end). */
  periodEnd: number | null;
  customerId: string | null;
  metadata: Record<string, string>;
  amountPaidCents: number;
  currency: string;
}

/**
 * The only code that talks to Stripe: the official SDK, pointed at `STRIPE_API_BASE` when set (a
 * fake in tests). Stripe's errors become AppErrors whose sentences never carry a key.
 */
export class StripeGateway {
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    apiBase?: string,
  ) {
    const target = apiBase ? new URL(apiBase) : undefined;
    this.stripe = new Stripe(secretKey, {
      ...(target
        ? { host: target.hostname, port: target.port || (target.protocol === 'http:' ? '80' : '443'), protocol: target.protocol === 'http:' ? 'http' : 'https' }
        : {}),
      // A webhook waits on the card lookup: Stripe gives up on an endpoint after a few seconds.
      timeout: 10_000,
      maxNetworkRetries: 2,
      telemetry: false,
      appInfo: { name: 'Wolfpack' },
    });
  }

  /** A gateway when both keys are configured, else undefined (payments are off). */
  static fromConfig(config: StripeConfig): StripeGateway | undefined {
    if (!paymentsConfigured(config)) return undefined;
    return new StripeGateway(config.secretKey!, config.webhookSecret!, config.apiBase);
  }

  /** A Checkout Session (mode payment, USD, one line item) to send the browser to. */
  async createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedCheckout> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: input.subscription ? 'subscription' : 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: input.amountCents,
                product_data: { name: input.productName },
                ...(input.subscription ? { recurring: { interval: input.subscription.interval } } : {}),
              },
            },
          ],
          metadata: input.metadata,
          ...(input.subscription ? { subscription_data: { metadata: input.metadata } } : {}),
          client_reference_id: input.clientReferenceId,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new AppError('BAD_GATEWAY', 'Stripe created the checkout without a payment page. Try again.');
      return { id: session.id, url: session.url };
    } catch (error) {
      throw toAppError(error, 'start the checkout');
    }
  }

  /**
   * Verifies the Stripe-Signature header over the exact bytes received and parses the event. A
   * missing or wrong signature (or a stale timestamp) is a 400: only Stripe can post events.
   */
  constructEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new AppError('BAD_REQUEST', 'The Stripe-Signature header is missing: only Stripe can post to this webhook.');
    let event: unknown;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch {
      throw new AppError('BAD_REQUEST', 'The Stripe signature of this webhook does not verify: only Stripe can post to this webhook.');
    }
    // Signed, yet not shaped like an event (JSON null, a list, no id, no data): the handlers read
    // event.id, event.type and event.data.object, so refuse it here with a sentence, not a 500.
    const e = event as Partial<Record<'id' | 'type' | 'data', unknown>> | null;
    if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof e.id !== 'string' || typeof e.type !== 'string' || typeof e.data !== 'object' || e.data === null) {
      throw new AppError('BAD_REQUEST', 'The webhook body is not a Stripe event (it needs an id, a type and data).');
    }
    return event as Stripe.Event;
  }

  /** A subscription as Stripe has it now. */
  async subscription(id: string): Promise<SubscriptionFacts> {
    try {
      return subscriptionFacts(await this.stripe.subscriptions.retrieve(id))!;
    } catch (error) {
      throw toAppError(error, 'read the subscription');
    }
  }

  /** Cancels (or, with false, resumes) a subscription at the end of the period already paid for. */
  async cancelAtPeriodEnd(id: string, cancel = true): Promise<SubscriptionFacts> {
    try {
      return subscriptionFacts(await this.stripe.subscriptions.update(id, { cancel_at_period_end: cancel }))!;
    } catch (error) {
      throw toAppError(error, 'cancel the subscription');
    }
  }

  /** The card a payment intent was paid with, from its payment method or else its charge. */
  async paymentCard(paymentIntentId: string): Promise<PaymentCard | null> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge', 'payment_method'] });
    } catch (error) {
      throw toAppError(error, 'read the payment');
    }
    return cardOf(intent);
  }
}

/** The card facts of a payment intent expanded with latest_charge and payment_method. */
export function cardOf(intent: Stripe.PaymentIntent): PaymentCard | null {
  const method = typeof intent.payment_method === 'object' ? intent.payment_method?.card : undefined;
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge?.payment_method_details?.card : undefined;
  const card = method ?? charge;
  if (!card?.brand || !card.last4 || !card.exp_month || !card.exp_year) return null;
  return { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

/** The Checkout Session fields webhook handling needs, from an event's data.object. */
export function checkoutSessionFacts(object: unknown): CheckoutSessionFacts | null {
  if (typeof object !== 'object' || object === null) return null;
  const session = object as Partial<Stripe.Checkout.Session>;
  if (session.object !== 'checkout.session' || typeof session.id !== 'string') return null;
  const intent = session.payment_intent;
  return {
    id: session.id,
    paymentStatus: String(session.payment_status ?? ''),
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
    mode: String(session.mode ?? ''),
    subscriptionId: idOf(session.subscription),
    metadata: { ...(session.metadata ?? {}) },
  };
}

/** The Subscription fields the licence needs, from an event's data.object or an API reply. */
export function subscriptionFacts(object: unknown): SubscriptionFacts | null {
  if (typeof object !== 'object' || object === null) return null;
  const sub = object as Partial<Stripe.Subscription>;
  if (sub.object !== 'subscription' || typeof sub.id !== 'string') return null;
  const ends = (sub.items?.data ?? []).map((item) => item.current_period_end).filter((n): n is number => typeof n === 'number');
  return {
    id: sub.id,
    status: String(sub.status ?? ''),
    currentPeriodEnd: ends.length > 0 ? Math.max(...ends) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    customerId: idOf(sub.customer),
    metadata: { ...(sub.metadata ?? {}) },
  };
}

/** The Invoice fields the licence needs: which subscription, and the end of the period it bills. */
export function invoiceFacts(object: unknown): InvoiceFacts | null {
  if (typeof object !== 'object' || object === null) return null;
  const invoice = object as Partial<Stripe.Invoice>;
  if (invoice.object !== 'invoice' || typeof invoice.id !== 'string') return null;
  const details = invoice.parent?.subscription_details ?? null;
  const ends = (invoice.lines?.data ?? []).map((line) => line.period?.end).filter((n): n is number => typeof n === 'number');
  return {
    id: invoice.id,
    subscriptionId: idOf(details?.subscription),
    periodEnd: ends.length > 0 ? Math.max(...ends) : null,
    customerId: idOf(invoice.customer),
    metadata: { ...(details?.metadata ?? {}) },
    amountPaidCents: Number(invoice.amount_paid ?? 0),
    currency: String(invoice.currency ?? 'usd'),
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (typeof value === 'string') return value;
  return value?.id ?? null;
}

function toAppError(error: unknown, doing: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    return new AppError('BAD_GATEWAY', `Stripe refused this server's STRIPE_SECRET_KEY, so it could not ${doing}. Ask the operator to check it.`, undefined, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return new AppError('CONFLICT', 'This Idempotency-Key was already used for a different request. Send a new key.', undefined, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new AppError('BAD_GATEWAY', `Could not reach Stripe to ${doing}. Try again in a moment.`, undefined, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new AppError('BAD_GATEWAY', `Stripe could not ${doing}: ${error.message}`, undefined, { cause: error });
  }
  return new AppError('BAD_GATEWAY', `Stripe could not ${doing}. Try again in a moment.`, undefined, { cause: error });
}
