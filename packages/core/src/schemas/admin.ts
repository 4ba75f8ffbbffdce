/**
 * Admin metrics (companion §2, §3 Admin metrics, §6, §7). The page is gated by a secret sent in
 * the X-Admin-Secret header; a wrong or missing one answers 401 'Unauthorized'.
 */
import { z } from 'zod';
import { countLike, numberLike, signedCents } from './common.js';

/** Header name as Node and Koa give it (lowercase). */
export const ADMIN_SECRET_HEADER = 'x-admin-secret';

export const adminOverview = z.object({
  totalRevenue: numberLike,
  totalCosts: numberLike,
  totalProfit: numberLike,
  profitPercentage: numberLike,
  activeProjects: countLike,
  totalConversations: countLike,
});
export type AdminOverview = z.infer<typeof adminOverview>;

export const providerMetrics = z.object({
  calls: countLike,
  totalTokens: countLike,
  totalRevenue: numberLike,
  totalCost: numberLike,
});
export type ProviderMetrics = z.infer<typeof providerMetrics>;

export const deploymentMetrics = z.object({
  deployedProjects: countLike,
  estimatedMonthlyCost: numberLike,
  revenue: numberLike,
});
export type DeploymentMetrics = z.infer<typeof deploymentMetrics>;

export const adminProjectMetrics = z.object({
  conversationId: z.string(),
  idea: z.string(),
  aiCostCents: signedCents,
  aiRevenueCents: signedCents,
  deploymentCostCents: signedCents,
  deploymentRevenueCents: signedCents,
  profitCents: signedCents,
  tokenCount: countLike,
});
export type AdminProjectMetrics = z.infer<typeof adminProjectMetrics>;

/** GET /api/admin/metrics */
export const adminMetricsReply = z.object({
  overview: adminOverview,
  /** providerBreakdown is keyed by provider name. */
  aiMetrics: z.object({ providerBreakdown: z.record(z.string(), providerMetrics) }),
  deploymentMetrics,
  projects: z.array(adminProjectMetrics),
});
export type AdminMetricsReply = z.infer<typeof adminMetricsReply>;
