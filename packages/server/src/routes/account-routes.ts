import Router from '@koa/router';
import type { AccountReplyJson, SavingsReplyJson } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import type { AccountService } from '../services/accounts/account-service.js';
import type { PreviewService } from '../services/preview/preview-service.js';
import type { StatsService } from '../services/projects/stats-service.js';
import type { SubscriptionCloser } from '../services/njin/subscription-closer.js';

export interface AccountRoutesDeps {
  accounts: AccountService;
  stats: StatsService;
  /** Cancels a closed account's njin subscription at Stripe. */
  subscriptions: Pick<SubscriptionCloser, 'closeFor'>;
  /** Ends the user's preview links and cookies. */
  previews: Pick<PreviewService, 'revokeAll'>;
}

/** The Account page (and Cancel Account) and the Savings dashboard it links to. */
export function accountRoutes({ accounts, stats, subscriptions, previews }: AccountRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/account', async (ctx) => {
    ctx.body = (await accounts.account(requireUser(ctx).id)) satisfies AccountReplyJson;
  });

  router.delete('/account', async (ctx) => {
    const { id } = requireUser(ctx);
    await accounts.close(id);
    // Its projects are gone with it; what of them still runs stops now, not when idle.
    await previews.revokeAll(id);
    // After the commit: Stripe is told only about an account that is closed. Not acknowledged
    // yet, it is tried again in the background; the account is closed either way.
    await subscriptions.closeFor(id);
    // The stored sessions are gone already; this also expires the caller's cookie.
    ctx.session = null;
    ctx.body = { success: true };
  });

  router.post('/account/sign-out-everywhere', async (ctx) => {
    const { id } = requireUser(ctx);
    // Previews first: a link must not outlive the sessions that could have opened it.
    await previews.revokeAll(id);
    await accounts.signOutEverywhere(id);
    ctx.session = null;
    ctx.body = { success: true };
  });

  router.get('/savings', async (ctx) => {
    ctx.body = (await stats.savings(requireUser(ctx).id)) satisfies SavingsReplyJson;
  });

  return router;
}
