import { hash } from 'node:crypto';
import Router from '@koa/router';
import { moveProjectRequest, projectsQuery, type ConversationsReply, type EnginesReply, type ProjectDetailReply, type ProjectsPageReply, type ReplitCodeReply, type StatsReply, type VerificationReply } from '@wolfpack/core';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { requireUser } from '../middleware/authenticate.js';
import type { EngineRegistry } from '../services/runs/engine-registry.js';
import type { ProofCapabilityService } from '../services/runs/proof-capability.js';
import type { ProjectService } from '../services/projects/project-service.js';
import type { StatsService } from '../services/projects/stats-service.js';
import type { VerificationService } from '../services/runs/verification-service.js';

export interface ProjectRoutesDeps {
  projects: ProjectService;
  stats: StatsService;
  engines: EngineRegistry;
  verifications: VerificationService;
  proof: ProofCapabilityService;
}

/** Projects, run history, statistics and the engine list (with what Proven Code can run here). */
export function projectRoutes({ projects, stats, engines, verifications, proof }: ProjectRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/engines', async (ctx) => {
    requireUser(ctx);
    ctx.body = { ...engines.info(), proof: await proof.capability() } satisfies EnginesReply;
  });

  router.get('/stats', async (ctx) => {
    ctx.body = (await stats.stats(requireUser(ctx).id)) satisfies StatsReply;
  });

  router.get('/conversations', async (ctx) => {
    ctx.body = { conversations: await stats.conversations(requireUser(ctx).id) } satisfies ConversationsReply;
  });

  /**
   * A page of the user's projects: `{projects, nextCursor}` (see core's projectsQuery), with a weak
   * ETag of the page's JSON. A browser keeps the page (private: it is this user's) and asks again
   * with If-None-Match; an unchanged page is a 304 without a body, whatever the encoding.
   */
  router.get('/projects', async (ctx) => {
    const user = requireUser(ctx);
    const json = JSON.stringify((await projects.page(user.id, parseWith(projectsQuery, ctx.query))) satisfies ProjectsPageReply);
    ctx.type = 'application/json';
    ctx.body = json;
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.etag = `W/"${hash('sha1', json, 'base64url')}"`;
    // Koa drops the body of a 304.
    if (ctx.fresh) ctx.status = 304;
  });

  router.get('/projects/:id', async (ctx) => {
    const user = requireUser(ctx);
    const detail = await projects.detail(user.id, ctx.params.id!);
    ctx.body = { ...detail, verification: await verifications.current(user.id, ctx.params.id!) } satisfies ProjectDetailReply;
  });

  /** Proven Code's record of the project's current version (null for projects made before records were kept). */
  router.get('/projects/:id/verification', async (ctx) => {
    ctx.body = { verification: await verifications.current(requireUser(ctx).id, ctx.params.id!) } satisfies VerificationReply;
  });

  /** Re-check: every check again on the current files (no engine call, nothing charged). */
  router.post('/projects/:id/verification', jsonBody('1kb'), async (ctx) => {
    const abort = new AbortController();
    ctx.req.once('close', () => abort.abort());
    ctx.body = { verification: await verifications.recheck(requireUser(ctx).id, ctx.params.id!, abort.signal) } satisfies VerificationReply;
  });

  router.delete('/projects/:id', async (ctx) => {
    await projects.remove(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true };
  });

  /** Moving a project into a folder (the spec shows no call): folderId null is the root. */
  router.put('/projects/:id/folder', jsonBody('4kb'), async (ctx) => {
    const { folderId } = parseWith(moveProjectRequest, ctx.request.body);
    await projects.move(requireUser(ctx).id, ctx.params.id!, folderId);
    ctx.body = { success: true };
  });

  router.get('/projects/:id/replit-code', async (ctx) => {
    const { code, fileCount } = await projects.consolidatedCode(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true, code, fileCount, error: '' } satisfies ReplitCodeReply;
  });

  return router;
}
