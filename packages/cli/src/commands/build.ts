import { resolve } from 'node:path';
import { AppError, enginesReply, streamRequest, type StreamRequestInput } from '@wolfpack/core';
import { readAttachments } from '../attachments.js';
import { explainLoggedOut, loggedInApi, type CommandContext } from '../context.js';
import { followToEnd, type FollowOptions } from '../follow-run.js';
import { wantsColor } from '../output.js';
import { UsageError } from '../usage-error.js';
import { checkOutputDir } from '../write-project.js';

export interface BuildOptions extends FollowOptions {
  /** Times the five stages run. @default 1 */
  cycles?: number | undefined;
  /** Engine keys in the order the stages use them; empty lets the server choose. */
  engines?: string[] | undefined;
  /** Files sent with the idea (at most 5, 5 MB each). */
  attach?: string[] | undefined;
  /** Build on this existing project. */
  continue?: string | undefined;
}

/**
 * `wolfpack build "idea"`: checks the request on this side with core's schemas (so a blank idea
 * or an oversized attachment never reaches the server), shows the demo notice when the server
 * has no real engines, starts the run and follows it to the end (see followToEnd).
 */
export async function build(idea: string, options: BuildOptions, context: CommandContext): Promise<void> {
  const { cwd } = context.io;
  const body: StreamRequestInput = { idea, modelOrder: options.engines ?? [], cycles: options.cycles ?? 1 };
  if (options.continue !== undefined) body.projectId = options.continue;
  // The idea and flags first, so a blank idea is reported before any file is read.
  validate(body);
  if (options.attach !== undefined && options.attach.length > 0) body.attachments = await readAttachments(options.attach, cwd);
  const request = validate(body);

  const out = options.out === undefined ? undefined : resolve(cwd, options.out);
  if (out !== undefined) await checkOutputDir(out, { force: options.force });

  const api = await loggedInApi(context);
  const engines = await api.get('/api/engines', { reply: enginesReply }).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
  // The server would refuse them too, but only after the demo notice: one line is clearer.
  const unknown = request.modelOrder.filter((key) => !engines.engines.some((engine) => engine.key === key));
  if (unknown.length > 0) {
    const names = unknown.map((key) => `"${key}"`).join(', ');
    throw new AppError('BAD_REQUEST', `Unknown engine ${names}. Available engines: ${engines.engines.map((engine) => engine.key).join(', ')}.`);
  }
  if (engines.demo && engines.notice) {
    const { stderr, env } = context.io;
    const note = `Note: ${engines.notice}`;
    stderr.write(`${wantsColor(stderr, env, context.globals.color) && !context.output.json ? `\u001B[33m${note}\u001B[39m` : note}\n`);
  }

  await followToEnd(context, api, { kind: 'start', request }, { ...options, out });
}

function validate(body: StreamRequestInput) {
  const parsed = streamRequest.safeParse(body);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'The request is not valid.');
  return parsed.data;
}

/** `--engines a,b`: keys separated by commas; blanks between commas are dropped. */
export function parseEngineList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((key) => key.trim()).filter((key) => key !== '')];
}
