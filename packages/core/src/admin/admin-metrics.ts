/**
 * Admin metrics (companion §2/§3 Admin metrics): the business figures computed from what
 * the server reads out of the ledger, the Stripe checkouts and the engine usage records. Pure, so
 * the sums are tested over fixtures without a database.
 *
 * Units: every money figure of the reply is whole US cents (totalRevenue, totalCosts, totalProfit,
 * provider totalRevenue/totalCost, deployment estimatedMonthlyCost/revenue, and the per-project
 * *Cents fields). The page divides by 100 to show dollars. profitPercentage is a percent with two
 * decimals.
 */
import { callCostMillicents } from '../billing/money.js';
import type { AdminMetricsReply, AdminProjectMetrics, ProviderMetrics } from '../schemas/admin.js';

/** Engine usage summed by the server per (conversation, engine): one row per group, not per call. */
export interface AdminUsageGroup {
  /** null for calls outside a build (prompt enhancement): counted in the totals, not in the table. */
  conversationId: string | null;
  engineKey: string;
  calls: number;
  totalTokens: number;
  /** What users were charged for these calls (engine_usage.billed_cents). */
  billedCents: number;
  /** engine_usage.cost_millicents: the calls at the price of the time; used for engines no longer configured. */
  recordedCostMillicents: number;
}

export interface AdminConversationRow {
  id: string;
  idea: string;
}

export interface AdminMetricsInput {
  /** Sum of ledger 'top_up' entries (bonuses excluded: they are credit given, not money received). */
  topUpCents: number;
  /** Licence payments received (every paid njin invoice: the first month and each renewal). */
  licenceCents: number;
  /** The platform's share of paid Showcase sales (price less the seller's proceeds). */
  showcaseShareCents: number;
  activeProjects: number;
  totalConversations: number;
  /** Projects published to a GitHub repository. */
  deployedProjects: number;
  usage: readonly AdminUsageGroup[];
  /** Conversations for the per-project table (the server bounds how many). */
  conversations: readonly AdminConversationRow[];
  /**
   * What an engine costs the operator per 1,000 tokens, in cents, by engine key. An engine missing
   * here (removed from the configuration since) is costed at what its calls recorded.
   */
  costPer1kTokensCents: Readonly<Record<string, number>>;
}

/** Cost of a usage group in millicents: tokens at the engine's cost price. */
export function usageCostMillicents(group: AdminUsageGroup, costPer1kTokensCents: Readonly<Record<string, number>>): number {
  const price = costPer1kTokensCents[group.engineKey];
  return price === undefined ? group.recordedCostMillicents : callCostMillicents(price, group.totalTokens);
}

/** Millicents to whole cents; sums are kept in millicents so rounding happens once per figure. */
function toCents(millicents: number): number {
  return Math.round(millicents / 1000);
}

/** profit / revenue x 100 with two decimals; 0 when there is no revenue (no division by zero). */
export function profitPercentage(profitCents: number, revenueCents: number): number {
  if (revenueCents <= 0) return 0;
  return Math.round((profitCents / revenueCents) * 10_000) / 100;
}

/** The admin metrics reply from the rows the server read. */
export function computeAdminMetrics(input: AdminMetricsInput): AdminMetricsReply {
  const providers = new Map<string, { calls: number; totalTokens: number; revenueCents: number; costMillicents: number }>();
  const byConversation = new Map<string, { tokens: number; revenueCents: number; costMillicents: number }>();
  let costMillicents = 0;
  for (const group of input.usage) {
    const cost = usageCostMillicents(group, input.costPer1kTokensCents);
    costMillicents += cost;
    const p = providers.get(group.engineKey) ?? { calls: 0, totalTokens: 0, revenueCents: 0, costMillicents: 0 };
    p.calls += group.calls;
    p.totalTokens += group.totalTokens;
    p.revenueCents += group.billedCents;
    p.costMillicents += cost;
    providers.set(group.engineKey, p);
    if (group.conversationId !== null) {
      const c = byConversation.get(group.conversationId) ?? { tokens: 0, revenueCents: 0, costMillicents: 0 };
      c.tokens += group.totalTokens;
      c.revenueCents += group.billedCents;
      c.costMillicents += cost;
      byConversation.set(group.conversationId, c);
    }
  }

  const totalRevenue = input.topUpCents + input.licenceCents + input.showcaseShareCents;
  const totalCosts = toCents(costMillicents);
  const totalProfit = totalRevenue - totalCosts;

  const providerBreakdown: Record<string, ProviderMetrics> = {};
  for (const [key, p] of [...providers].sort(([a], [b]) => a.localeCompare(b))) {
    providerBreakdown[key] = { calls: p.calls, totalTokens: p.totalTokens, totalRevenue: p.revenueCents, totalCost: toCents(p.costMillicents) };
  }

  const projects: AdminProjectMetrics[] = input.conversations.map((conversation) => {
    const c = byConversation.get(conversation.id) ?? { tokens: 0, revenueCents: 0, costMillicents: 0 };
    const aiCostCents = toCents(c.costMillicents);
    // No hosting is sold or paid for yet, so deployment money is 0 until there are records of it.
    return {
      conversationId: conversation.id,
      idea: conversation.idea,
      aiCostCents,
      aiRevenueCents: c.revenueCents,
      deploymentCostCents: 0,
      deploymentRevenueCents: 0,
      profitCents: c.revenueCents - aiCostCents,
      tokenCount: c.tokens,
    };
  });

  return {
    overview: {
      totalRevenue,
      totalCosts,
      totalProfit,
      profitPercentage: profitPercentage(totalProfit, totalRevenue),
      activeProjects: input.activeProjects,
      totalConversations: input.totalConversations,
    },
    aiMetrics: { providerBreakdown },
    deploymentMetrics: { deployedProjects: input.deployedProjects, estimatedMonthlyCost: 0, revenue: 0 },
    projects,
  };
}
