import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError, publishCapsuleRequest, shareCapsuleRequest, SHARE_METHODS, type capsulesReply } from '@wolfpack/core';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { CapsuleService, CapsuleViewer } from '../services/community/capsule-service.js';

export interface CapsuleRoutesDeps {
  capsules: CapsuleService;
}

export const DISCOVER_PAGE_SIZE = 24;
export const DISCOVER_MAX_PAGE_SIZE = 50;

const firstValue = (value: unknown): unknown => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() === '' ? undefined : first;
};

/** ?limit of the discovery lists. */
const discoverQuery = z.object({
  limit: z.preprocess(
    firstValue,
    z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(DISCOVER_MAX_PAGE_SIZE, `limit must be at most ${DISCOVER_MAX_PAGE_SIZE}`)
      .default(DISCOVER_PAGE_SIZE),
  ),
});

type CapsulesJson = z.input<typeof capsulesReply>;

/** /api/capsules: PackCast capsules (spec companion §7). Parse, call, reply. */
export function capsuleRoutes({ capsules }: CapsuleRoutesDeps): Router {
  const router = new Router({ prefix: '/api/capsules' });

  router.get('/user/my-capsules', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { capsules: await capsules.mine(user.id) } satisfies CapsulesJson;
  });

  router.get('/discover/trending', async (ctx) => {
    const { limit } = parseWith(discoverQuery, ctx.query);
    ctx.body = { capsules: await capsules.trending(limit) } satisfies CapsulesJson;
  });

  router.get('/discover/latest', async (ctx) => {
    const { limit } = parseWith(discoverQuery, ctx.query);
    ctx.body = { capsules: await capsules.latest(limit) } satisfies CapsulesJson;
  });

  router.post('/:id/publish', jsonBody(), async (ctx) => {
    const user = requireUser(ctx);
    const { isPublic } = parseWith(publishCapsuleRequest, ctx.request.body);
    ctx.body = { capsule: await capsules.publish(user.id, ctx.params.id!, isPublic) };
  });

  router.post('/:id/share', jsonBody(), async (ctx) => {
    const request = parseShare(ctx.request.body);
    ctx.body = await capsules.share(viewerOf(ctx), ctx.params.id!, request);
  });

  router.get('/:slug', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await capsules.detail(ctx.params.slug!, viewerOf(ctx));
  });

  return router;
}

/** Share bodies name the field at fault, so a client sending "email" learns what is accepted. */
function parseShare(body: unknown) {
  const result = shareCapsuleRequest.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  const message = field === 'shareMethod'
    ? `shareMethod must be one of ${SHARE_METHODS.join(', ')}.`
    : `${field}: ${issue.message}`;
  throw new AppError('BAD_REQUEST', message, { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
}

function viewerOf(ctx: Context): CapsuleViewer {
  return { userId: (ctx.state as AuthState).user?.id, ip: ctx.ip };
}
