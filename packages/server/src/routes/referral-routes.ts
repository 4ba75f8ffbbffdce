import Router from '@koa/router';
import type { Context } from 'koa';
import { referralCodeLookup, type ReferralCodeCheckReply, type ReferralStatsReplyJson, type SubscriptionStatusReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { parseWith } from '../middleware/parse.js';
import { LookupThrottle, type LookupThrottleOptions } from '../services/accounts/lookup-throttle.js';
import type { ReferralService } from '../services/accounts/referral-service.js';

export interface ReferralRoutesDeps {
  referrals: ReferralService;
  /** WOLFPACK_PUBLIC_ORIGIN: the site's address in referral links, when the server sits behind one. */
  publicOrigin: string | undefined;
  /** The per-address bound on referral code lookups (tests shorten it). */
  codeLookups?: LookupThrottleOptions;
}

/**
 * The Referrals page's figures, the referral code the share dialogs read, and the sign-up form's
 * check of the code a visitor arrived with (public, bounded per address).
 */
export function referralRoutes({ referrals, publicOrigin, codeLookups }: ReferralRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });
  const lookups = new LookupThrottle(codeLookups);

  router.get('/referrals', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = (await referrals.stats(user.id, publicOrigin ?? requestOrigin(ctx))) satisfies ReferralStatsReplyJson;
  });

  router.get('/referrals/code/:code', async (ctx) => {
    lookups.take(ctx.ip);
    const { code } = parseWith(referralCodeLookup, { code: ctx.params.code });
    ctx.body = { valid: await referrals.codeExists(code) } satisfies ReferralCodeCheckReply;
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
