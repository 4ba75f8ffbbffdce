import Router from '@koa/router';
import type { Context } from 'koa';
import { MAX_RUN_BODY_BYTES, repairRequest, streamRequest, type RunEstimateReply, type RunInfoReply } from '@wolfpack/core';
import { requireUser, signedIn } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { followRun, lastEventIdFrom } from '../sse/follow-run.js';
import { openSse } from '../sse/sse-writer.js';
import type { RunService } from '../services/runs/run-service.js';
import { traceStep } from '../services/runs/run-trace.js';

/** POST /api/wolfpack/stream, its estimate, "Repair again", and the calls that let a run outlive its connection. */
export function runRoutes(runs: RunService, heartbeatMs: number): Router {
  const router = new Router();

  // Signed out: refused before the body (up to ~38 MB of attachments) is read at all; signed in,
  // read only up to what the schema allows.
  router.post('/api/wolfpack/stream', signedIn, jsonBody(MAX_RUN_BODY_BYTES), async (ctx) => {
    traceStep('route');
    const user = requireUser(ctx);
    const request = parseWith(streamRequest, ctx.request.body);
    const runId = await runs.start(user, request);
    await streamEvents(ctx, runs, user, runId, 0, heartbeatMs);
  });

  // What a run with this body would probably cost, before it starts (the same body, the same limits).
  router.post('/api/wolfpack/estimate', signedIn, jsonBody(MAX_RUN_BODY_BYTES), async (ctx) => {
    const user = requireUser(ctx);
    const request = parseWith(streamRequest, ctx.request.body);
    ctx.body = (await runs.estimate(user, request)) satisfies RunEstimateReply;
  });

  router.get('/api/wolfpack/runs/:id', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { run: await runs.info(user, ctx.params.id!) } satisfies RunInfoReply;
  });

  router.get('/api/wolfpack/runs/:id/events', async (ctx) => {
    const user = requireUser(ctx);
    const runId = ctx.params.id!;
    await runs.assertOwned(user, runId); // 404 before the stream starts
    await streamEvents(ctx, runs, user, runId, lastEventId(ctx), heartbeatMs);
  });

  router.post('/api/wolfpack/runs/:id/resume', jsonBody(), async (ctx) => {
    const user = requireUser(ctx);
    const runId = ctx.params.id!;
    const before = await runs.info(user, runId);
    await runs.resume(user, runId);
    const header = ctx.get('Last-Event-ID') || (ctx.query.lastEventId as string | undefined);
    await streamEvents(ctx, runs, user, runId, header ? lastEventId(ctx) : before.lastEventId, heartbeatMs);
  });

  // A new run of Proven Code alone on the project's files; its events stream as a build's do.
  router.post('/api/projects/:id/repair', jsonBody('1kb'), async (ctx) => {
    const user = requireUser(ctx);
    const request = parseWith(repairRequest, ctx.request.body ?? {});
    const runId = await runs.startRepair(user, ctx.params.id!, request);
    await streamEvents(ctx, runs, user, runId, 0, heartbeatMs);
  });

  return router;
}

/** Last-Event-ID header (or ?lastEventId= for clients that cannot set headers). */
function lastEventId(ctx: Context): number {
  return lastEventIdFrom(ctx.get('Last-Event-ID'), typeof ctx.query.lastEventId === 'string' ? ctx.query.lastEventId : undefined);
}

/**
 * Opens the event stream and returns: the stream goes on without Koa. Awaited here instead, each
 * open stream held its request's context (the request, its parsed body, the session, the
 * cookies) and every middleware's suspended call for as long as it stayed open, hours for a
 * long run. Nothing after the route needs them: the headers are out, the session was saved
 * before them, and `ctx.respond` is false, so Koa leaves the response to the stream.
 */
async function streamEvents(ctx: Context, runs: RunService, user: { id: string }, runId: string, after: number, heartbeatMs: number): Promise<void> {
  const sse = await openSse(ctx, heartbeatMs);
  followRun(sse, runs, { id: user.id }, runId, after, ctx.app);
}
