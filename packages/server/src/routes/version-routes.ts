import Router from '@koa/router';
import type { Context } from 'koa';
import {
  AppError,
  fileDeleteQuery,
  fileEditRequest,
  restoreVersionRequest,
  versionDiffQuery,
  versionFileQuery,
  versionExportQuery,
  versionNumber,
  type VersionChangeReply,
  type VersionDiffReply,
  type VersionFilesReply,
  type VersionsReply,
} from '@wolfpack/core';
import { MAX_FILE_BYTES } from '@wolfpack/core/pipeline';
import { requireUser, signedIn } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { Logger } from '../logger.js';
import type { ProjectService } from '../services/projects/project-service.js';
import { VersionEdits } from '../services/projects/version-edits.js';
import { zipStream, type ZipFileInput } from '../services/projects/zip-export.js';
import type { VersionReader } from '../services/projects/version-reader.js';
import type { VersionStore } from '../services/projects/version-store.js';
import type { VerificationService } from '../services/runs/verification-service.js';

export interface VersionRoutesDeps {
  store: VersionStore;
  reader: VersionReader;
  projects: ProjectService;
  verifications: VerificationService;
  log: Logger;
}

/**
 * A file's text is at most 1 MiB (MAX_FILE_BYTES, checked on the parsed text with a message that
 * says so); as JSON it can take up to six times that (`\u00XX` escapes), plus the other fields.
 */
const FILE_BODY_LIMIT = MAX_FILE_BYTES * 6 + 16 * 1024;

/** A project's versions, diffs and restores, and edits of its files. */
export function versionRoutes({ store, reader, projects, log }: VersionRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });
  const edits = new VersionEdits(store, reader);

  router.get('/projects/:id/versions', async (ctx) => {
    ctx.body = (await reader.list(requireUser(ctx).id, ctx.params.id!)) satisfies VersionsReply;
  });

  router.get('/projects/:id/versions/:n', async (ctx) => {
    const user = requireUser(ctx);
    const n = versionParam(ctx.params.n!);
    const { path } = parseWith(versionFileQuery, ctx.query);
    ctx.body = (await reader.files(user.id, ctx.params.id!, n, path)) satisfies VersionFilesReply;
  });

  router.get('/projects/:id/versions/:n/diff', async (ctx) => {
    const user = requireUser(ctx);
    const n = versionParam(ctx.params.n!);
    const { against } = parseWith(versionDiffQuery, ctx.query);
    ctx.body = (await reader.diff(user.id, ctx.params.id!, n, against)) satisfies VersionDiffReply;
  });

  router.post('/projects/:id/versions/:n/restore', signedIn, jsonBody('1kb'), async (ctx) => {
    const user = requireUser(ctx);
    const n = versionParam(ctx.params.n!);
    const { expectedVersion } = parseWith(restoreVersionRequest, ctx.request.body);
    ctx.status = 201;
    ctx.body = (await edits.restore(user.id, ctx.params.id!, n, expectedVersion)) satisfies VersionChangeReply;
  });

  router.put('/projects/:id/files/*path', signedIn, jsonBody(FILE_BODY_LIMIT), async (ctx) => {
    const user = requireUser(ctx);
    const { content, expectedVersion, renameFrom } = parseWith(fileEditRequest, ctx.request.body);
    ctx.status = 201;
    ctx.body = (await edits.write(user.id, ctx.params.id!, filePathOf(ctx), content, expectedVersion, renameFrom)) satisfies VersionChangeReply;
  });

  router.delete('/projects/:id/files/*path', async (ctx) => {
    const user = requireUser(ctx);
    const { expectedVersion } = parseWith(fileDeleteQuery, ctx.query);
    ctx.body = (await edits.remove(user.id, ctx.params.id!, filePathOf(ctx), expectedVersion)) satisfies VersionChangeReply;
  });

  /**
   * The project's files as a zip: the current files stream from the working copy, batch by batch;
   * `?version=N` zips an earlier version (at most a project's 20 MiB in memory).
   */
  router.get('/projects/:id/export', async (ctx) => {
    const user = requireUser(ctx);
    const project = await projects.getOwned(user.id, ctx.params.id!);
    const { version } = parseWith(versionExportQuery, ctx.query);
    const current = version === undefined || version === project.version;
    // Read before any header is set: an unknown version is a plain 404 reply, not a zip.
    const files = current ? projects.streamFiles(user.id, project.id) : entriesOf((await reader.versionFiles(user.id, project.id, version)).files);
    ctx.set('Content-Disposition', `attachment; filename="project-${project.id.slice(0, 8)}${current ? '' : `-v${version}`}.zip"`);
    ctx.type = 'application/zip';
    ctx.body = zipStream(files, log);
  });

  return router;
}

async function* entriesOf(files: Record<string, string>): AsyncGenerator<ZipFileInput> {
  for (const [path, content] of Object.entries(files)) yield { path, content };
}

/** A version number in the URL: `abc`, `0`, `-1`, `1e99` are a 400 that says what a version is. */
function versionParam(raw: string): number {
  const parsed = versionNumber.safeParse(raw);
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', `${parsed.error.issues[0]?.message ?? 'A version is a whole number, 1 or more'}; the URL has ${JSON.stringify(raw.slice(0, 40))}.`);
  }
  return parsed.data;
}

/**
 * The file's path from the URL, after `/files/`, percent-decoded once as a whole, so `src/App.tsx`
 * and `src%2FApp.tsx` are one file; the router leaves a malformed escape as it is, which would
 * name a file nobody meant.
 */
function filePathOf(ctx: Context): string {
  // ['', 'api', 'projects', id, 'files', ...path]
  const raw = ctx.path.split('/').slice(5).join('/');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('BAD_REQUEST', `The file path in the URL is not valid percent-encoding (${raw.slice(0, 100)}): encode it with encodeURIComponent.`);
  }
}
