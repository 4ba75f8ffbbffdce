import { resolve } from 'node:path';
import { AppError, streamRequest, type StreamRequest, type StreamRequestInput } from '@wolfpack/core';
import { readAttachments } from '../attachments.js';
import { loggedInApi, type CommandContext } from '../context.js';
import { checkEngines } from '../engine-check.js';
import { enhancePrompt } from '../enhance-prompt.js';
import { showEstimate } from '../run-estimate.js';
import { followToEnd, type FollowOptions } from '../follow-run.js';
import { schemaUsageError } from '../usage-error.js';
import { checkOutputDir } from '../write-project.js';
import { enhanceDisplay, enhanceRequestFor } from './enhance.js';

export interface BuildOptions extends FollowOptions {
  /** Times the five stages run. @default 1 */
  cycles?: number | undefined;
  /** Engine keys in the order the stages use them; empty lets the server choose. */
  engines?: string[] | undefined;
  /** Files sent with the idea (at most 5, 5 MB each). */
  attach?: string[] | undefined;
  /** Build on this existing project. */
  continue?: string | undefined;
  /** Enhance the idea first (2 passes of 4 engines, with the same attachments) and build from the result. */
  enhance?: boolean | undefined;
  /** `--max-cost CENTS`: the most the run may spend; no engine call is given more than what is left of it. */
  maxCost?: number | undefined;
}

/**
 * `wolfpack build "idea"`: checks the request on this side with core's schemas (so a blank idea
 * or an oversized attachment never reaches the server), shows the demo notice when the server
 * has no real engines, with `--enhance` enhances the idea first (the same view as `wolfpack
 * enhance`, on stderr), shows what the run would probably cost (see showEstimate), starts the run
 * and follows it to the end (see followToEnd), with what it cost so far as it goes.
 */
export async function build(idea: string, options: BuildOptions, context: CommandContext): Promise<void> {
  const { cwd } = context.io;
  const body: StreamRequestInput = { idea, modelOrder: options.engines ?? [], cycles: options.cycles ?? 1 };
  if (options.continue !== undefined) body.projectId = options.continue;
  if (options.maxCost !== undefined) body.maxCostCents = options.maxCost;
  // The idea and flags first, so a blank idea is reported before any file is read.
  validate(body);
  if (options.attach !== undefined && options.attach.length > 0) body.attachments = await readAttachments(options.attach, cwd);
  let request = validate(body);

  const out = options.out === undefined ? undefined : resolve(cwd, options.out);
  if (out !== undefined) await checkOutputDir(out, { force: options.force });

  const api = await loggedInApi(context);
  await checkEngines(context, api, request.modelOrder);

  if (options.enhance) {
    const enhancement = await enhanceRequestFor(request.idea, undefined, cwd, request.attachments ?? []);
    // Under --json stdout carries the run's events only: the enhancement shows as lines on stderr.
    const display = context.output.json ? 'plain' : enhanceDisplay(context);
    const enhanced = await enhancePrompt(context, api, enhancement, { display });
    if (enhanced !== request.idea) context.io.stderr.write(`Building from the enhanced prompt:\n${enhanced}\n\n`);
    request = enhancedRequest(request, enhanced);
  }

  const estimate = await showEstimate(context, api, request);
  await followToEnd(context, api, { kind: 'start', request }, { ...options, out, estimate });
}

/** The run's request with the enhanced prompt as its idea (which links the enhancement to the project). */
function enhancedRequest(request: StreamRequest, idea: string): StreamRequest {
  const parsed = streamRequest.safeParse({ ...request, idea });
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', `The enhanced prompt cannot be built from: ${parsed.error.issues[0]?.message ?? 'it is not valid'}. Run \`wolfpack enhance\`, edit the result, and build from that.`);
  }
  return parsed.data;
}

function validate(body: StreamRequestInput) {
  const parsed = streamRequest.safeParse(body);
  if (!parsed.success) throw schemaUsageError(parsed.error, 'The request is not valid.');
  return parsed.data;
}

export { parseEngineList } from '../command-options.js';
