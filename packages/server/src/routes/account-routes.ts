import Router from '@koa/router';
import type { AccountReplyJson, SavingsReplyJson } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import type { AccountService } from '../services/account-service.js';
import type { StatsService } from '../services/stats-service.js';

export interface AccountRoutesDeps {
  accounts: AccountService;
  stats: StatsService;
}

/** The Account page (and Cancel Account) and the Savings dashboard it links to. */
export function accountRoutes({ accounts, stats }: AccountRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/account', async (ctx) => {
    ctx.body = (await accounts.account(requireUser(ctx).id)) satisfies AccountReplyJson;
  });

  router.delete('/account', async (ctx) => {
    await accounts.close(requireUser(ctx).id);
    // The stored sessions are gone already; this also expires the caller's cookie.
    ctx.session = null;
    ctx.body = { success: true };
  });

  router.get('/savings', async (ctx) => {
    ctx.body = (await stats.savings(requireUser(ctx).id)) satisfies SavingsReplyJson;
  });

  return router;
}
