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

// ---------------------------------------------------------------------------------------------
// njin licences granted by the operator (self-hosted servers without Stripe):
// PUT /api/admin/njin-licences/{username} {until}, DELETE /api/admin/njin-licences/{username}
// ---------------------------------------------------------------------------------------------

const UNTIL_HELP = 'until must be a date such as 2027-01-31 (the licence then runs through that day, UTC) or a time such as 2027-01-31T18:00:00Z';

/**
 * When a granted licence ends, from what an operator types: a day (YYYY-MM-DD) means through the
 * end of that day in UTC; a full ISO 8601 time (with Z or an offset) means that instant. Null for
 * anything else, and for days that do not exist (2027-02-30).
 */
export function parseLicenceUntil(text: string): Date | null {
  const value = text.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = new Date(Date.UTC(year, month - 1, date));
    if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== date) return null;
    return new Date(start.getTime() + 24 * 3_600_000 - 1);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The body of PUT /api/admin/njin-licences/{username}: the licence runs until then. */
export const grantNjinLicenceRequest = z.object({
  until: z
    .string(UNTIL_HELP)
    .transform((value, ctx) => {
      const at = parseLicenceUntil(value);
      if (at === null) {
        ctx.addIssue({ code: 'custom', message: UNTIL_HELP });
        return z.NEVER;
      }
      return at;
    }),
});
export type GrantNjinLicenceRequest = z.infer<typeof grantNjinLicenceRequest>;

/** The {username} of the admin licence routes: the account's username, any case. */
export const adminLicenceParams = z.object({
  username: z.string('Name the user: /api/admin/njin-licences/{username}.').trim().min(1, 'Name the user: /api/admin/njin-licences/{username}.').max(64, 'Usernames are at most 64 characters.'),
});

/** A user's njin licence as the operator sees it. */
export const adminNjinLicence = z.object({
  username: z.string(),
  /** 'active', 'canceled' or 'inactive' (as GET /api/njin/license says it). */
  status: z.string(),
  expiresAt: z.string().nullable(),
  usageCount: countLike,
  /** True while a Stripe subscription pays for it: its events then decide, not the operator. */
  paidThroughStripe: z.boolean(),
});
export type AdminNjinLicence = z.infer<typeof adminNjinLicence>;

/** Both admin licence routes: the licence as it now stands, and whether the call changed it. */
export const adminNjinLicenceReply = z.object({ licence: adminNjinLicence, changed: z.boolean() });
export type AdminNjinLicenceReply = z.infer<typeof adminNjinLicenceReply>;
