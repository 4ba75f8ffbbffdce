import Router from '@koa/router';
import {
  startExperimentRequest,
  submitCostsRequest,
  type ExperimentReply,
  type ExperimentsReply,
  type StartExperimentReply,
} from '@wolfpack/core';
import { requireUser } from '../middleware/authenticate.js';
import { jsonBody, parseWith } from '../middleware/parse.js';
import type { ExperimentService } from '../services/community/experiment-service.js';

export interface ExperimentRoutesDeps {
  experiments: ExperimentService;
}

/** /api/experiments (companion §7): the cost-comparison lab, for the signed-in user's own experiments. */
export function experimentRoutes({ experiments }: ExperimentRoutesDeps): Router {
  const router = new Router({ prefix: '/api/experiments' });

  router.get('/', async (ctx) => {
    ctx.body = { experiments: await experiments.list(requireUser(ctx)) } satisfies ExperimentsReply;
  });

  router.post('/start', jsonBody(), async (ctx) => {
    const user = requireUser(ctx);
    const experiment = await experiments.start(user, parseWith(startExperimentRequest, ctx.request.body));
    ctx.status = 201;
    ctx.body = { experimentId: experiment.id, experiment } satisfies StartExperimentReply;
  });

  router.get('/:id', async (ctx) => {
    ctx.body = { experiment: await experiments.get(requireUser(ctx), ctx.params.id!) } satisfies ExperimentReply;
  });

  router.post('/:id/replit-start', jsonBody(), async (ctx) => {
    ctx.body = { experiment: await experiments.replitStart(requireUser(ctx), ctx.params.id!) } satisfies ExperimentReply;
  });

  router.post('/:id/replit-complete', jsonBody(), async (ctx) => {
    ctx.body = { experiment: await experiments.replitComplete(requireUser(ctx), ctx.params.id!) } satisfies ExperimentReply;
  });

  router.post('/:id/submit-costs', jsonBody(), async (ctx) => {
    const user = requireUser(ctx);
    const costs = parseWith(submitCostsRequest, ctx.request.body);
    ctx.body = { experiment: await experiments.submitCosts(user, ctx.params.id!, costs) } satisfies ExperimentReply;
  });

  return router;
}
