import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  AppError,
  createListingRequest,
  listingsQuery,
  updateListingRequest,
  listingReply,
  listingsReply,
  type ListingDraftReply,
  type PurchaseReply,
} from '@wolfpack/core';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { ListingService } from '../services/community/listing-service.js';
import { idempotencyKey, redirectOrigin } from './payment-routes.js';

export interface ListingRoutesDeps {
  listings: ListingService;
  publicOrigin: string | undefined;
}

type ListingReplyJson = z.input<typeof listingReply>;

/** A 1 MB cover as base64 in a data URL, plus the other fields. */
const LISTING_BODY_LIMIT = '2mb';

/**
 * The Showcase: browsing needs no login (a signed-in viewer also learns what they own and bought),
 * listing, editing and taking down one's own projects, covers, and purchases.
 */
export function listingRoutes({ listings, publicOrigin }: ListingRoutesDeps): Router {
  const router = new Router({ prefix: '/api' });
  const viewer = (ctx: Context) => (ctx.state as AuthState).user?.id;

  router.get('/listings', async (ctx) => {
    const query = parseQuery(listingsQuery, ctx.query);
    ctx.body = { listings: await listings.list(query, viewer(ctx)) } satisfies z.input<typeof listingsReply>;
  });

  // Before /listings/:id, which would otherwise take "draft" for an id.
  router.get('/listings/draft', async (ctx) => {
    const user = requireUser(ctx);
    const { projectId } = parseQuery(z.object({ projectId: z.string({ error: 'projectId is required' }).min(1, 'projectId is required') }), ctx.query);
    ctx.body = { draft: await listings.draft(user.id, projectId) } satisfies ListingDraftReply;
  });

  router.get('/listings/:id', async (ctx) => {
    ctx.body = { listing: await listings.get(ctx.params.id!, viewer(ctx)) } satisfies ListingReplyJson;
  });

  router.get('/listings/:id/cover', async (ctx) => {
    const cover = await listings.cover(ctx.params.id!);
    // An uploaded image is served as the type its bytes were sniffed as, never as markup: no
    // sniffing, no scripts or anything else even if a browser opens it as a document.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    ctx.set('Content-Disposition', 'inline');
    ctx.set('Cache-Control', ctx.query.v === String(cover.version) ? 'public, max-age=86400' : 'no-cache');
    ctx.type = cover.type;
    ctx.body = cover.body;
  });

  router.post('/listings', jsonBody(LISTING_BODY_LIMIT), async (ctx) => {
    const user = requireUser(ctx);
    const input = parseWith(createListingRequest, ctx.request.body);
    ctx.status = 201;
    ctx.body = { listing: await listings.create(user.id, input) } satisfies ListingReplyJson;
  });

  router.put('/listings/:id', jsonBody(LISTING_BODY_LIMIT), async (ctx) => {
    const user = requireUser(ctx);
    const input = parseWith(updateListingRequest, ctx.request.body);
    ctx.body = { listing: await listings.update(user.id, ctx.params.id!, input) } satisfies ListingReplyJson;
  });

  router.delete('/listings/:id', async (ctx) => {
    await listings.remove(requireUser(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/listings/:id/purchase', jsonBody('4kb'), async (ctx) => {
    const user = requireUser(ctx);
    const requestKey = idempotencyKey(ctx.get('Idempotency-Key'));
    ctx.body = (await listings.purchases.purchase(user.id, ctx.params.id!, redirectOrigin(ctx, publicOrigin), requestKey)) satisfies PurchaseReply;
  });

  return router;
}

/**
 * A query string through its schema; the 400 names the parameter even when the schema's own
 * message does not (an enum's "Invalid option").
 */
function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const message = name && !issue.message.includes(name) ? `${name}: ${issue.message}` : issue.message;
    return { path: name, message };
  });
  throw new AppError('BAD_REQUEST', issues[0]?.message ?? 'The query string is not valid.', { issues });
}
