import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { AppError, creditPack, CREDIT_PACKS, formatCents, PAYMENTS_NOT_CONFIGURED, type CreditPackDollars } from '@wolfpack/core';
import type { Logger } from '../../logger.js';
import type { LedgerService, WalletTx } from './ledger-service.js';
import {
  checkoutSessionFacts,
  invoiceFacts,
  subscriptionFacts,
  type CheckoutSessionFacts,
  type InvoiceFacts,
  type StripeGateway,
  type SubscriptionFacts,
} from './stripe-gateway.js';
import type { Sql } from '../../db/plain-sql.js';

/** What a Checkout Session buys: credits, a Showcase listing, the njin licence. */
export type CheckoutPurpose = 'top_up' | 'listing' | 'njin';

export interface StartCheckoutInput {
  userId: string;
  purpose: CheckoutPurpose;
  /** What the buyer pays, in cents: the fulfilment reads it back from the stored row. */
  amountCents: number;
  productName: string;
  /** What is bought besides credits (a listing id). */
  referenceId?: string | null;
  packDollars?: number | null;
  /** More metadata for the Stripe dashboard; userId, purpose and referenceId are always set. */
  metadata?: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** The same key within 24 hours gives back the same session instead of a second one. */
  idempotencyKey: string;
  /** Set for a subscription: `amountCents` is charged every interval until it is cancelled. */
  subscription?: { interval: 'month' | 'year' };
}

/**
 * What a subscription's events mean to the product that sold it (the njin licence). Each call runs
 * inside a transaction that has just recorded the event id for the first time: a redelivered event
 * never reaches it, and the event and its effect commit together.
 */
export interface SubscriptionHandler {
  /** A subscription-mode checkout this server created was paid; `subscription` as Stripe has it now. */
  checkoutCompleted(em: Sql, event: Stripe.Event, checkout: CheckoutRow, session: CheckoutSessionFacts, subscription: SubscriptionFacts | null): Promise<void>;
  invoicePaid(em: Sql, event: Stripe.Event, invoice: InvoiceFacts): Promise<void>;
  invoicePaymentFailed(em: Sql, event: Stripe.Event, invoice: InvoiceFacts): Promise<void>;
  subscriptionUpdated(em: Sql, event: Stripe.Event, subscription: SubscriptionFacts): Promise<void>;
  subscriptionDeleted(em: Sql, event: Stripe.Event, subscription: SubscriptionFacts): Promise<void>;
}

/** A Checkout Session this server created, as stored when it was created (the source of truth). */
export interface CheckoutRow {
  id: string;
  userId: string;
  purpose: CheckoutPurpose;
  packDollars: number | null;
  amountCents: number;
  status: 'open' | 'paid' | 'expired';
  /** What the purchase is for besides credits (a listing id, a licence), for later purposes. */
  referenceId: string | null;
}

/**
 * Delivers what a paid checkout bought, inside the buyer's wallet transaction (which also marks
 * the checkout paid): it runs at most once per session, and either all of it happens or none.
 */
export type Fulfilment = (tx: WalletTx, checkout: CheckoutRow) => Promise<void>;

/**
 * Work that must follow a fulfilment but cannot share the buyer's transaction (money for a second
 * wallet, which LedgerService locks in a transaction of its own). It runs after the commit on
 * every delivery of a paid session's events, not only the first, so it must be idempotent: a crash
 * or an error between the two is a 500, Stripe redelivers, and the redelivery completes it.
 */
export type AfterFulfilment = (checkout: CheckoutRow) => Promise<void>;

/** A credit pack: its amount and its bonus, from the pack table and the stored row, never the event. */
export const creditTopUp: Fulfilment = async (tx, checkout) => {
  const pack = CREDIT_PACKS.find((p) => p.dollars === checkout.packDollars);
  if (!pack || pack.amountCents !== checkout.amountCents) {
    throw new Error(`Checkout ${checkout.id} does not match a credit pack (${checkout.packDollars} dollars, ${checkout.amountCents} cents)`);
  }
  await tx.post({ kind: 'top_up', amountCents: pack.amountCents, reference: `topup:${checkout.id}`, description: `Credit pack ${formatCents(pack.amountCents)}` });
  if (pack.bonusCents > 0) {
    await tx.post({ kind: 'pack_bonus', amountCents: pack.bonusCents, reference: `pack-bonus:${checkout.id}`, description: `${pack.bonusPercent} % bonus on the ${formatCents(pack.amountCents)} pack` });
  }
};

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * Top-ups through Stripe Checkout, fulfilled only by the signed webhook. Each paid session is
 * credited exactly once however often, however concurrently and in whatever order its events
 * arrive: the event id is recorded, the checkout row is locked and marked paid, and the ledger
 * references are unique, all in the buyer's one wallet transaction.
 */
export class PaymentService {
  /** Purposes later issues add (a Showcase listing, the njin licence) register here. */
  private readonly fulfilments = new Map<CheckoutPurpose, Fulfilment>([['top_up', creditTopUp]]);
  private readonly afterFulfilments = new Map<CheckoutPurpose, AfterFulfilment>();
  private readonly subscriptionHandlers = new Map<CheckoutPurpose, SubscriptionHandler>();

  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    private readonly gateway: StripeGateway | undefined,
    private readonly log: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get configured(): boolean {
    return this.gateway !== undefined;
  }

  registerFulfilment(purpose: CheckoutPurpose, fulfil: Fulfilment, after?: AfterFulfilment): void {
    this.fulfilments.set(purpose, fulfil);
    if (after) this.afterFulfilments.set(purpose, after);
    else this.afterFulfilments.delete(purpose);
  }

  /**
   * Who acts on the subscriptions sold for `purpose`. Invoices and subscriptions name the purpose
   * in the metadata the checkout copied onto the subscription.
   */
  registerSubscriptionHandler(purpose: CheckoutPurpose, handler: SubscriptionHandler): void {
    this.subscriptionHandlers.set(purpose, handler);
  }

  /** A subscription as Stripe has it now. */
  async subscription(id: string): Promise<SubscriptionFacts> {
    return this.requireGateway().subscription(id);
  }

  /** Cancels a subscription at the end of the period already paid for. */
  async cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionFacts> {
    return this.requireGateway().cancelAtPeriodEnd(subscriptionId, true);
  }

  /**
   * A Checkout Session for a credit pack; answers the URL of Stripe's payment page. `requestKey`
   * (the client's Idempotency-Key) makes a retried click give back the same session.
   */
  async startTopUp(userId: string, amountDollars: CreditPackDollars, origin: string, requestKey?: string): Promise<string> {
    const pack = creditPack(amountDollars);
    const session = await this.startCheckout({
      userId,
      purpose: 'top_up',
      amountCents: pack.amountCents,
      packDollars: pack.dollars,
      productName: pack.bonusCents > 0 ? `Wolfpack credits ${formatCents(pack.amountCents)} + ${pack.bonusPercent} % bonus` : `Wolfpack credits ${formatCents(pack.amountCents)}`,
      metadata: { packDollars: String(pack.dollars) },
      successUrl: `${origin}/settings?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}/settings?checkout=cancelled`,
      idempotencyKey: `topup:${userId}:${requestKey ?? randomUUID()}`,
    });
    return session.url;
  }

  /**
   * A Checkout Session for any purpose, recorded as this server's source of truth (amount, buyer,
   * what it is for) before the URL is handed out: the webhook trusts this row, never the event.
   */
  async startCheckout(input: StartCheckoutInput): Promise<{ id: string; url: string }> {
    const gateway = this.requireGateway();
    const session = await gateway.createCheckoutSession({
      amountCents: input.amountCents,
      productName: input.productName,
      metadata: { userId: input.userId, purpose: input.purpose, ...(input.referenceId ? { referenceId: input.referenceId } : {}), ...input.metadata },
      clientReferenceId: input.userId,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      idempotencyKey: input.idempotencyKey,
      ...(input.subscription ? { subscription: input.subscription } : {}),
    });
    // A replayed idempotent request answers the session already stored: keep the first row.
    await this.sql().execute(
      `insert into stripe_checkouts (id, user_id, purpose, pack_dollars, amount_cents, status, reference_id, created_at, fulfilled_at)
       values (?, ?, ?, ?, ?, 'open', ?, ?, null) on conflict (id) do nothing`,
      [session.id, input.userId, input.purpose, input.packDollars ?? null, input.amountCents, input.referenceId ?? null, this.clock()],
    );
    return session;
  }

  /**
   * One webhook delivery. A missing or bad signature is a 400 and changes nothing; event types
   * this server does not act on, and sessions it did not create, are acknowledged and ignored.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
    const event = this.requireGateway().constructEvent(rawBody, signature);
    if (PAID_EVENTS.has(event.type)) return this.onCheckoutPaid(event);
    if (event.type === 'checkout.session.expired') return this.onCheckoutExpired(event);
    if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
      const invoice = invoiceFacts(event.data.object);
      const handler = invoice?.subscriptionId ? this.subscriptionHandlers.get(invoice.metadata.purpose as CheckoutPurpose) : undefined;
      if (!invoice || !handler) return;
      return this.inEventTransaction(event, (em) => (event.type === 'invoice.paid' ? handler.invoicePaid(em, event, invoice) : handler.invoicePaymentFailed(em, event, invoice)));
    }
    if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
      const subscription = subscriptionFacts(event.data.object);
      const handler = subscription ? this.subscriptionHandlers.get(subscription.metadata.purpose as CheckoutPurpose) : undefined;
      if (!subscription || !handler) return;
      return this.inEventTransaction(event, (em) => (event.type === 'customer.subscription.deleted' ? handler.subscriptionDeleted(em, event, subscription) : handler.subscriptionUpdated(em, event, subscription)));
    }
  }

  /** Runs `apply` once per event id: the id and the effect commit together or not at all. */
  private async inEventTransaction(event: Stripe.Event, apply: (em: Sql) => Promise<void>): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      if (!(await recordEvent(em as Sql, event, this.clock()))) return;
      await apply(em as Sql);
    });
  }

  /** A paid subscription-mode checkout: handed to its purpose's handler with the subscription as it is now. */
  private async onSubscriptionCheckout(event: Stripe.Event, checkout: CheckoutRow, session: CheckoutSessionFacts): Promise<void> {
    const handler = this.subscriptionHandlers.get(checkout.purpose);
    if (!handler) throw new Error(`No subscription handler for checkout purpose '${checkout.purpose}' (session ${checkout.id})`);
    // Read before the transaction: no network call while rows are locked.
    const subscription = session.subscriptionId ? await this.requireGateway().subscription(session.subscriptionId) : null;
    await this.inEventTransaction(event, async (em) => {
      const rows = await em.execute<Array<{ status: string }>>('select status from stripe_checkouts where id = ? for update', [checkout.id]);
      if (rows[0]?.status === 'paid') return;
      await handler.checkoutCompleted(em, event, checkout, session, subscription);
      await em.execute(`update stripe_checkouts set status = 'paid', fulfilled_at = ? where id = ?`, [this.clock(), checkout.id]);
    });
  }

  private async onCheckoutPaid(event: Stripe.Event): Promise<void> {
    const session = checkoutSessionFacts(event.data.object);
    if (!session) throw new AppError('BAD_REQUEST', `Event ${event.id} carries no Checkout Session.`);
    const checkout = await this.findCheckout(session.id);
    if (!checkout) {
      // Not recorded: should the row appear later (a race with creation), a redelivery still counts.
      this.log.info(`Stripe event ${event.id} (${event.type}) is for session ${session.id}, which this server did not create: ignored`);
      return;
    }
    // A delayed payment method completes the session unpaid; its async_payment_succeeded follows.
    const paid = event.type === 'checkout.session.async_payment_succeeded' || session.paymentStatus === 'paid';
    if (!paid) {
      await recordEvent(this.sql(), event, this.clock());
      return;
    }
    if (session.mode === 'subscription') return this.onSubscriptionCheckout(event, checkout, session);
    const fulfil = this.fulfilments.get(checkout.purpose);
    // A 500, not a 200: Stripe keeps retrying until a server that can deliver the purchase answers.
    if (!fulfil) throw new Error(`No fulfilment for checkout purpose '${checkout.purpose}' (session ${checkout.id})`);
    const fulfilled = await this.ledger.transact(checkout.userId, async (tx) => {
      const em = tx.em as Sql;
      if (!(await recordEvent(em, event, this.clock()))) return false;
      const rows = await em.execute<Array<{ status: string }>>('select status from stripe_checkouts where id = ? for update', [checkout.id]);
      if (rows[0]?.status === 'paid') return false;
      await fulfil(tx, checkout);
      await em.execute(`update stripe_checkouts set status = 'paid', fulfilled_at = ? where id = ?`, [this.clock(), checkout.id]);
      return true;
    });
    if (fulfilled) this.log.info(`Stripe checkout ${checkout.id} (${checkout.purpose}) fulfilled by event ${event.id}`);
    // Every paid delivery, not only the fulfilling one: a redelivery completes what a crash cut off.
    const after = this.afterFulfilments.get(checkout.purpose);
    if (after) await after({ ...checkout, status: 'paid' });
    if (fulfilled && session.paymentIntentId) await this.keepCard(checkout.userId, session.paymentIntentId);
  }

  private async onCheckoutExpired(event: Stripe.Event): Promise<void> {
    const session = checkoutSessionFacts(event.data.object);
    if (!session) return;
    await this.sql().execute(`update stripe_checkouts set status = 'expired' where id = ? and status = 'open'`, [session.id]);
  }

  /** The Account page's card; best effort: the credit is already committed whatever happens here. */
  private async keepCard(userId: string, paymentIntentId: string): Promise<void> {
    try {
      const card = await this.gateway!.paymentCard(paymentIntentId);
      if (!card) return;
      await this.sql().execute(
        `insert into payment_cards (user_id, brand, last4, exp_month, exp_year, updated_at) values (?, ?, ?, ?, ?, ?)
         on conflict (user_id) do update set brand = excluded.brand, last4 = excluded.last4, exp_month = excluded.exp_month,
         exp_year = excluded.exp_year, updated_at = excluded.updated_at`,
        [userId, card.brand, card.last4, card.expMonth, card.expYear, this.clock()],
      );
    } catch (error) {
      this.log.warn(`Could not keep the card of payment ${paymentIntentId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async findCheckout(id: string): Promise<CheckoutRow | null> {
    const rows = await this.sql().execute<Array<{ id: string; user_id: string; purpose: CheckoutPurpose; pack_dollars: number | null; amount_cents: number; status: CheckoutRow['status']; reference_id: string | null }>>(
      'select id, user_id, purpose, pack_dollars, amount_cents, status, reference_id from stripe_checkouts where id = ?',
      [id],
    );
    const r = rows[0];
    if (!r) return null;
    return { id: r.id, userId: r.user_id, purpose: r.purpose, packDollars: r.pack_dollars === null ? null : Number(r.pack_dollars), amountCents: Number(r.amount_cents), status: r.status, referenceId: r.reference_id };
  }

  private requireGateway(): StripeGateway {
    if (!this.gateway) throw new AppError('SERVICE_UNAVAILABLE', PAYMENTS_NOT_CONFIGURED);
    return this.gateway;
  }

  private sql(): Sql {
    return this.orm.em.fork() as Sql;
  }
}

/** Remembers an event id; false when it was already there (a redelivery). */
async function recordEvent(em: Sql, event: Stripe.Event, now: Date): Promise<boolean> {
  const rows = await em.execute<Array<{ id: string }>>(
    'insert into stripe_events (id, type, received_at) values (?, ?, ?) on conflict (id) do nothing returning id',
    [event.id, event.type, now],
  );
  return rows.length > 0;
}
