import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '@wolfpack/core';
import { sanitizePath } from '@wolfpack/core/pipeline';
import { requireUser } from '../middleware/authenticate.js';
import type { PreviewService } from '../services/preview-service.js';

/**
 * Generated code is untrusted. `sandbox` without allow-same-origin gives every preview page an
 * opaque origin: its scripts cannot read Wolfpack's cookies or storage, and its requests to /api
 * are cross-site (no session cookie, no readable answer).
 */
const PREVIEW_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/** /preview/{id} (signed in) redirects to a signed link under which the files are served. */
export function previewRoutes(previews: PreviewService): Router {
  const router = new Router({ prefix: '/preview' });

  router.get('/:id', async (ctx) => {
    const user = ctx.state.user ? requireUser(ctx) : null;
    if (!user) {
      ctx.status = 401;
      sendPage(ctx, 'Sign in to preview', 'Sign in to Wolfpack in this browser, then open the preview again.');
      return;
    }
    ctx.redirect(await previews.link(user.id, ctx.params.id!));
  });

  router.get('/:id/:token/{*path}', async (ctx) => {
    const raw = ctx.params.path ? String(ctx.params.path) : '';
    const wanted = raw === '' || raw.endsWith('/') ? `${raw}index.html` : raw;
    const safe = sanitizePath(wanted);
    if (!safe.ok) throw new AppError('NOT_FOUND', 'Not found');
    const file = await previews.file(ctx.params.id!, ctx.params.token!, safe.path);
    ctx.set('Content-Security-Policy', PREVIEW_CSP);
    ctx.set('Cache-Control', 'private, no-store');
    if (!file) {
      ctx.status = 404;
      if (safe.path === 'index.html') {
        sendPage(ctx, 'Nothing to preview', 'This project has no index.html, so there is no page to show. Open the project in Wolfpack to view its files or download them as a ZIP.');
      } else {
        sendPage(ctx, 'Not found', `The project has no file ${safe.path}.`);
      }
      return;
    }
    ctx.type = file.contentType;
    ctx.body = file.content;
  });

  return router;
}

function sendPage(ctx: Context, title: string, text: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  ctx.set('Content-Security-Policy', `${PREVIEW_CSP}; default-src 'none'; style-src 'unsafe-inline'`);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}</style></head><body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
}
