import Router from '@koa/router';
import type { ConversationsReply, EnginesReply, ProjectDetailReply, ProjectsReply, ReplitCodeReply, StatsReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import type { EngineRegistry } from '../services/engine-registry.js';
import type { ProjectService } from '../services/project-service.js';
import type { StatsService } from '../services/stats-service.js';

export interface ProjectRoutesDeps {
  projects: ProjectService;
  stats: StatsService;
  engines: EngineRegistry;
}

/** Projects, run history, statistics and the engine list. */
export function projectRoutes({ projects, stats, engines }: ProjectRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/engines', (ctx) => {
    requireUser(ctx);
    ctx.body = engines.info() satisfies EnginesReply;
  });

  router.get('/stats', async (ctx) => {
    ctx.body = (await stats.stats(requireUser(ctx).id)) satisfies StatsReply;
  });

  router.get('/conversations', async (ctx) => {
    ctx.body = { conversations: await stats.conversations(requireUser(ctx).id) } satisfies ConversationsReply;
  });

  router.get('/projects', async (ctx) => {
    ctx.body = { projects: await projects.list(requireUser(ctx).id) } satisfies ProjectsReply;
  });

  router.get('/projects/:id', async (ctx) => {
    ctx.body = (await projects.detail(requireUser(ctx).id, ctx.params.id!)) satisfies ProjectDetailReply;
  });

  router.get('/projects/:id/replit-code', async (ctx) => {
    const { code, fileCount } = await projects.consolidatedCode(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true, code, fileCount, error: '' } satisfies ReplitCodeReply;
  });

  return router;
}
