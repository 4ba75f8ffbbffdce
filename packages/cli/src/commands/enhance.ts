import { enhancementRequest, type Attachment, type EnhancementRequest, type EnhancementRequestInput } from '@wolfpack/core';
import { readAttachments } from '../attachments.js';
import { loggedInApi, type CommandContext } from '../context.js';
import { enhancePrompt, type EnhanceDisplay } from '../enhance-prompt.js';
import { schemaUsageError } from '../usage-error.js';

export interface EnhanceOptions {
  /** Files sent with the prompt (at most 5, 5 MB each), read the way `build --attach` reads them. */
  attach?: string[] | undefined;
}

/**
 * `wolfpack enhance "prompt"`: refines the prompt in 2 passes of 4 engines on the server and
 * prints the result on stdout, alone, so `PROMPT=$(wolfpack enhance "…")` captures it; the
 * progress goes to stderr (a live grid in a terminal, plain lines elsewhere). With `--json`,
 * stdout carries one JSON object per event instead, ending with the `complete` event.
 */
export async function enhance(prompt: string, options: EnhanceOptions, context: CommandContext): Promise<void> {
  const request = await enhanceRequestFor(prompt, options.attach, context.io.cwd);
  const api = await loggedInApi(context);
  const display = enhanceDisplay(context);
  const result = await enhancePrompt(context, api, request, { display });
  // A blank line between the grid and the prompt, on stderr so stdout stays the prompt alone.
  if (display === 'live') context.io.stderr.write('\n');
  if (display !== 'json') context.io.stdout.write(`${result}\n`);
}

/** How this command's output mode shows an enhancement. */
export function enhanceDisplay(context: CommandContext): EnhanceDisplay {
  return context.output.json ? 'json' : context.output.live ? 'live' : 'plain';
}

/** Checks the prompt first (a blank one is refused before any file is read), then reads the attachments. */
export async function enhanceRequestFor(prompt: string, attach: readonly string[] | undefined, cwd: string, attachments?: Attachment[]): Promise<EnhancementRequest> {
  const body: EnhancementRequestInput = { prompt };
  validate(body);
  if (attachments !== undefined) body.attachments = attachments;
  else if (attach !== undefined && attach.length > 0) body.attachments = await readAttachments(attach, cwd);
  return validate(body);
}

function validate(body: EnhancementRequestInput): EnhancementRequest {
  const parsed = enhancementRequest.safeParse(body);
  if (!parsed.success) throw schemaUsageError(parsed.error, 'The prompt is not valid.');
  return parsed.data;
}
