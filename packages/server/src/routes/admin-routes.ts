import Router from '@koa/router';
import {
  ADMIN_SECRET_HEADER,
  adminLicenceParams,
  grantNjinLicenceRequest,
  type AdminMetricsReply,
  type AdminNjinLicenceReply,
} from '@wolfpack/core';
import type { Context, Next } from 'koa';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { AdminGate, type AdminGateOptions } from '../services/accounts/admin-gate.js';
import type { AdminMetricsService } from '../services/operations/admin-metrics-service.js';
import type { NjinService } from '../services/njin/njin-service.js';

export interface AdminRoutesDeps {
  metrics: AdminMetricsService;
  /** Where the operator grants and revokes njin licences. */
  njin: NjinService;
  /** The admin secret (WOLFPACK_ADMIN_SECRET, or generated into the data directory's secrets). */
  adminSecret: string;
  /** Throttling of wrong secrets (tests move its clock). */
  gate?: AdminGateOptions;
}

/**
 * /api/admin (companion §7): metrics, and the operator's njin licences, all
 * behind the X-Admin-Secret header. Answers are never kept by a browser or proxy cache.
 */
export function adminRoutes({ metrics, njin, adminSecret, gate: gateOptions }: AdminRoutesDeps): Router {
  const router = new Router({ prefix: '/api/admin' });
  const gate = new AdminGate(adminSecret, gateOptions);
  // The secret is checked before anything else of the request is read.
  const adminOnly = async (ctx: Context, next: Next) => {
    gate.check(ctx.ip, ctx.get(ADMIN_SECRET_HEADER) || undefined);
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.get('/metrics', adminOnly, async (ctx) => {
    ctx.body = (await metrics.metrics()) satisfies AdminMetricsReply;
  });

  router.put('/njin-licences/:username', adminOnly, jsonBody(), async (ctx) => {
    const { username } = parseWith(adminLicenceParams, ctx.params);
    const { until } = parseWith(grantNjinLicenceRequest, ctx.request.body);
    ctx.body = (await njin.grantLicence(username, until)) satisfies AdminNjinLicenceReply;
  });

  router.delete('/njin-licences/:username', adminOnly, async (ctx) => {
    const { username } = parseWith(adminLicenceParams, ctx.params);
    ctx.body = (await njin.revokeLicence(username)) satisfies AdminNjinLicenceReply;
  });

  return router;
}
