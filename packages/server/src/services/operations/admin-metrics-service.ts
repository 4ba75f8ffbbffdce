import type { MikroORM } from '@mikro-orm/core';
import { computeAdminMetrics, type AdminMetricsReply, type AdminUsageGroup } from '@wolfpack/core';
import type { Sql } from '../../db/plain-sql.js';
import type { EngineRegistry } from '../runs/engine-registry.js';

/** The per-project table shows the newest conversations; older ones still count in the totals. */
export const ADMIN_PROJECT_ROWS = 500;

export interface AdminMetricsOptions {
  /**
   * What each engine costs the operator per 1,000 tokens, in cents, by engine key (the engine
   * config's costPer1kTokensCents). @default the registry's costs (each engine's cost price, or its price)
   */
  costPer1kTokensCents?: Readonly<Record<string, number>>;
}

/**
 * Admin metrics computed from the ledger and usage records. The database sums by
 * group; the rules (cost prices, profit, percent, the table) live in core's computeAdminMetrics.
 */
export class AdminMetricsService {
  constructor(
    readonly orm: MikroORM,
    readonly engines: EngineRegistry,
    private readonly options: AdminMetricsOptions = {},
  ) {}

  async metrics(): Promise<AdminMetricsReply> {
    const sql = this.orm.em.fork() as Sql;
    const one = async (query: string): Promise<number> => {
      const rows = await sql.execute<Array<{ total: unknown }>>(query);
      return Number(rows[0]?.total ?? 0) || 0;
    };
    const [topUpCents, licenceCents, showcaseShareCents, activeProjects, deployedProjects, totalConversations] = await Promise.all([
      // Money received: top-ups only; bonuses, grants and referral rewards are credit given away.
      one(`select coalesce(sum(amount_cents), 0) as total from ledger_entries where kind = 'top_up'`),
      // Every paid licence invoice once (the first month and each renewal), recorded by the njin webhooks.
      one(`select coalesce(sum(amount_cents), 0) as total from njin_payments`),
      // The platform keeps the price less the seller's proceeds of each paid sale (free ones have no checkout).
      one(`select coalesce(sum(amount_cents - seller_cents), 0) as total from listing_purchases where checkout_id is not null`),
      one('select count(*) as total from projects'),
      one('select count(*) as total from projects where github_repo is not null'),
      one('select count(*) as total from conversations'),
    ]);
    const usage = await sql.execute<Array<{ conversation_id: string | null; engine_key: string; calls: unknown; tokens: unknown; billed: unknown; cost: unknown }>>(
      `select conversation_id, engine_key, count(*) as calls, coalesce(sum(total_tokens), 0) as tokens,
              coalesce(sum(billed_cents), 0) as billed, coalesce(sum(cost_millicents), 0) as cost
         from engine_usage group by conversation_id, engine_key`,
    );
    const conversations = await sql.execute<Array<{ id: string; idea: string }>>(
      `select id, idea from conversations order by created_at desc, id limit ${ADMIN_PROJECT_ROWS}`,
    );
    return computeAdminMetrics({
      topUpCents,
      licenceCents,
      showcaseShareCents,
      activeProjects,
      deployedProjects,
      totalConversations,
      usage: usage.map((u): AdminUsageGroup => ({
        conversationId: u.conversation_id,
        engineKey: u.engine_key,
        calls: Number(u.calls) || 0,
        totalTokens: Number(u.tokens) || 0,
        billedCents: Number(u.billed) || 0,
        recordedCostMillicents: Number(u.cost) || 0,
      })),
      conversations: conversations.map((c) => ({ id: c.id, idea: c.idea })),
      costPer1kTokensCents: this.options.costPer1kTokensCents ?? this.engines.costPer1kTokensCents,
    });
  }
}
