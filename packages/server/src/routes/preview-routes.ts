import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError, isAppError, previewQuery, type PreviewLinkReply } from '@wolfpack/core';
import { isLoopbackHost, pathInsidePreview, PREVIEW_ENTER_PATH, previewOrigin } from '@wolfpack/core/proof';
import { requireUser } from '../middleware/authenticate.js';
import { parseWith } from '../middleware/parse.js';
import type { PreviewService } from '../services/preview/preview-service.js';
import { isUuid } from '../services/projects/project-service.js';
import { redirectOrigin } from './payment-routes.js';
import { sendPage } from './preview-page.js';

export interface PreviewRoutesOptions {
  /** WOLFPACK_PUBLIC_ORIGIN: how browsers reach Wolfpack, when the Host says otherwise. */
  publicOrigin: string | undefined;
  /** WOLFPACK_PREVIEW_HOST: the wildcard preview domain; previews are on `*.localhost` without it. */
  previewHost: string | undefined;
}

/**
 * On Wolfpack's own origin: the signed link to a project's preview (GET /api/projects/{id}/preview,
 * for `wolfpack preview` and the project page), `/preview/{id}` (signed in: straight to that link;
 * "Open Preview" opens it), revoking a project's links, and links of the old form
 * `/preview/{id}/{token}/…`, sent on to the preview's origin. Nothing of a project is served here:
 * the preview origin serves it (preview-site-routes.ts).
 */
export function previewRoutes(previews: PreviewService, options: PreviewRoutesOptions): Router[] {
  const api = new Router({ prefix: '/api/projects' });
  api.get('/:id/preview', async (ctx) => {
    const user = requireUser(ctx);
    const projectId = ctx.params.id!;
    const { version } = parseWith(previewQuery, ctx.query);
    const { token, expiresAt } = await previews.link(user.id, projectId, version);
    const summary = await previews.summary(user.id, projectId, version);
    const origin = originOf(ctx, projectId, options);
    const notice = unreachableNotice(ctx, options);
    ctx.body = {
      url: enterUrl(origin, token, '/', redirectOrigin(ctx, options.publicOrigin)),
      origin,
      expiresAt: expiresAt.toISOString(),
      ...(version === undefined ? {} : { version }),
      ...summary,
      ...(notice ? { notice } : {}),
    } satisfies PreviewLinkReply;
  });
  api.post('/:id/preview/revoke', async (ctx) => {
    await previews.revoke(requireUser(ctx).id, ctx.params.id!);
    ctx.body = { success: true };
  });

  const router = new Router({ prefix: '/preview' });

  router.get('/:id', async (ctx) => {
    const user = ctx.state.user ? requireUser(ctx) : null;
    if (!user) {
      ctx.status = 401;
      sendPage(ctx, { title: 'Sign in to preview', text: 'Sign in to Wolfpack in this browser, then open the preview again.' });
      return;
    }
    const projectId = ctx.params.id!;
    let token: string;
    try {
      ({ token } = await previews.link(user.id, projectId, parseWith(previewQuery, ctx.query).version));
    } catch (error) {
      // A person followed this link: what is wrong with it is a page, not JSON.
      if (!isAppError(error)) throw error;
      ctx.status = error.status;
      sendPage(ctx, { title: 'No preview', text: error.message });
      return;
    }
    const url = enterUrl(originOf(ctx, projectId, options), token, pathInsidePreview(typeof ctx.query['path'] === 'string' ? ctx.query['path'] : undefined), redirectOrigin(ctx, options.publicOrigin));
    const notice = unreachableNotice(ctx, options);
    if (notice) {
      sendPage(ctx, { title: 'Open the preview on the server’s machine', text: notice, links: [['Open the preview here anyway', url]] });
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(url);
  });

  // Links handed out before previews had origins of their own: their token still lets the browser in.
  router.get('/:id/:token{/*path}', (ctx) => {
    if (!isUuid(ctx.params.id!)) throw new AppError('NOT_FOUND', 'There is no such preview.');
    const rest = ctx.params.path ? `/${String(ctx.params.path)}` : '/';
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(enterUrl(originOf(ctx, ctx.params.id!, options), ctx.params.token!, pathInsidePreview(`${rest}${ctx.search}`), redirectOrigin(ctx, options.publicOrigin)));
  });

  return [api, router];
}

function originOf(ctx: Context, projectId: string, options: PreviewRoutesOptions): string {
  const app = new URL(redirectOrigin(ctx, options.publicOrigin));
  return previewOrigin(projectId, { proto: app.protocol.slice(0, -1), base: options.previewHost, requestHost: app.host, localPort: ctx.req.socket.localPort });
}

/** The signed link on the preview's origin; `app`: Wolfpack's origin, for the preview's pages' links back. */
function enterUrl(origin: string, token: string, path: string, app?: string): string {
  const query = new URLSearchParams({ token, ...(path === '/' ? {} : { path }), ...(app ? { app } : {}) });
  return `${origin}${PREVIEW_ENTER_PATH}?${query}`;
}

/**
 * A browser that reached Wolfpack by another name than localhost is on another machine (or uses
 * an address of this one): `*.localhost` would be its own machine, so without a preview domain
 * the preview is out of its reach.
 */
function unreachableNotice(ctx: Context, options: PreviewRoutesOptions): string | undefined {
  if (options.previewHost !== undefined || isLoopbackHost(new URL(redirectOrigin(ctx, options.publicOrigin)).host)) return undefined;
  return 'Previews open on their own origin under localhost, which only a browser on the Wolfpack server’s own machine reaches. To open them from other machines, the server’s operator sets WOLFPACK_PREVIEW_HOST to a wildcard DNS name that points at this server (see the README, "Preview origins").';
}
