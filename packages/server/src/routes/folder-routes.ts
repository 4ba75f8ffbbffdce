import Router from '@koa/router';
import { createFolderRequest, folderName, projectsQuery, type FolderReply, type FoldersReply, type ProjectsPageReply } from '@wolfpack/core';
import { z } from 'zod';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { FolderService } from '../services/projects/folder-service.js';
import type { ProjectService } from '../services/projects/project-service.js';

/** PUT /api/folders/{id} renames; an optional parentFolderId also moves it (cycles refused). */
const updateFolderRequest = z.object({ name: folderName, parentFolderId: z.string().nullable().optional() });

/** Folders and the projects in each (GET /api/folders/root/projects for the root). */
export function folderRoutes(folders: FolderService, projects: ProjectService): Router {
  const router = new Router({ prefix: '/api/folders' });
  router.use(jsonBody('16kb'));

  router.get('/', async (ctx) => {
    ctx.body = { folders: await folders.list(requireUser(ctx).id) } satisfies FoldersReply;
  });

  router.post('/', async (ctx) => {
    const input = parseWith(createFolderRequest, ctx.request.body);
    ctx.status = 201;
    ctx.body = { folder: await folders.create(requireUser(ctx).id, input.name, input.parentFolderId) } satisfies FolderReply;
  });

  router.put('/:id', async (ctx) => {
    const input = parseWith(updateFolderRequest, ctx.request.body);
    ctx.body = { folder: await folders.update(requireUser(ctx).id, ctx.params.id!, input) } satisfies FolderReply;
  });

  router.delete('/:id', async (ctx) => {
    await folders.remove(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true };
  });

  // Paged like GET /api/projects (never every project in one answer), the folder from the path.
  router.get('/:id/projects', async (ctx) => {
    const user = requireUser(ctx);
    const query = parseWith(projectsQuery, ctx.query);
    ctx.body = (await projects.page(user.id, { ...query, folderId: ctx.params.id! })) satisfies ProjectsPageReply;
  });

  return router;
}
