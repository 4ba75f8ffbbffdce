import Router from '@koa/router';
import { ADMIN_SECRET_HEADER, type AdminMetricsReply } from '@wolfpack/core';
import { AdminGate, type AdminGateOptions, type AdminMetricsService } from '../services/admin-metrics-service.js';

export interface AdminRoutesDeps {
  metrics: AdminMetricsService;
  /** The admin secret (WOLFPACK_ADMIN_SECRET, or generated into the data directory's secrets). */
  adminSecret: string;
  /** Throttling of wrong secrets (tests shorten it). */
  gate?: AdminGateOptions;
}

/** /api/admin (issue 10, companion §7): metrics behind the X-Admin-Secret header. */
export function adminRoutes({ metrics, adminSecret, gate: gateOptions }: AdminRoutesDeps): Router {
  const router = new Router({ prefix: '/api/admin' });
  const gate = new AdminGate(adminSecret, gateOptions);

  router.get('/metrics', async (ctx) => {
    gate.check(ctx.ip, ctx.get(ADMIN_SECRET_HEADER) || undefined);
    const reply: AdminMetricsReply = await metrics.metrics();
    // Business figures: never kept by a browser or proxy cache.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = reply;
  });

  return router;
}
