import Router from '@koa/router';
import { enhancementRequest, type PromptHistoryReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { openSse } from '../sse/sse-writer.js';
import type { EnhancementService } from '../services/enhancement-service.js';

/** POST /api/multi-pass-enhancements (a stream of step events) and a project's prompt history. */
export function enhancementRoutes(enhancements: EnhancementService, heartbeatMs: number): Router {
  const router = new Router({ prefix: '/api' });

  router.post('/multi-pass-enhancements', jsonBody('40mb'), async (ctx) => {
    const user = requireUser(ctx);
    const request = parseWith(enhancementRequest, ctx.request.body);
    const sse = await openSse(ctx, heartbeatMs);
    const abort = new AbortController();
    // Unlike a run, an enhancement is only worth finishing while someone waits for it.
    void sse.closed.then(() => abort.abort());
    let id = 0;
    try {
      for await (const event of enhancements.enhance(user, request, abort.signal)) sse.send(++id, event);
    } finally {
      sse.end();
    }
  });

  router.get('/projects/:id/prompt-history', async (ctx) => {
    ctx.body = (await enhancements.history(requireUser(ctx).id, ctx.params.id!)) satisfies PromptHistoryReply;
  });

  return router;
}
