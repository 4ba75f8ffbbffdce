import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError, type PreviewLinkReply } from '@wolfpack/core';
import { sanitizePath } from '@wolfpack/core/pipeline';
import { requireUser } from '../middleware/authenticate.js';
import type { PreviewAnswer, PreviewService } from '../services/preview-service.js';
import { redirectOrigin } from './payment-routes.js';

/**
 * Generated code is untrusted. `sandbox` without allow-same-origin gives every preview page an
 * opaque origin: its scripts cannot read Wolfpack's cookies or storage, and its requests to /api
 * are cross-site (no session cookie, no readable answer).
 */
export const PREVIEW_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';
/** Wolfpack's own pages under a preview link run no script at all. */
const PAGE_CSP = `${PREVIEW_CSP}; default-src 'none'; style-src 'unsafe-inline'`;

/**
 * /preview/{id} (signed in) redirects to a signed link under which the files are served;
 * GET /api/projects/{id}/preview gives that link to API clients (`wolfpack preview`).
 */
export function previewRoutes(previews: PreviewService, publicOrigin: string | undefined): Router[] {
  const api = new Router({ prefix: '/api/projects' });
  api.get('/:id/preview', async (ctx) => {
    const user = requireUser(ctx);
    const { path, expiresAt } = await previews.link(user.id, ctx.params.id!);
    ctx.body = { url: `${redirectOrigin(ctx, publicOrigin)}${path}`, path, expiresAt: expiresAt.toISOString() } satisfies PreviewLinkReply;
  });

  const router = new Router({ prefix: '/preview' });

  router.get('/:id', async (ctx) => {
    const user = ctx.state.user ? requireUser(ctx) : null;
    if (!user) {
      ctx.status = 401;
      sendPage(ctx, { title: 'Sign in to preview', text: 'Sign in to Wolfpack in this browser, then open the preview again.' });
      return;
    }
    ctx.redirect((await previews.link(user.id, ctx.params.id!)).path);
  });

  router.get('/:id/:token/{*path}', async (ctx) => {
    const raw = ctx.params.path ? String(ctx.params.path) : '';
    const wanted = raw === '' || raw.endsWith('/') ? `${raw}index.html` : raw;
    const safe = sanitizePath(wanted);
    if (!safe.ok) throw new AppError('NOT_FOUND', 'Not found');
    reply(ctx, await previews.answer(ctx.params.id!, ctx.params.token!, safe.path));
  });

  return [api, router];
}

function reply(ctx: Context, answer: PreviewAnswer): void {
  ctx.set('Cache-Control', 'private, no-store');
  switch (answer.kind) {
    case 'file':
      ctx.set('Content-Security-Policy', PREVIEW_CSP);
      // The pages run in an opaque origin, so their module scripts (a Vite app's) and fetches of
      // their own files are cross-origin requests, which CORS must allow. The link's signature is
      // what guards the files; the header gives nothing a holder of the link does not have.
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.type = answer.contentType;
      ctx.body = typeof answer.content === 'string' ? answer.content : Buffer.from(answer.content);
      return;
    case 'missing':
      ctx.status = 404;
      sendPage(ctx, { title: 'Not found', text: `The project has no file ${answer.path}.` });
      return;
    case 'page':
      ctx.status = answer.status;
      sendPage(ctx, answer);
      return;
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown preview answer ${JSON.stringify(unreachable)}`);
    }
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of Wolfpack's own: text only, every generated value escaped, no script. */
export function sendPage(ctx: Context, page: Omit<Extract<PreviewAnswer, { kind: 'page' }>, 'kind' | 'status'>): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.type = 'text/html; charset=utf-8';
  const refresh = page.refreshSeconds ? `<meta http-equiv="refresh" content="${page.refreshSeconds}">` : '';
  const problem = page.problem
    ? `<h2>${escape(page.problem.line ? `${page.problem.path}:${page.problem.line}` : page.problem.path)}</h2><p data-testid="preview-problem">${escape(page.problem.message)}</p>${page.command ? `<p>While running <code>${escape(page.command)}</code></p>` : ''}${page.problem.output ? `<pre>${escape(page.problem.output)}</pre>` : ''}`
    : '';
  const repair = page.repairHref ? `<p><a href="${escape(page.repairHref)}" data-testid="preview-repair">Repair again</a> (opens the project in Wolfpack, where Repair again sends this problem to an engine)</p>` : '';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escape(page.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}h2{font-size:1rem;font-family:ui-monospace,monospace}pre{white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:.375rem;font-size:.8rem}</style></head><body><h1>${escape(page.title)}</h1><p>${escape(page.text)}</p>${problem}${repair}</body></html>`;
}
