import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import {
  AppError,
  njinIterateRequest,
  njinLicenseReply,
  njinSnippetQuery,
  njinValidateRequest,
  type CheckoutReply,
  type NjinIterateReply,
  type NjinSnippetReply,
  type NjinValidateReply,
  njinKeyCreatedReply,
  njinKeysReply,
} from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { ResolvedNjinKey } from '../services/njin/njin-keys.js';
import type { NjinService } from '../services/njin/njin-service.js';
import { idempotencyKey, redirectOrigin } from './payment-routes.js';

export interface NjinRoutesDeps {
  njin: NjinService;
  publicOrigin: string | undefined;
}

/**
 * /api/njin: the licence page's calls (signed in, always about the caller), validate and snippet
 * (by key, no login), and the iteration API (Authorization: Bearer njin_…).
 */
export function njinRoutes({ njin, publicOrigin }: NjinRoutesDeps): Router {
  const router = new Router({ prefix: '/api/njin' });

  // userId is accepted and ignored: the spec's client sends a fixed id, and only the caller's own
  // licence is ever answered.
  router.get('/license', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { license: await njin.license(user.id) } satisfies z.input<typeof njinLicenseReply>;
  });

  router.post('/validate', jsonBody(), async (ctx) => {
    const { apiKey } = parseWith(njinValidateRequest, ctx.request.body);
    ctx.body = (await njin.validate(apiKey)) satisfies NjinValidateReply;
  });

  router.get('/snippet', async (ctx) => {
    const { apiKey } = parseWith(njinSnippetQuery, { apiKey: first(ctx.query.apiKey) });
    ctx.body = njin.snippet(apiKey, redirectOrigin(ctx, publicOrigin)) satisfies NjinSnippetReply;
  });

  router.post('/subscribe', async (ctx) => {
    const user = requireUser(ctx);
    const checkoutUrl = await njin.subscribe(user.id, redirectOrigin(ctx, publicOrigin), idempotencyKey(ctx.get('Idempotency-Key')));
    ctx.body = { checkoutUrl } satisfies CheckoutReply;
  });

  router.post('/cancel', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { license: await njin.cancel(user.id) } satisfies z.input<typeof njinLicenseReply>;
  });

  router.post('/keys', async (ctx) => {
    const user = requireUser(ctx);
    ctx.status = 201;
    ctx.body = (await njin.createKey(user.id)) satisfies z.input<typeof njinKeyCreatedReply>;
  });

  router.get('/keys', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { keys: await njin.listKeys(user.id) } satisfies z.input<typeof njinKeysReply>;
  });

  router.delete('/keys/:id', async (ctx) => {
    await njin.revokeKey(requireUser(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  // Authorised before the body is read: a bad key, no licence or a spent rate limit costs nothing.
  router.post('/iterate', async (ctx, next) => {
    ctx.state.njinKey = await njin.authorizeIteration(bearerNjinKey(ctx));
    await next();
  }, jsonBody(ITERATE_BODY_LIMIT), async (ctx) => {
    const request = parseWith(njinIterateRequest, ctx.request.body);
    const aborted = new AbortController();
    ctx.res.once('close', () => { if (!ctx.res.writableFinished) aborted.abort(new AppError('BAD_REQUEST', 'The client went away.')); });
    ctx.body = (await njin.iterate(ctx.state.njinKey as ResolvedNjinKey, request, aborted.signal)) satisfies NjinIterateReply;
  });

  return router;
}

/** 2 MB of files (njinIterateRequest's cap) as JSON, with room for escaping. */
const ITERATE_BODY_LIMIT = '5mb';

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The njin key of `Authorization: Bearer njin_…`, or a 401 that says what to send. */
export function bearerNjinKey(ctx: Context): string {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
  if (!match) throw new AppError('UNAUTHORIZED', 'Send your njin API key as Authorization: Bearer njin_… (create one on the njin page).');
  return match[1]!;
}
