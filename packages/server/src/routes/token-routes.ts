import Router from '@koa/router';
import { newApiTokenRequest, type ApiTokensReply, type NewApiTokenReply } from '@wolfpack/core';
import { requireUser, type AuthState } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { TokenService } from '../services/accounts/token-service.js';

/** Named personal access tokens of the signed-in user: Settings → API tokens and `wolfpack tokens`. */
export function tokenRoutes(tokens: TokenService): Router {
  const router = new Router({ prefix: '/api/tokens' });
  router.use(jsonBody('16kb'));

  router.get('/', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = { tokens: await tokens.list(user.id, (ctx.state as AuthState).tokenId) } satisfies ApiTokensReply;
  });

  router.post('/', async (ctx) => {
    const user = requireUser(ctx);
    const input = parseWith(newApiTokenRequest, ctx.request.body);
    const created = await tokens.create(user.id, input.name, input.expiresInDays);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token: created.token, apiToken: created.summary } satisfies NewApiTokenReply;
  });

  router.delete('/:id', async (ctx) => {
    const user = requireUser(ctx);
    await tokens.revokeOwn(ctx.params.id!, user.id);
    ctx.status = 204;
  });

  return router;
}
