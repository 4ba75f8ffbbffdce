import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';
import type { PaymentService } from '../billing/payment-service.js';
import type { Sql } from '../../db/plain-sql.js';

export interface SubscriptionCloserOptions {
  /** Waits before each attempt made while the closing request waits (the first is immediate). */
  attemptDelaysMs?: number[];
  /** Waits between the attempts made after the reply, the last one repeated until Stripe answers. */
  laterDelaysMs?: number[];
}

const ATTEMPT_DELAYS_MS = [0, 250, 1000];
const LATER_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000];

/**
 * Ends the njin subscription of a closed account at Stripe, so its $29 a month stops.
 * The account is closed first, in its own transaction; the subscription is then set to cancel at
 * the end of the period already paid for, which Stripe treats the same however often it is asked,
 * so an attempt is simply repeated until Stripe acknowledges it: a few times while the request
 * waits, then in the background with growing pauses, and again at the next start of a server
 * (sweep) for what a stopped process left. The acknowledgement is recorded on the licence
 * (cancel_at_period_end), which is also how a later attempt knows there is nothing to do.
 */
export class SubscriptionCloser {
  private readonly attemptDelaysMs: number[];
  private readonly laterDelaysMs: number[];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly orm: MikroORM,
    private readonly payments: Pick<PaymentService, 'configured' | 'subscription' | 'cancelAtPeriodEnd'>,
    private readonly log: Logger,
    options: SubscriptionCloserOptions = {},
  ) {
    this.attemptDelaysMs = options.attemptDelaysMs ?? ATTEMPT_DELAYS_MS;
    this.laterDelaysMs = options.laterDelaysMs ?? LATER_DELAYS_MS;
  }

  /**
   * Cancels the closed account's subscription: true once Stripe acknowledged it (or there was none
   * to cancel), false when it is left to the background attempts.
   */
  async closeFor(userId: string): Promise<boolean> {
    for (const delay of this.attemptDelaysMs) {
      if (delay > 0) await sleep(delay);
      if (await this.attempt(userId)) return true;
    }
    this.later(userId, 0);
    return false;
  }

  /**
   * Tries again, in the background, every closed account's cancellation not yet acknowledged (a
   * server stopped before Stripe answered). Never throws.
   */
  async sweep(): Promise<void> {
    try {
      const rows = await (this.orm.em.fork() as Sql).execute<Array<{ user_id: string }>>(
        `select l.user_id from njin_licences l join users u on u.id = l.user_id
         where u.status = 'closed' and l.stripe_subscription_id is not null and l.status <> 'canceled' and not l.cancel_at_period_end`,
      );
      for (const { user_id: userId } of rows) {
        if (!(await this.attempt(userId))) this.later(userId, 0);
      }
    } catch (error) {
      this.log.warn('looking for njin subscriptions of closed accounts to cancel failed', error);
    }
  }

  /** Stops the background attempts (server shutdown, tests). */
  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(userId: string, index: number): void {
    const delay = this.laterDelaysMs[Math.min(index, this.laterDelaysMs.length - 1)]!;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(userId).then((done) => {
        if (!done) this.later(userId, index + 1);
      });
    }, delay);
    // Never what keeps the process alive: a restart leaves the licence row to say it is not done.
    timer.unref();
    this.timers.add(timer);
  }

  /** One try; true when nothing is left to do. Never throws. */
  private async attempt(userId: string): Promise<boolean> {
    try {
      const sql = this.orm.em.fork() as Sql;
      const [licence] = await sql.execute<Array<{ stripe_subscription_id: string | null; status: string; cancel_at_period_end: boolean | string }>>(
        `select l.stripe_subscription_id, l.status, l.cancel_at_period_end from njin_licences l join users u on u.id = l.user_id
         where l.user_id = ? and u.status = 'closed'`,
        [userId],
      );
      const subscriptionId = licence?.stripe_subscription_id;
      if (!subscriptionId || licence.status === 'canceled' || truthy(licence.cancel_at_period_end)) return true;
      if (!this.payments.configured) {
        this.log.warn(`the njin subscription ${subscriptionId} of closed account ${userId} cannot be cancelled: payments are not configured on this server`);
        return false;
      }
      const facts = await this.payments.subscription(subscriptionId);
      if (facts.status !== 'canceled' && !facts.cancelAtPeriodEnd) await this.payments.cancelAtPeriodEnd(subscriptionId);
      await sql.execute('update njin_licences set cancel_at_period_end = ? where user_id = ?', [true, userId]);
      this.log.info(`the njin subscription ${subscriptionId} of closed account ${userId} is cancelled at Stripe`);
      return true;
    } catch (error) {
      this.log.warn(`cancelling the njin subscription of closed account ${userId} failed; it is tried again`, error);
      return false;
    }
  }
}

function truthy(value: unknown): boolean {
  return value === true || value === 't' || value === 1 || value === '1';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
