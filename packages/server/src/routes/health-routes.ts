import Router from '@koa/router';
import type { HealthReply } from '@wolfpack/core';
import type { Database } from '../db/orm.js';

/** GET /api/health: 200 once the server accepts requests and the database answers. */
export function healthRoutes(db: Database): Router {
  const router = new Router();
  router.get('/api/health', async (ctx) => {
    await db.orm.em.getConnection().execute('select 1');
    ctx.body = { ok: true, database: db.kind } satisfies HealthReply;
  });
  return router;
}
