import { createHash, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, computeAdminMetrics, type AdminMetricsReply, type AdminUsageGroup } from '@wolfpack/core';
import type { Sql } from './capsule-recording.js';
import type { EngineRegistry } from './engine-registry.js';

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
 * Admin metrics computed from the ledger and usage records (issue 10). The database sums by
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

export interface AdminGateOptions {
  /** Failed attempts allowed per client address within the window. @default 10 */
  maxFailures?: number;
  /** @default 15 minutes */
  windowMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Checks the X-Admin-Secret and throttles guessing per client address.
 *
 * The failures are kept in memory, not in a table like sign-in failures: there is one secret per
 * server (no username to key on), nothing about it is worth keeping across a restart, and an
 * attacker cannot fill a table with it. Several servers each count their own failures, which
 * still bounds guessing to 10 per 15 minutes per address per server against a 256-bit secret.
 */
export class AdminGate {
  private readonly failures = new Map<string, number[]>();
  private readonly expected: Buffer;
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(private readonly secret: string, options: AdminGateOptions = {}) {
    this.expected = digest(secret);
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Throws 429 while `client` is locked out, 401 for a wrong or missing secret. */
  check(client: string, given: string | undefined): void {
    const now = this.now();
    const recent = (this.failures.get(client) ?? []).filter((at) => now - at < this.windowMs);
    if (recent.length >= this.maxFailures) {
      // Refused even with the right secret, so a lock-out cannot be used to test guesses.
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `Too many wrong admin secrets. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`, { retryAfterSeconds });
    }
    // Digests have equal lengths, so the comparison time says nothing about the secret's length.
    const ok = this.secret !== '' && given !== undefined && given !== '' && timingSafeEqual(digest(given), this.expected);
    if (ok) {
      this.failures.delete(client);
      return;
    }
    recent.push(now);
    this.failures.set(client, recent);
    if (this.failures.size > 10_000) this.prune(now);
    throw new AppError('UNAUTHORIZED', 'Unauthorized');
  }

  private prune(now: number): void {
    for (const [client, times] of this.failures) {
      if (times.every((at) => now - at >= this.windowMs)) this.failures.delete(client);
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
