import Router from '@koa/router';
import { createTokenRequest, credentials, registerRequest, type AuthReply, type CreateTokenReply, type MeReply } from '@wolfpack/core';
import { jsonBody, parseWith } from '../middleware/parse.js';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import type { AuthService } from '../services/auth-service.js';
import type { ReferralService } from '../services/referral-service.js';
import type { TokenService } from '../services/token-service.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  tokens: TokenService;
  referrals: Pick<ReferralService, 'onSignup'>;
}

/** POST register/login/logout, GET me, and personal API tokens for the CLI. */
export function authRoutes({ auth, tokens, referrals }: AuthRoutesDeps): Router {
  const router = new Router({ prefix: '/api/auth' });
  router.use(jsonBody('16kb'));

  router.post('/register', async (ctx) => {
    const user = await auth.register(parseWith(registerRequest, ctx.request.body));
    // The referrers' sign-up rewards; logged, never an error for the new user.
    await referrals.onSignup(user.id);
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
