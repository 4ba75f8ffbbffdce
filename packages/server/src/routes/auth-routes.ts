import Router from '@koa/router';
import { createTokenRequest, credentials, registerRequest, type AuthReply, type CreateTokenReply, type MeReply } from '@wolfpack/core';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import type { AuthService } from '../services/accounts/auth-service.js';
import { LookupThrottle } from '../services/accounts/lookup-throttle.js';
import type { TokenService } from '../services/accounts/token-service.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  tokens: TokenService;
  /** Accounts one client address may create per hour (WOLFPACK_SIGNUPS_PER_HOUR). */
  signupsPerHour: number;
}

/** POST register/login/logout, GET me, and personal API tokens for the CLI. */
export function authRoutes({ auth, tokens, signupsPerHour }: AuthRoutesDeps): Router {
  const router = new Router({ prefix: '/api/auth' });
  // Each account starts with free credit: one address making dozens is farming, not joining.
  const signups = new LookupThrottle({
    limit: signupsPerHour,
    windowMs: 3_600_000,
    refusal: (seconds) => `Too many accounts were created from your address. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
  });
  router.use(jsonBody('16kb'));

  router.post('/register', async (ctx) => {
    const input = parseWith(registerRequest, ctx.request.body);
    // Counted once the form is valid, so a typo does not use up an attempt; referrers are paid
    // later, once the account shows it is a real user (ReferralService.settle).
    signups.take(ctx.ip);
    const user = await auth.register(input);
    await startSession(ctx, user.id);
    ctx.status = 201;
    ctx.body = { success: true, error: '', user: { username: user.username, plan: user.plan } } satisfies AuthReply;
  });

  router.post('/login', async (ctx) => {
    const user = await auth.verifyCredentials(parseWith(credentials, ctx.request.body));
    await startSession(ctx, user.id);
    ctx.body = { success: true, error: '', user: { username: user.username, plan: user.plan } } satisfies AuthReply;
  });

  router.post('/logout', async (ctx) => {
    const state = ctx.state as AuthState;
    if (state.tokenId && state.user) await tokens.revoke(state.tokenId, state.user.id);
    // Setting the session to null destroys the stored row, not just the cookie.
    ctx.session = null;
    ctx.body = { success: true };
  });

  router.get('/me', (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { user: { username: user.username, plan: user.plan } } satisfies MeReply;
  });

  router.post('/tokens', async (ctx) => {
    const input = parseWith(createTokenRequest, ctx.request.body);
    const user = await auth.verifyCredentials(input);
    const created = await tokens.create(user.id, input.name);
    ctx.status = 201;
    ctx.body = { ...created, user: { username: user.username, plan: user.plan } } satisfies CreateTokenReply;
  });

  router.delete('/tokens/current', async (ctx) => {
    const user = requireUser(ctx);
    const { tokenId } = ctx.state as AuthState;
    if (tokenId) await tokens.revoke(tokenId, user.id);
    ctx.status = 204;
  });

  return router;
}

/** A fresh session key at every sign-in, so a key planted before login is worthless after it. */
async function startSession(ctx: import('koa').Context, userId: string): Promise<void> {
  if (!ctx.session) throw new Error('session middleware missing');
  ctx.session.userId = userId;
  ctx.session.lastSeen = Date.now();
  ctx.session.createdAt = Date.now();
  await ctx.session.regenerate();
}
