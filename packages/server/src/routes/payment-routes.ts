import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError, topUpRequest, type CheckoutReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { PaymentService } from '../services/billing/payment-service.js';

/** Stripe events are a few kilobytes; this is generous and still bounded. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Buying credits (POST /api/billing/top-up) and Stripe's webhook (POST /api/billing/webhook).
 * The webhook is authenticated by its signature over the raw bytes, so it reads the body itself
 * instead of going through the JSON parser; it carries no cookie and no Origin, which the
 * cross-site check lets through (it only refuses browsers' cross-site writes).
 */
export function paymentRoutes(payments: PaymentService, publicOrigin: string | undefined): Router {
  const router = new Router({ prefix: '/api/billing' });

  router.post('/top-up', jsonBody('4kb'), async (ctx) => {
    const user = requireUser(ctx);
    const { amountDollars } = parseWith(topUpRequest, ctx.request.body);
    const requestKey = idempotencyKey(ctx.get('Idempotency-Key'));
    const checkoutUrl = await payments.startTopUp(user.id, amountDollars, redirectOrigin(ctx, publicOrigin), requestKey);
    ctx.body = { checkoutUrl } satisfies CheckoutReply;
  });

  router.post('/webhook', async (ctx) => {
    const rawBody = await readRawBody(ctx, WEBHOOK_BODY_LIMIT);
    await payments.handleWebhook(rawBody, ctx.get('Stripe-Signature') || undefined);
    ctx.body = { received: true };
  });

  return router;
}

/**
 * Where Stripe sends the browser back: the configured public origin, else this server as the
 * request reached it. Not the Origin header (Koa 3's ctx.origin), which a non-browser client sets
 * to anything.
 */
export function redirectOrigin(ctx: Pick<Context, 'protocol' | 'host'>, publicOrigin: string | undefined): string {
  return publicOrigin ? new URL(publicOrigin).origin : `${ctx.protocol}://${ctx.host}`;
}

/** An optional client Idempotency-Key: a retried click then gets the same checkout back. */
export function idempotencyKey(header: string): string | undefined {
  if (header === '') return undefined;
  if (!/^[\x21-\x7e]{1,100}$/.test(header)) {
    throw new AppError('BAD_REQUEST', 'The Idempotency-Key header must be 1 to 100 visible ASCII characters.');
  }
  return header;
}

/** The exact bytes of the request body, at most `limit` of them. */
async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  // A JSON parser that ran first keeps the text it read; its UTF-8 bytes are the bytes received.
  const parsed = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof parsed === 'string') return Buffer.from(parsed, 'utf8');
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large. Send less data at once.');
  if (Number(ctx.get('Content-Length') || 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
