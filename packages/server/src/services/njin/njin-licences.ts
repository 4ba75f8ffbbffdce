import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { AppError, NJIN_MONTHLY_PRICE_CENTS, type AdminNjinLicence, type NjinLicense } from '@wolfpack/core';
import type { Logger } from '../../logger.js';
import type { CheckoutRow, PaymentService, SubscriptionHandler } from '../billing/payment-service.js';
import type { Sql } from '../../db/plain-sql.js';
import type { CheckoutSessionFacts, InvoiceFacts, SubscriptionFacts } from '../billing/stripe-gateway.js';
import { isUuid } from '../projects/project-service.js';

/** Why iterate answers 402 on a server that takes payments. */
export const NJIN_LICENCE_REQUIRED = 'This API key has no active njin licence. Subscribe on the njin page ($29 per month), then try again.';
/** Why iterate answers 402 on a server without payments: nobody can subscribe there. */
export const NJIN_LICENCE_REQUIRED_NO_PAYMENTS =
  'This API key has no active njin licence, and licences cannot be bought on this server: it takes no payments. Ask its operator to grant you one (wolfpack admin grant-licence USER --until DATE), or to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET so that licences can be bought on the njin page.';
export const NJIN_NO_SUBSCRIPTION = 'You have no njin subscription to cancel.';

export interface LicenceRow {
  user_id: string;
  status: string;
  current_period_end: Date | string | null;
  stripe_subscription_id: string | null;
  cancel_at_period_end: boolean | string;
  usage_count: number | string;
}

const fromUnix = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));
const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * The njin licence: one row per user, kept in step with their Stripe subscription by its signed
 * events, which may come twice and in any order. Three rules make the order not matter: the
 * period end only ever moves forwards; a subscription once deleted is remembered and none of its
 * later (or late) events revive it; and a failed payment changes nothing, so the licence stays
 * active until the period already paid for ends.
 */
export class NjinLicences implements SubscriptionHandler {
  constructor(
    private readonly orm: MikroORM,
    private readonly payments: PaymentService,
    private readonly log: Logger,
    private readonly clock: () => Date,
  ) {
    payments.registerSubscriptionHandler('njin', this);
  }

  /** The stored row, or null. */
  async row(userId: string, em: Sql = this.sql()): Promise<LicenceRow | null> {
    const rows = await em.execute<LicenceRow[]>('select * from njin_licences where user_id = ?', [userId]);
    return rows[0] ?? null;
  }

  /** 'active' while paid for (a cancelled one until its period ends), else 'canceled' or 'inactive'. */
  statusOf(row: LicenceRow): string {
    const end = dateOf(row.current_period_end);
    if (row.status === 'active' && end && end.getTime() > this.clock().getTime()) return 'active';
    return row.status === 'canceled' ? 'canceled' : 'inactive';
  }

  isActive(row: LicenceRow | null): boolean {
    return row !== null && this.statusOf(row) === 'active';
  }

  /** The licence as the /njin page shows it, or null when the user never subscribed. */
  async license(userId: string, keyPrefix: string | null): Promise<NjinLicense | null> {
    const row = await this.row(userId);
    if (!row) return null;
    const end = dateOf(row.current_period_end);
    // A grant lets go of any subscription (see grant()), so a row without one was granted.
    const source = row.stripe_subscription_id === null ? 'operator' : 'subscription';
    return { apiKey: keyPrefix ? `${keyPrefix}…` : '', status: this.statusOf(row), usageCount: Number(row.usage_count), expiresAt: end ? end.toISOString() : null, source };
  }

  /** A Checkout Session for the $29 monthly subscription; its events activate the licence. */
  async subscribe(userId: string, origin: string, requestKey?: string): Promise<string> {
    const row = await this.row(userId);
    if (row && this.isActive(row) && row.cancel_at_period_end !== true && row.cancel_at_period_end !== 'true') {
      throw new AppError('CONFLICT', 'Your njin licence is already active. It renews every month until you cancel it.');
    }
    const session = await this.payments.startCheckout({
      userId,
      purpose: 'njin',
      amountCents: NJIN_MONTHLY_PRICE_CENTS,
      productName: 'njin iteration engine licence (monthly, unlimited iterations)',
      successUrl: `${origin}/njin?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}/njin?checkout=cancelled`,
      idempotencyKey: `njin:${userId}:${requestKey ?? randomUUID()}`,
      subscription: { interval: 'month' },
    });
    return session.url;
  }

  /** Cancels at the end of the period paid for: the licence stays active until then. */
  async cancel(userId: string): Promise<void> {
    const row = await this.row(userId);
    if (!row?.stripe_subscription_id || row.status !== 'active') throw new AppError('NOT_FOUND', NJIN_NO_SUBSCRIPTION);
    const sub = await this.payments.cancelAtPeriodEnd(row.stripe_subscription_id);
    const now = this.clock();
    await this.sql().execute('update njin_licences set cancel_at_period_end = ?, cancel_synced_at = ?, updated_at = ? where user_id = ? and stripe_subscription_id = ?', [
      sub.cancelAtPeriodEnd,
      now,
      now,
      userId,
      sub.id,
    ]);
  }

  /** The 402 sentence for a key without an active licence: where a licence can come from on this server. */
  requiredMessage(): string {
    return this.payments.configured ? NJIN_LICENCE_REQUIRED : NJIN_LICENCE_REQUIRED_NO_PAYMENTS;
  }

  /**
   * The operator's grant (self-hosted use without Stripe): the licence is active until `until`,
   * stored like a paid one (the same row, status and period end), only with no subscription behind
   * it. A grant sets the end, later or earlier; usage counts on. A licence a live Stripe
   * subscription pays for is refused: its events would overrule the grant.
   */
  async grant(userId: string, username: string, until: Date): Promise<AdminNjinLicence> {
    const now = this.clock();
    if (until.getTime() <= now.getTime()) {
      throw new AppError('BAD_REQUEST', 'until must be in the future. To end a licence now, revoke it.', { issues: [{ path: 'until', message: 'until must be in the future. To end a licence now, revoke it.' }] });
    }
    return this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      await sql.execute(
        `insert into njin_licences (user_id, status, current_period_end, stripe_subscription_id, stripe_customer_id, cancel_at_period_end, usage_count, last_event_at, created_at, updated_at)
         values (?, 'inactive', null, null, null, false, 0, null, ?, ?) on conflict (user_id) do nothing`,
        [userId, now, now],
      );
      const row = (await sql.execute<LicenceRow[]>('select * from njin_licences where user_id = ? for update', [userId]))[0]!;
      this.refuseWhilePaid(row, username, 'a granted licence would be overruled by the subscription. Let it end (or cancel it in Stripe) first');
      // The paid period is over, so its subscription is let go. Should it still renew (a late
      // invoice.paid), activate() treats it as another subscription: it takes over only if it runs
      // longer than the grant. A deleted one stays ignored (njin_ended_subscriptions).
      await sql.execute(
        `update njin_licences set status = 'active', current_period_end = ?, stripe_subscription_id = null, cancel_at_period_end = false, cancel_synced_at = null, updated_at = ? where user_id = ?`,
        [until, now, userId],
      );
      return this.adminView(username, (await this.row(userId, sql))!);
    });
  }

  /** Ends a granted licence now; `changed` is false when it was not active. A paid one is refused. */
  async revoke(userId: string, username: string): Promise<{ licence: AdminNjinLicence | null; changed: boolean }> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      const row = (await sql.execute<LicenceRow[]>('select * from njin_licences where user_id = ? for update', [userId]))[0];
      if (!row || !this.isActive(row)) return { licence: row ? this.adminView(username, row) : null, changed: false };
      this.refuseWhilePaid(row, username, 'cancel the subscription in Stripe instead; the licence ends with it');
      const now = this.clock();
      await sql.execute(`update njin_licences set status = 'canceled', current_period_end = ?, updated_at = ? where user_id = ?`, [now, now, userId]);
      return { licence: this.adminView(username, (await this.row(userId, sql))!), changed: true };
    });
  }

  /** The licence as the operator's commands show it. */
  adminView(username: string, row: LicenceRow): AdminNjinLicence {
    const end = dateOf(row.current_period_end);
    return { username, status: this.statusOf(row), expiresAt: end ? end.toISOString() : null, usageCount: Number(row.usage_count), paidThroughStripe: this.paidThroughStripe(row) };
  }

  private paidThroughStripe(row: LicenceRow): boolean {
    return row.stripe_subscription_id !== null && this.isActive(row);
  }

  private refuseWhilePaid(row: LicenceRow, username: string, advice: string): void {
    if (!this.paidThroughStripe(row)) return;
    const end = dateOf(row.current_period_end)!.toISOString().slice(0, 10);
    throw new AppError('CONFLICT', `${username} pays for njin through a Stripe subscription (active until ${end}): ${advice}.`);
  }

  /** Counts one iteration on the licence, inside the caller's transaction. */
  async countUse(em: Sql, userId: string): Promise<number> {
    const rows = await em.execute<Array<{ usage_count: number | string }>>(
      'update njin_licences set usage_count = usage_count + 1, updated_at = ? where user_id = ? returning usage_count',
      [this.clock(), userId],
    );
    return Number(rows[0]?.usage_count ?? 0);
  }

  // --- SubscriptionHandler: each runs once per event id, in the event's transaction ---

  async checkoutCompleted(em: Sql, event: Stripe.Event, checkout: CheckoutRow, session: CheckoutSessionFacts, subscription: SubscriptionFacts | null): Promise<void> {
    if (!session.subscriptionId) return;
    if (subscription?.status === 'canceled') return this.end(em, checkout.userId, session.subscriptionId);
    await this.activate(em, checkout.userId, session.subscriptionId, fromUnix(subscription?.currentPeriodEnd ?? null), subscription?.customerId ?? null, event);
  }

  async invoicePaid(em: Sql, event: Stripe.Event, invoice: InvoiceFacts): Promise<void> {
    const userId = await this.userOf(em, invoice.metadata);
    if (!userId || !invoice.subscriptionId) return;
    await em.execute(
      `insert into njin_payments (invoice_id, user_id, subscription_id, amount_cents, currency, period_end, paid_at) values (?, ?, ?, ?, ?, ?, ?) on conflict (invoice_id) do nothing`,
      [invoice.id, userId, invoice.subscriptionId, invoice.amountPaidCents, invoice.currency, fromUnix(invoice.periodEnd), new Date(event.created * 1000)],
    );
    await this.activate(em, userId, invoice.subscriptionId, fromUnix(invoice.periodEnd), invoice.customerId, event);
  }

  async invoicePaymentFailed(_em: Sql, event: Stripe.Event, invoice: InvoiceFacts): Promise<void> {
    // Deliberately nothing: the period already paid for stays paid. Stripe retries the charge and
    // sends invoice.paid, or ends the subscription with customer.subscription.deleted.
    this.log.info(`njin: payment failed for subscription ${invoice.subscriptionId ?? '?'} (event ${event.id}); the licence runs to its period end`);
  }

  /**
   * A cancellation at the period end set or taken back (here, or in Stripe's dashboard or portal).
   * Events come out of order: one older than what the flag was last set from leaves it alone.
   */
  async subscriptionUpdated(em: Sql, event: Stripe.Event, subscription: SubscriptionFacts): Promise<void> {
    const at = new Date(event.created * 1000);
    await em.execute(
      'update njin_licences set cancel_at_period_end = ?, cancel_synced_at = ?, updated_at = ? where stripe_subscription_id = ? and (cancel_synced_at is null or cancel_synced_at <= ?)',
      [subscription.cancelAtPeriodEnd, at, this.clock(), subscription.id, at],
    );
  }

  async subscriptionDeleted(em: Sql, _event: Stripe.Event, subscription: SubscriptionFacts): Promise<void> {
    const userId = await this.userOf(em, subscription.metadata);
    await this.end(em, userId, subscription.id);
  }

  /** Active until `periodEnd`: never earlier than a period end already known, never for an ended subscription. */
  private async activate(em: Sql, userId: string, subscriptionId: string, periodEnd: Date | null, customerId: string | null, event: Stripe.Event): Promise<void> {
    const ended = await em.execute<Array<{ id: string }>>('select id from njin_ended_subscriptions where id = ?', [subscriptionId]);
    if (ended.length > 0) {
      this.log.info(`njin: event ${event.id} is for subscription ${subscriptionId}, which has ended: ignored`);
      return;
    }
    const now = this.clock();
    await em.execute(
      `insert into njin_licences (user_id, status, current_period_end, stripe_subscription_id, stripe_customer_id, cancel_at_period_end, usage_count, last_event_at, created_at, updated_at)
       values (?, 'active', ?, ?, ?, false, 0, ?, ?, ?) on conflict (user_id) do nothing`,
      [userId, periodEnd, subscriptionId, customerId, new Date(event.created * 1000), now, now],
    );
    const row = (await em.execute<LicenceRow[]>('select * from njin_licences where user_id = ? for update', [userId]))[0]!;
    const current = dateOf(row.current_period_end);
    const sameSubscription = row.stripe_subscription_id === subscriptionId;
    // Another subscription of the same user: the newer one takes over unless the old one is still
    // paid for longer (a second checkout while the first still runs).
    if (!sameSubscription && row.status === 'active' && current && periodEnd && current > periodEnd && current > now) return;
    const end = sameSubscription && current && (!periodEnd || current > periodEnd) ? current : periodEnd;
    await em.execute(
      `update njin_licences set status = 'active', current_period_end = ?, stripe_subscription_id = ?, stripe_customer_id = coalesce(?, stripe_customer_id),
       cancel_at_period_end = case when stripe_subscription_id = ? then cancel_at_period_end else false end,
       cancel_synced_at = case when stripe_subscription_id = ? then cancel_synced_at else null end, last_event_at = ?, updated_at = ? where user_id = ?`,
      [end, subscriptionId, customerId, subscriptionId, subscriptionId, new Date(event.created * 1000), now, userId],
    );
  }

  /** The subscription is over: remembered, so a late invoice.paid of it cannot revive the licence. */
  private async end(em: Sql, userId: string | null, subscriptionId: string): Promise<void> {
    await em.execute('insert into njin_ended_subscriptions (id, user_id, ended_at) values (?, ?, ?) on conflict (id) do nothing', [subscriptionId, userId, this.clock()]);
    await em.execute(`update njin_licences set status = 'canceled', cancel_at_period_end = false, updated_at = ? where stripe_subscription_id = ?`, [this.clock(), subscriptionId]);
  }

  /** The user a subscription's metadata names (the checkout put it there), if that user exists. */
  private async userOf(em: Sql, metadata: Record<string, string>): Promise<string | null> {
    const userId = metadata.userId;
    if (!userId || !isUuid(userId)) return null;
    const rows = await em.execute<Array<{ id: string }>>('select id from users where id = ?', [userId]);
    return rows[0]?.id ?? null;
  }

  private sql(): Sql {
    return this.orm.em.fork() as Sql;
  }
}
