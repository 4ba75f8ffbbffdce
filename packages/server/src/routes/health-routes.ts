import Router from '@koa/router';
import type { HealthReply } from '@wolfpack/core';
import type { Database } from '../db/orm.js';
import { DatabaseProbe } from '../services/database-probe.js';

/** GET /api/health: 200 once the server accepts requests and the database answered within the last second. */
export function healthRoutes(db: Database, probe = new DatabaseProbe(() => db.orm.em.getConnection().execute('select 1'))): Router {
  const router = new Router();
  router.get('/api/health', async (ctx) => {
    await probe.check();
    ctx.body = { ok: true, database: db.kind } satisfies HealthReply;
  });
  return router;
}
