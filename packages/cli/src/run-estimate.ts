import { estimateBasisText, estimateLine, runEstimateReply, type RunEstimateReply, type StreamRequest } from '@wolfpack/core';
import type { ApiClient } from './api.js';
import type { CommandContext } from './context.js';

/**
 * Before a build starts: what it would probably cost, from POST /api/wolfpack/estimate,
 * as one line on stderr ("Estimated cost: $0.12–$0.40 (from …)."); answered for `--json` to carry
 * as a field of the run's first line (stdout holds one object per event and nothing else). An
 * estimate is advice: when the server gives none (one from before estimates), the build goes on
 * without it, and a body it refuses is refused again, with its reason, when the run starts.
 */
export async function showEstimate(context: CommandContext, api: ApiClient, request: StreamRequest): Promise<RunEstimateReply | undefined> {
  const estimate = await api.post('/api/wolfpack/estimate', { body: request, reply: runEstimateReply }).catch(() => undefined);
  // On free engines there is no range to explain.
  if (estimate !== undefined) context.io.stderr.write(`${estimateLine(estimate)}${estimate.highCents > 0 ? ` (${estimateBasisText(estimate)})` : ''}.\n`);
  return estimate;
}
