import Router from '@koa/router';
import { moveProjectRequest, projectsQuery, type ConversationsReply, type EnginesReply, type ProjectDetailReply, type ProjectsPageReply, type ReplitCodeReply, type StatsReply, type VerificationReply } from '@wolfpack/core';
import type { Logger } from '../logger.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { zipStream } from '../services/projects/zip-export.js';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import type { KeptReplyState } from '../middleware/compress.js';
import type { ReplyCache } from '../services/operations/reply-cache.js';
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
  /** The project list's pages, kept under each user's list version. */
  listPages: ReplyCache;
  log: Logger;
}

/** Projects, run history, statistics and the engine list (with what Proven Code can run here). */
export function projectRoutes({ projects, stats, engines, verifications, proof, listPages, log }: ProjectRoutesDeps): Router {
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
   * A page of the user's projects: `{projects, nextCursor}` (see core's projectsQuery). Kept as
   * bytes under the list's version read with the session (migration 0015): until a write to the
   * user's projects or folders moves it, the same page is answered without a query.
   */
  router.get('/projects', async (ctx) => {
    const user = requireUser(ctx);
    const query = parseWith(projectsQuery, ctx.query);
    const version = (ctx.state as AuthState).projectListVersion;
    if (version === undefined || !listPages.enabled) {
      ctx.body = (await projects.page(user.id, query)) satisfies ProjectsPageReply;
      return;
    }
    const key = `${user.id} ${version} ${JSON.stringify(query)}`;
    const kept = listPages.get(key) ?? listPages.set(key, Buffer.from(JSON.stringify((await projects.page(user.id, query)) satisfies ProjectsPageReply)));
    (ctx.state as KeptReplyState).keptReply = kept;
    ctx.type = 'application/json';
    ctx.body = kept.json;
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

  router.get('/projects/:id/export', async (ctx) => {
    const user = requireUser(ctx);
    const project = await projects.getOwned(user.id, ctx.params.id!);
    ctx.set('Content-Disposition', `attachment; filename="project-${project.id.slice(0, 8)}.zip"`);
    ctx.type = 'application/zip';
    ctx.body = zipStream(projects.streamFiles(user.id, project.id), log);
  });

  router.get('/projects/:id/replit-code', async (ctx) => {
    const { code, fileCount } = await projects.consolidatedCode(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true, code, fileCount, error: '' } satisfies ReplitCodeReply;
  });

  return router;
}
