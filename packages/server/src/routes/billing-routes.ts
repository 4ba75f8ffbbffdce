import Router from '@koa/router';
import {
  billingHistoryQuery,
  centsToDollars,
  CREDIT_PACKS,
  DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
  grantResetDate,
  MONTHLY_GRANT_CENTS,
  type BalanceReplyJson,
  type UsageHistoryItemJson,
  type LedgerEntryItemJson,
  type PacksReply,
} from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { parseWith } from '../middleware/parse.js';
import type { BillingService } from '../services/billing/billing-service.js';

/** GET balance, usage history, ledger and packs: parse, call, reply. */
export function billingRoutes(billing: BillingService): Router {
  const router = new Router({ prefix: '/api/billing' });

  router.get('/balance', async (ctx) => {
    const user = requireUser(ctx);
    const b = await billing.balance(user.id);
    ctx.body = {
      balanceCents: b.balanceCents,
      balanceDollars: centsToDollars(b.balanceCents),
      monthlyGrantDollars: centsToDollars(MONTHLY_GRANT_CENTS),
      grantResetDate: grantResetDate(b.now).toISOString(),
      referralEarningsDollars: centsToDollars(b.referralEarningsCents),
      totalReferrals: b.totalReferrals,
      referralCode: b.referralCode,
    } satisfies BalanceReplyJson;
  });

  router.get('/history', async (ctx) => {
    const user = requireUser(ctx);
    const query = parseWith(billingHistoryQuery, ctx.query);
    ctx.body = { history: await billing.history(user.id, query) } satisfies { history: UsageHistoryItemJson[] };
  });

  router.get('/ledger', async (ctx) => {
    const user = requireUser(ctx);
    const query = parseWith(billingHistoryQuery, ctx.query);
    ctx.body = { entries: await billing.ledger.entries(user.id, query) } satisfies { entries: LedgerEntryItemJson[] };
  });

  router.get('/packs', (ctx) => {
    ctx.body = {
      packs: CREDIT_PACKS.map((p) => ({ ...p })),
      pricePer1kTokensCents: billing.pricePer1kTokensCents() ?? DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
      paymentsConfigured: billing.paymentsConfigured,
    } satisfies PacksReply;
  });

  return router;
}
