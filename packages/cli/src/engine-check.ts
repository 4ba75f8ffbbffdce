import { AppError, enginesReply, type EnginesReply } from '@wolfpack/core';
import type { ApiClient } from './api.js';
import { explainLoggedOut, type CommandContext } from './context.js';
import { wantsColor } from './output.js';

/**
 * Before a run starts (`build`, `repair`): refuses engine keys the server does not have, naming
 * the ones it has (the server would refuse them too, in less helpful words), and shows the demo
 * notice on stderr when the server has no real engines.
 */
export async function checkEngines(context: CommandContext, api: ApiClient, modelOrder: readonly string[]): Promise<void> {
  demoNotice(context, await knownEngines(api, modelOrder));
}

/** The server's engines, once every key in `modelOrder` is among them (see {@link checkEngines}). */
export async function knownEngines(api: ApiClient, modelOrder: readonly string[]): Promise<EnginesReply> {
  const engines = await api.get('/api/engines', { reply: enginesReply }).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
  const unknown = modelOrder.filter((key) => !engines.engines.some((engine) => engine.key === key));
  if (unknown.length > 0) {
    const names = unknown.map((key) => `"${key}"`).join(', ');
    throw new AppError('BAD_REQUEST', `Unknown engine ${names}. Available engines: ${engines.engines.map((engine) => engine.key).join(', ')}.`);
  }
  return engines;
}

/** The demo notice on stderr, when the server has no real engines. */
export function demoNotice(context: CommandContext, engines: EnginesReply): void {
  if (engines.demo && engines.notice) {
    const { stderr, env } = context.io;
    const note = `Note: ${engines.notice}`;
    stderr.write(`${wantsColor(stderr, env, context.globals.color) && !context.output.json ? `\u001B[33m${note}\u001B[39m` : note}\n`);
  }
}
