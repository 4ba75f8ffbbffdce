import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError, GITHUB_TOKEN_HEADER, githubImportRequest, IMPORT_MAX_ZIP_BYTES, zipImportQuery, type ImportReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { ProjectImportService } from '../services/projects/project-import.js';

/** Content types a zip body may be sent with (browsers and curl differ). */
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];
const ZIP_MIB = IMPORT_MAX_ZIP_BYTES / 1024 / 1024;

/** POST /api/projects/import: a zip as the body, or a GitHub repository as JSON. */
export function importRoutes(imports: ProjectImportService): Router {
  const router = new Router({ prefix: '/api' });
  // The idea may be 50,000 characters, each JSON-escaped to six at worst.
  const json = jsonBody('512kb');

  router.post('/projects/import', async (ctx) => {
    const user = requireUser(ctx);
    if (ctx.is(ZIP_TYPES)) {
      const query = parseWith(zipImportQuery, ctx.query);
      const zip = await readZipBody(ctx);
      ctx.body = (await imports.importZip(user.id, zip, query)) satisfies ImportReply;
      ctx.status = 201;
      return;
    }
    if (!ctx.is('application/json')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send a zip as the body with Content-Type: application/zip, or a GitHub repository as JSON ({"github":"OWNER/REPO"}) with Content-Type: application/json.');
    }
    await json(ctx, async () => {
      const request = parseWith(githubImportRequest, ctx.request.body);
      ctx.body = (await imports.importGithub(user.id, request, ctx.get(GITHUB_TOKEN_HEADER) || undefined)) satisfies ImportReply;
      ctx.status = 201;
    });
  });

  return router;
}

/** The request body, refused with 413 as soon as it is over the limit (declared or counted). */
async function readZipBody(ctx: Context): Promise<Buffer> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The zip is over ${ZIP_MIB} MiB, the most an import may be. Leave out dependencies, build output and large media, and zip it again.`);
  if (Number(ctx.get('Content-Length') || 0) > IMPORT_MAX_ZIP_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > IMPORT_MAX_ZIP_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  if (size === 0) throw new AppError('BAD_REQUEST', 'The body is empty: send the zip file itself as the body.');
  return Buffer.concat(chunks);
}
