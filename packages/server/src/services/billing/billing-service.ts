import type { MikroORM } from '@mikro-orm/core';
import { centsToDollars, type BillingHistoryQuery, type UsageHistoryItemJson } from '@wolfpack/core';
import type { EngineRegistry } from '../runs/engine-registry.js';
import type { LedgerService } from './ledger-service.js';
import { plainSql } from '../../db/plain-sql.js';

/** What the balance reply needs from referrals (the referral service provides it). */
export interface ReferralSummarySource {
  /** Takes back referral credit that expired or decayed, before a balance is shown. */
  applyDecay(userId: string): Promise<void>;
  summary(userId: string): Promise<{ referralCode: string; totalReferrals: number; earningsCents: number }>;
}

export interface BalanceFigures {
  balanceCents: number;
  referralEarningsCents: number;
  totalReferrals: number;
  referralCode: string;
  now: Date;
}

/** Reads of the money area: the balance with its referral figures, usage history, prices. */
export class BillingService {
  constructor(
    private readonly orm: MikroORM,
    readonly ledger: LedgerService,
    private readonly engines: EngineRegistry,
    private readonly clock: () => Date,
    readonly paymentsConfigured: boolean,
    private readonly referrals?: ReferralSummarySource,
  ) {}

  async balance(userId: string): Promise<BalanceFigures> {
    await this.referrals?.applyDecay(userId);
    const [{ balanceCents }, summary] = await Promise.all([
      this.ledger.balance(userId),
      this.referrals?.summary(userId) ?? Promise.resolve({ referralCode: '', totalReferrals: 0, earningsCents: 0 }),
    ]);
    return { balanceCents, referralEarningsCents: summary.earningsCents, totalReferrals: summary.totalReferrals, referralCode: summary.referralCode, now: this.clock() };
  }

  /** Engine calls, newest first: one item each, with what it was billed. */
  async history(userId: string, query: BillingHistoryQuery): Promise<UsageHistoryItemJson[]> {
    const em = plainSql(this.orm.em.fork());
    const rows = await em.execute<Array<{ id: string | number; stage: string; purpose: string; total_tokens: number; billed_cents: number; created_at: Date | string }>>(
      `select id, stage, purpose, total_tokens, billed_cents, created_at from engine_usage
       where user_id = ? ${query.before ? 'and id < ?' : ''} order by id desc limit ?`,
      query.before ? [userId, query.before, query.limit] : [userId, query.limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      role: r.purpose === 'enhance' || r.stage === 'Enhance' ? 'enhance' : r.stage,
      totalTokens: Number(r.total_tokens),
      createdAt: new Date(r.created_at).toISOString(),
      billedDollars: centsToDollars(Number(r.billed_cents)),
    }));
  }

  /** The highest price among the real engines; undefined with demo engines (they are free). */
  pricePer1kTokensCents(): number | undefined {
    if (this.engines.demo) return undefined;
    return Math.max(...this.engines.engines.map((e) => e.pricePer1kTokensCents));
  }
}
