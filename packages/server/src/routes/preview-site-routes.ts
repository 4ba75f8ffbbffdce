import { pipeline } from 'node:stream';
import Koa, { type Context } from 'koa';
import { AppError, isAppError } from '@wolfpack/core';
import { httpOrigin, pathInsidePreview, PREVIEW_APP_COOKIE, PREVIEW_COOKIE, PREVIEW_ENTER_PATH, PREVIEW_RESERVED_PREFIX, previewProjectOf } from '@wolfpack/core/proof';
import type { Logger } from '../logger.js';
import type { PreviewAccess, PreviewAnswer, PreviewService } from '../services/preview/preview-service.js';
import { sendPage, type PreviewPageContent } from './preview-page.js';

export interface PreviewSiteOptions {
  previews: PreviewService;
  /** The configured preview domain (WOLFPACK_PREVIEW_HOST); `*.localhost` is always served. */
  base: string | undefined;
  trustProxy: boolean;
  log: Logger;
}

/**
 * Everything a preview origin (`p-<id>.localhost:3000`) serves: the project, at the root, and
 * nothing of Wolfpack's. It is a Koa application of its own, not routes of Wolfpack's, so no
 * session, API route or page of Wolfpack's is reachable on a preview's origin whatever the path.
 *
 * The signed link (`/__wolfpack__/enter?token=…`) sets a cookie for this one host and sends the
 * browser on into the project; every other request must carry that cookie, which the project
 * itself never sees. A static site is served from its files, a bundled app from its build, an
 * HTTP server project's requests (any path and method) are passed to the server in its sandbox.
 */
export function previewSite({ previews, base, trustProxy, log }: PreviewSiteOptions): Koa {
  const koa = new Koa({ proxy: trustProxy });
  koa.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    log.error('unhandled preview error', error);
  });
  koa.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'private, no-store');
    try {
      await next();
    } catch (error) {
      if (!isAppError(error)) log.error('preview request failed', error);
      ctx.status = isAppError(error) ? error.status : 500;
      sendPage(ctx, { title: 'No preview', text: isAppError(error) ? error.message : 'Something went wrong on the Wolfpack server. Reload the page; if it keeps happening, open the preview again from Wolfpack.' });
    }
  });
  koa.use(async (ctx) => {
    // The dispatch in app.ts sends only preview hosts here.
    const projectId = previewProjectOf(ctx.get('host'), base)!;
    if (ctx.path === PREVIEW_ENTER_PATH) return enter(ctx, previews, projectId);
    if (ctx.path.startsWith(PREVIEW_RESERVED_PREFIX)) throw new AppError('NOT_FOUND', 'There is nothing of Wolfpack here.');
    const access = await previews.access(projectId, ctx.cookies.get(PREVIEW_COOKIE));
    const server = await previews.server(projectId, access);
    if (server === undefined) return serveFiles(ctx, previews, projectId, access);
    if (server.kind === 'page') {
      ctx.status = server.status;
      page(ctx, server);
      return;
    }
    const answer = await previews.forward(server, {
      method: ctx.method,
      path: ctx.url,
      headers: ctx.headers,
      body: ctx.req,
      mount: { host: ctx.host, proto: ctx.protocol },
    });
    if (answer.kind === 'page') {
      ctx.status = answer.status;
      page(ctx, answer);
      return;
    }
    // Streamed as it comes, by hand: Koa would buffer nothing either, but would log every answer
    // a bound cut short as an application error.
    ctx.respond = false;
    const res = ctx.res;
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    pipeline(answer.body, res, () => undefined);
  });
  return koa;
}

/** The signed link: its token becomes this host's cookie, and the browser goes on to the path it names. */
async function enter(ctx: Context, previews: PreviewService, projectId: string): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError('METHOD_NOT_ALLOWED', 'Open the preview link in the browser.');
  const token = typeof ctx.query['token'] === 'string' ? ctx.query['token'] : undefined;
  await previews.access(projectId, token);
  const expires = new Date(Number(token!.split('.')[0]));
  // Host-only (no Domain): sent to this preview's host alone, never to Wolfpack or another preview.
  const cookie = { httpOnly: true, sameSite: 'lax', path: '/', expires, secure: ctx.secure, overwrite: true, signed: false } as const;
  ctx.cookies.set(PREVIEW_COOKIE, token, cookie);
  // Where the owner reached Wolfpack, for "Repair again" on this preview's pages; only ever a link.
  const app = httpOrigin(typeof ctx.query['app'] === 'string' ? ctx.query['app'] : undefined);
  if (app) ctx.cookies.set(PREVIEW_APP_COOKIE, encodeURIComponent(app), cookie);
  // The link's token stays out of the Referer of what the page loads next.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.redirect(pathInsidePreview(typeof ctx.query['path'] === 'string' ? ctx.query['path'] : undefined));
}

async function serveFiles(ctx: Context, previews: PreviewService, projectId: string, access: PreviewAccess): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.set('Allow', 'GET, HEAD');
    throw new AppError('METHOD_NOT_ALLOWED', 'This preview serves files: it answers GET requests only (the project has no server of its own).');
  }
  let path: string;
  try {
    path = decodeURIComponent(ctx.path);
  } catch {
    throw new AppError('NOT_FOUND', 'Not found');
  }
  const navigation = ctx.get('sec-fetch-dest') === 'document' || ctx.get('sec-fetch-mode') === 'navigate' || /\btext\/html\b/.test(ctx.get('accept'));
  reply(ctx, await previews.answer(projectId, access, path, navigation));
}

/**
 * A page of Wolfpack's on the preview's origin: its links into Wolfpack ("Repair again") go to
 * Wolfpack's origin as the owner reached it, and are left out when that is not known.
 */
function page(ctx: Context, content: PreviewPageContent): void {
  const app = httpOrigin(decodeURIComponent(ctx.cookies.get(PREVIEW_APP_COOKIE) ?? ''));
  const { repairHref, ...rest } = content;
  sendPage(ctx, repairHref === undefined || app === undefined ? rest : { ...rest, repairHref: `${app}${repairHref}` });
}

function reply(ctx: Context, answer: PreviewAnswer): void {
  switch (answer.kind) {
    case 'file':
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = answer.contentType;
      ctx.body = typeof answer.content === 'string' ? answer.content : Buffer.from(answer.content);
      return;
    case 'missing':
      ctx.status = 404;
      sendPage(ctx, { title: 'Not found', text: `The project has no file ${answer.path}.` });
      return;
    case 'page':
      ctx.status = answer.status;
      page(ctx, answer);
      return;
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown preview answer ${JSON.stringify(unreachable)}`);
    }
  }
}
