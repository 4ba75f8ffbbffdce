import { pipeline } from 'node:stream';
import type { Middleware } from 'koa';
import { preflightHeaders } from '@wolfpack/core/proof';
import type { PreviewService } from '../services/preview-service.js';
import { PREVIEW_CSP, sendPage } from './preview-routes.js';

/** `/preview/{id}/{token}` and what follows it, as the browser sent it (still percent-encoded). */
const LINK = /^\/preview\/([^/]+)\/([^/]+)(\/.*)?$/;

/**
 * The signed link of an HTTP server's preview, for every method: the request goes to the app
 * running in the sandbox, and its answer comes back under the preview's CSP (an opaque origin).
 *
 * Mounted in app.ts ahead of the session, the cross-site check and authentication: what it serves
 * is the sandboxed app, never Wolfpack, so it reads no session (the link's signature is the only
 * credential), and the app's own forms and fetches, which come from an opaque origin and so are
 * always "cross-site", must reach the app. Links of other previews fall through to previewRoutes.
 */
export function previewProxy(previews: PreviewService): Middleware {
  return async function proxyPreview(ctx, next) {
    const match = LINK.exec(ctx.path);
    if (!match) return next();
    const [id, token, rest] = [match[1]!, match[2]!, match[3]];
    const preview = await previews.server(id, token);
    if (preview === undefined) return next();
    ctx.set('Cache-Control', 'private, no-store');
    if (rest === undefined) {
      // The app's relative links resolve against the link's folder.
      ctx.redirect(`${ctx.path}/${ctx.search}`);
      return;
    }
    if (preview.kind === 'page') {
      ctx.status = preview.status;
      sendPage(ctx, preview);
      return;
    }
    const preflight = preflightHeaders(ctx.method, ctx.headers);
    if (preflight) {
      ctx.status = 204;
      ctx.set(preflight);
      return;
    }
    const answer = await previews.forward(preview, {
      method: ctx.method,
      path: `${rest}${ctx.search}`,
      headers: ctx.headers,
      body: ctx.req,
      mount: { prefix: `/preview/${id}/${token}`, host: ctx.host, proto: ctx.protocol },
    });
    if (answer.kind === 'page') {
      ctx.status = answer.status;
      sendPage(ctx, answer);
      return;
    }
    // Streamed as it comes, by hand: Koa would buffer nothing either, but would log every answer
    // a bound cut short as an application error.
    ctx.respond = false;
    const res = ctx.res;
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    // Whatever the app says, its pages run in the preview's opaque origin.
    res.setHeader('Content-Security-Policy', PREVIEW_CSP);
    res.setHeader('Access-Control-Allow-Origin', '*');
    pipeline(answer.body, res, () => undefined);
  };
}
