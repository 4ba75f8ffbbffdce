import type { Context, Next } from 'koa';
import type { WolfpackSession } from '../koa-session-types.js';

/**
 * Saves the session (koa-session with `autoCommit: false`) while the response's headers can
 * still carry its cookie. koa-session's own commit runs after the whole middleware chain, which
 * for an event stream is after the stream ended: the headers went out long before, so a session
 * changed by this request (the idle deadline pushed back once a minute) failed with
 * ERR_HTTP_HEADERS_SENT and the push was lost. Routes that send headers themselves call
 * {@link commitSessionNow} first; everything else is committed here, after the route.
 */
export async function commitSession(ctx: Context, next: Next): Promise<void> {
  // Any handle will do: each commits the request's current session state. Taken now because a
  // route that signs out sets ctx.session to null, and that removal must be committed too.
  const handle = ctx.session;
  try {
    await next();
  } finally {
    await commitSessionNow(ctx, handle);
  }
}

/** Saves the session and sets its cookie now, unless the headers are already out (then it was saved before they were). */
export async function commitSessionNow(ctx: Context, handle: WolfpackSession | null = ctx.session): Promise<void> {
  if (ctx.headerSent) return;
  await (ctx.session ?? handle)?.manuallyCommit();
}
