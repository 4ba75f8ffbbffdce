import Router from '@koa/router';
import type { HealthReply } from '@wolfpack/core';
import type { Database } from '../db/orm.js';
import { askDatabase, DatabaseProbe, unfitReason } from '../services/operations/database-probe.js';

/**
 * GET /api/health: 200 once the server accepts requests and the database answered within the last
 * second; 503 with the reason while the database cannot be reached or cannot store anything (a
 * load balancer then sends requests elsewhere).
 */
export function healthRoutes(db: Database, probe = new DatabaseProbe(askDatabase(db))): Router {
  const router = new Router();
  router.get('/api/health', async (ctx) => {
    try {
      await probe.check();
      ctx.body = { ok: true, database: db.kind } satisfies HealthReply;
    } catch (error) {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      ctx.body = { ok: false, database: db.kind, reason: unfitReason(error) } satisfies HealthReply;
    }
  });
  return router;
}
