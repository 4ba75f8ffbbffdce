import Router from '@koa/router';
import { GITHUB_TOKEN_HEADER, publishRequest, saveGithubTokenRequest, type GithubSettingsReply, type PublishReply } from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { GithubPublisher } from '../services/projects/github-publisher.js';
import type { SettingsService } from '../services/accounts/settings-service.js';

/** Publishing to GitHub, and the GitHub token in Settings. */
export function publishRoutes(github: GithubPublisher, settings: SettingsService): Router {
  const router = new Router({ prefix: '/api' });
  router.use(jsonBody('16kb'));

  router.post('/projects/:id/publish-to-github', async (ctx) => {
    const user = requireUser(ctx);
    const request = parseWith(publishRequest, ctx.request.body);
    const header = ctx.get(GITHUB_TOKEN_HEADER);
    ctx.body = (await github.publish(user.id, ctx.params.id!, request, async () => header || settings.githubToken(user.id))) satisfies PublishReply;
  });

  router.get('/settings/github', async (ctx) => {
    ctx.body = (await settings.githubStatus(requireUser(ctx).id)) satisfies GithubSettingsReply;
  });

  router.put('/settings/github', async (ctx) => {
    const user = requireUser(ctx);
    const { token } = parseWith(saveGithubTokenRequest, ctx.request.body);
    ctx.body = (await settings.saveGithubToken(user.id, token)) satisfies GithubSettingsReply;
  });

  router.delete('/settings/github', async (ctx) => {
    await settings.removeGithubToken(requireUser(ctx).id);
    ctx.body = { connected: false, login: null } satisfies GithubSettingsReply;
  });

  return router;
}
