import Router from '@koa/router';
import type { Context } from 'koa';
import type { ReferralStatsReplyJson, SubscriptionStatusReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import type { ReferralService } from '../services/referral-service.js';

export interface ReferralRoutesDeps {
  referrals: ReferralService;
  /** WOLFPACK_PUBLIC_ORIGIN: the site's address in referral links, when the server sits behind one. */
  publicOrigin: string | undefined;
}

/** The Referrals page's figures and the referral code the share dialogs read. */
export function referralRoutes({ referrals, publicOrigin }: ReferralRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/referrals', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = (await referrals.stats(user.id, publicOrigin ?? requestOrigin(ctx))) satisfies ReferralStatsReplyJson;
  });

  router.get('/subscription/status', async (ctx) => {
    const user = requireUser(ctx);
    // Only an active account gets this far: a closed one has no session or token left.
    ctx.body = { referralCode: await referrals.codeFor(user.id), plan: user.plan, status: 'active' } satisfies SubscriptionStatusReply;
  });

  return router;
}

/** Koa 3's ctx.origin echoes the Origin header; the link must name this server instead. */
function requestOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
