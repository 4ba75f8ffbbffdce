import Router from '@koa/router';
import { enhancementRequest, MAX_RUN_BODY_BYTES, type PromptHistoryReply } from '@wolfpack/core';
import { requireUser, signedIn } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { openSse } from '../sse/sse-writer.js';
import type { EnhancementService } from '../services/runs/enhancement-service.js';

/** POST /api/multi-pass-enhancements (a stream of step events) and a project's prompt history. */
export function enhancementRoutes(enhancements: EnhancementService, heartbeatMs: number): Router {
  const router = new Router({ prefix: '/api' });

  // Signed out: refused before the body (up to ~38 MB of attachments) is read at all.
  router.post('/multi-pass-enhancements', signedIn, jsonBody(MAX_RUN_BODY_BYTES), async (ctx) => {
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
