import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  centsToDollars,
  REFERRAL_ACTIVE_DAYS,
  REFERRAL_DECAY_PERIOD_DAYS,
  REFERRAL_GENERATIONS,
  REFERRAL_GRACE_DAYS,
  referralCodeFrom,
  referralEventCents,
  referralLink,
  referralRewardValue,
  splitReferralReward,
  type ReferralEvent,
  type ReferralStatsReplyJson,
} from '@wolfpack/core';
import { ReferralReward, User } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { LedgerService } from '../billing/ledger-service.js';
import type { Sql } from '../../db/plain-sql.js';

/** A fresh random code, "WP" + 6 of A-Z0-9. */
export function newReferralCode(): string {
  return referralCodeFrom((n) => randomBytes(n));
}

export interface ReferralSummary {
  referralCode: string;
  /** Direct referrals (users who signed up with this user's code). */
  totalReferrals: number;
  /** Every reward this user earned, over all generations, before expiry and decay. */
  earningsCents: number;
  /** What those rewards are still worth now. */
  valueCents: number;
}

export interface ReferralServiceOptions {
  log: Logger;
  clock?: () => Date;
  /** Draws a referral code; tests inject collisions. */
  newCode?: () => string;
  /** Billed engine usage (cents) that makes a referred account real; undefined: only a purchase does. */
  qualifyingSpendCents?: number | undefined;
  /** What one referrer may receive in 24 hours, in cents; rewards past it are not paid. */
  dailyCapCents?: number;
}

const DAY_MS = 86_400_000;
/** A reward can only have lost value once its first decay month is over. */
const FIRST_DECAY_AFTER_MS = (REFERRAL_ACTIVE_DAYS + REFERRAL_GRACE_DAYS + REFERRAL_DECAY_PERIOD_DAYS) * DAY_MS;
const CODE_ATTEMPTS = 5;

/**
 * Referral codes and rewards. Nothing is paid for an account until it shows it belongs
 * to a real user: a paid credit purchase or, when the operator sets an amount, that much
 * billed engine usage. Then its sign-up reward is paid, and its first-build reward once it has
 * built too; throwaway accounts living on their free credit earn their referrers nothing. A reward
 * is one row per (referred user, event, generation)
 * plus one ledger entry for its beneficiary, written together under the beneficiary's wallet lock:
 * the row's unique index and the entry's unique reference both make a reward happen once, however
 * often or concurrently the event is reported. The chain is read through users.referred_by, which
 * is only ever set at registration (to an older user), so it cannot loop.
 */
export class ReferralService {
  private readonly log: Logger;
  private readonly clock: () => Date;
  private readonly newCode: () => string;
  private readonly qualifyingSpendCents: number | undefined;
  private readonly dailyCapCents: number | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    options: ReferralServiceOptions,
  ) {
    this.log = options.log;
    this.clock = options.clock ?? (() => new Date());
    this.newCode = options.newCode ?? newReferralCode;
    this.qualifyingSpendCents = options.qualifyingSpendCents;
    this.dailyCapCents = options.dailyCapCents;
  }

  /**
   * The user's code, assigned on first read for accounts made before codes existed. Null for a
   * closed (or missing) account.
   */
  async codeFor(userId: string): Promise<string | null> {
    const em = this.orm.em.fork();
    const user = await em.findOne(User, { id: userId }, { fields: ['referralCode', 'status'] });
    if (!user || user.status === 'closed') return null;
    if (user.referralCode) return user.referralCode;
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt++) {
      const code = this.newCode();
      try {
        const changed = await this.orm.em.fork().nativeUpdate(User, { id: userId, referralCode: null, status: 'active' }, { referralCode: code });
        if (changed === 1) return code;
        // Another request assigned one first (or the account just closed): read what is there.
        const again = await this.orm.em.fork().findOne(User, { id: userId }, { fields: ['referralCode', 'status'] });
        return again && again.status !== 'closed' ? (again.referralCode ?? null) : null;
      } catch (error) {
        // The code belongs to someone else already: draw another.
        if (!(error instanceof UniqueConstraintViolationException) || attempt === CODE_ATTEMPTS) throw error;
      }
    }
    return null;
  }

  /**
   * Whether a sign-up with `code` would credit somebody: the code of an active account, as
   * registration accepts it. Says nothing about whose code it is.
   */
  async codeExists(code: string): Promise<boolean> {
    return (await this.orm.em.fork().count(User, { referralCode: code, status: 'active' })) > 0;
  }

  /**
   * Pays what `userId`'s referrers are owed by now: $5 up the chain once the account is real, $15
   * more once it has also built a project. Called after a completed build and a paid purchase
   * (any number of times: each reward is paid once); one indexed read for a user nobody referred
   * and two once everything is paid. Never throws (a failure is logged).
   */
  async settle(userId: string): Promise<void> {
    let owed: ReferralEvent[];
    try {
      owed = await this.owedFor(userId);
    } catch (error) {
      this.log.warn('referral check failed', error);
      return;
    }
    for (const event of owed) await this.reward(userId, event);
  }

  private async owedFor(userId: string): Promise<ReferralEvent[]> {
    const em = this.orm.em.fork() as Sql;
    const user = await em.findOne(User, { id: userId }, { fields: ['referredBy'] });
    if (!user?.referredBy) return [];
    const paid = new Set((await em.execute<Array<{ event: ReferralEvent }>>('select distinct event from referral_rewards where referred_user_id = ?', [userId])).map((r) => r.event));
    if (paid.has('signup') && paid.has('first_build')) return [];
    const [facts] = await em.execute<Array<{ bought: unknown; spent: string | number | null; built: unknown }>>(
      `select exists (select 1 from ledger_entries where user_id = ? and kind = 'top_up') as bought,
              (select -sum(amount_cents) from ledger_entries where user_id = ? and kind = 'engine_usage') as spent,
              exists (select 1 from conversations where user_id = ? and project_id is not null) as built`,
      [userId, userId, userId],
    );
    const real = truthy(facts?.bought) || (this.qualifyingSpendCents !== undefined && Number(facts?.spent ?? 0) >= this.qualifyingSpendCents);
    if (!real) return [];
    const owed: ReferralEvent[] = [];
    if (!paid.has('signup')) owed.push('signup');
    if (!paid.has('first_build') && truthy(facts?.built)) owed.push('first_build');
    return owed;
  }

  /**
   * Takes back what the user's rewards lost to expiry and decay since the last call, as
   * 'referral_decay' entries (never below a zero balance). One indexed read when nothing is due.
   */
  async applyDecay(userId: string, now: Date = this.clock()): Promise<void> {
    const rewards = await this.orm.em.fork().find(
      ReferralReward,
      { beneficiaryId: userId, grantedAt: { $lte: new Date(now.getTime() - FIRST_DECAY_AFTER_MS) } },
      { fields: ['id', 'amountCents', 'decayedCents', 'grantedAt'] },
    );
    const due = rewards.filter((r) => decayTarget(r.amountCents, r.grantedAt, now).decayedCents > r.decayedCents);
    if (due.length === 0) return;
    await this.ledger.transact(userId, async (tx) => {
      const sql = tx.em as Sql;
      for (const reward of due) {
        // Re-read under the wallet lock: a concurrent call may have taken this month already.
        const rows = await sql.execute<Array<{ decayed_cents: number }>>('select decayed_cents from referral_rewards where id = ?', [reward.id]);
        const { decayedCents: target, decayMonths } = decayTarget(reward.amountCents, reward.grantedAt, now);
        const lost = target - Number(rows[0]?.decayed_cents ?? target);
        if (lost <= 0) continue;
        await tx.post(
          { kind: 'referral_decay', amountCents: -lost, reference: `referral-decay:${reward.id}:${decayMonths}`, description: `Referral credit past its expiry (${decayMonths} month${decayMonths === 1 ? '' : 's'} of decay)` },
          // Credit already spent cannot be taken back; the reward's value is reduced all the same.
          { clamp: true },
        );
        await sql.execute('update referral_rewards set decayed_cents = ? where id = ?', [target, reward.id]);
      }
    });
  }

  /** The Referrals page: direct counts, credits over all generations, and the chain per level. */
  async stats(userId: string, origin: string): Promise<ReferralStatsReplyJson> {
    const code = (await this.codeFor(userId)) ?? '';
    const sql = this.orm.em.fork() as Sql;
    const [direct] = await sql.execute<Array<{ total: string | number; active: string | number }>>(
      `select count(*) as total,
              count(*) filter (where exists (select 1 from referral_rewards r where r.referred_user_id = u.id and r.event = 'first_build')) as active
       from users u where u.referred_by = ?`,
      [userId],
    );
    const below = await sql.execute<Array<{ level: number; referrals: string | number }>>(
      `with recursive down (id, level) as (
         select id, 1 from users where referred_by = ?
         union all
         select u.id, d.level + 1 from users u join down d on u.referred_by = d.id where d.level < ?
       ) select level, count(*) as referrals from down group by level`,
      [userId, REFERRAL_GENERATIONS],
    );
    const rewards = await this.rewardsOf(userId);
    const now = this.clock();
    const earnedByLevel = new Map<number, number>();
    let earned = 0;
    let value = 0;
    for (const r of rewards) {
      earned += r.amountCents;
      value += referralRewardValue(r.amountCents, r.grantedAt, now).valueCents;
      earnedByLevel.set(r.level, (earnedByLevel.get(r.level) ?? 0) + r.amountCents);
    }
    const total = Number(direct?.total ?? 0);
    const active = Number(direct?.active ?? 0);
    return {
      referralCode: code,
      referralLink: code ? referralLink(origin, code) : '',
      totalReferrals: total,
      activeReferrals: active,
      pendingReferrals: total - active,
      creditsEarnedDollars: centsToDollars(earned),
      creditsValueDollars: centsToDollars(value),
      byLevel: Array.from({ length: REFERRAL_GENERATIONS }, (_, i) => ({
        level: i + 1,
        referrals: Number(below.find((b) => Number(b.level) === i + 1)?.referrals ?? 0),
        earnedDollars: centsToDollars(earnedByLevel.get(i + 1) ?? 0),
      })),
      rules: {
        qualifyingSpendDollars: this.qualifyingSpendCents === undefined ? null : centsToDollars(this.qualifyingSpendCents),
        dailyCapDollars: this.dailyCapCents === undefined ? null : centsToDollars(this.dailyCapCents),
      },
    };
  }

  /** What the balance card shows: the code, direct referrals and earnings. */
  async summary(userId: string): Promise<ReferralSummary> {
    const referralCode = (await this.codeFor(userId)) ?? '';
    const totalReferrals = await this.orm.em.fork().count(User, { referredBy: userId });
    const now = this.clock();
    let earningsCents = 0;
    let valueCents = 0;
    for (const r of await this.rewardsOf(userId)) {
      earningsCents += r.amountCents;
      valueCents += referralRewardValue(r.amountCents, r.grantedAt, now).valueCents;
    }
    return { referralCode, totalReferrals, earningsCents, valueCents };
  }

  private rewardsOf(userId: string) {
    return this.orm.em.fork().find(ReferralReward, { beneficiaryId: userId }, { fields: ['level', 'amountCents', 'grantedAt'] });
  }

  /** Pays one event's reward to each generation above `referredUserId`; each generation on its own. */
  private async reward(referredUserId: string, event: ReferralEvent): Promise<void> {
    let chain: Array<{ id: string; level: number }>;
    try {
      chain = await this.chainAbove(referredUserId);
    } catch (error) {
      this.log.warn(`referral ${event} reward: reading the referrer chain failed`, error);
      return;
    }
    for (const { level, cents } of splitReferralReward(referralEventCents(event), chain.length)) {
      const beneficiary = chain[level - 1]!;
      try {
        await this.ledger.transact(beneficiary.id, async (tx) => {
          const sql = tx.em as Sql;
          // Closed accounts in the chain get nothing (checked under the lock, not from an older read).
          const status = await sql.execute<Array<{ status: string }>>('select status from users where id = ?', [beneficiary.id]);
          if (status[0]?.status !== 'active') return;
          if (await this.overDailyCap(sql, beneficiary.id, cents)) {
            this.log.info(`referral ${event} reward for generation ${level} not paid: the referrer reached the daily cap`);
            return;
          }
          const inserted = await sql.execute<Array<{ id: string }>>(
            `insert into referral_rewards (id, beneficiary_id, referred_user_id, event, level, amount_cents, decayed_cents, granted_at)
             values (?, ?, ?, ?, ?, ?, 0, ?) on conflict (referred_user_id, event, level) do nothing returning id`,
            [randomUUID(), beneficiary.id, referredUserId, event, level, cents, this.clock()],
          );
          if (inserted.length === 0) return; // paid already
          await tx.post({
            kind: 'referral_reward',
            amountCents: cents,
            reference: `referral:${referredUserId}:${event}:${level}`,
            description: `Referral reward: ${event === 'signup' ? 'sign-up' : 'first build'}, generation ${level}`,
          });
        });
      } catch (error) {
        this.log.warn(`referral ${event} reward for generation ${level} failed`, error);
      }
    }
  }

  /** Whether `cents` more would take what the referrer received in the last 24 hours past the cap. */
  private async overDailyCap(sql: Sql, beneficiaryId: string, cents: number): Promise<boolean> {
    if (this.dailyCapCents === undefined) return false;
    const since = new Date(this.clock().getTime() - DAY_MS);
    const [row] = await sql.execute<Array<{ today: string | number | null }>>('select sum(amount_cents) as today from referral_rewards where beneficiary_id = ? and granted_at > ?', [beneficiaryId, since]);
    return Number(row?.today ?? 0) + cents > this.dailyCapCents;
  }

  /** The referrers above a user, nearest first, at most seven generations. */
  private async chainAbove(userId: string): Promise<Array<{ id: string; level: number }>> {
    const rows = await (this.orm.em.fork() as Sql).execute<Array<{ id: string; level: number }>>(
      `with recursive up (id, referred_by, level) as (
         select r.id, r.referred_by, 1 from users u join users r on r.id = u.referred_by where u.id = ?
         union all
         select r.id, r.referred_by, up.level + 1 from up join users r on r.id = up.referred_by where up.level < ?
       ) select id, level from up order by level`,
      [userId, REFERRAL_GENERATIONS],
    );
    return rows.map((r) => ({ id: r.id, level: Number(r.level) }));
  }
}

/** PGlite and PostgreSQL both answer booleans; a driver may still answer 't' or 1. */
function truthy(value: unknown): boolean {
  return value === true || value === 't' || value === 1 || value === '1';
}

/** How much of a reward expiry and decay have taken by `now`. */
function decayTarget(amountCents: number, grantedAt: Date, now: Date): { decayedCents: number; decayMonths: number } {
  const value = referralRewardValue(amountCents, grantedAt, now);
  return { decayedCents: amountCents - value.valueCents, decayMonths: value.decayMonths };
}
