import { AppError, enginesReply, type EnginesReply } from '@wolfpack/core';
import type { ApiClient } from './api.js';
import { explainLoggedOut, type CommandContext } from './context.js';
import { wantsColor } from './output.js';

/**
 * Before a run starts (`build`): refuses engine keys the server does not have, naming the ones it
 * has (the server would refuse them too, in less helpful words), and shows on stderr the demo
 * notice when the server has no real engines and the proof notice when it cannot run Proven Code.
 */
export async function checkEngines(context: CommandContext, api: ApiClient, modelOrder: readonly string[]): Promise<void> {
  const engines = await knownEngines(api, modelOrder);
  demoNotice(context, engines);
  proofNotice(context, engines);
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
  if (engines.demo && engines.notice) note(context, engines.notice);
}

/**
 * Once, before the run: why its verdict will be "not proven" (or its pages not loaded)
 * and the command that fixes it, when the server cannot run Proven Code. Servers that do not report
 * their Proven Code capability do not say, and nothing is printed.
 */
export function proofNotice(context: CommandContext, engines: EnginesReply): void {
  if (engines.proof?.notice) note(context, engines.proof.notice);
}

function note(context: CommandContext, sentence: string): void {
  const { stderr, env } = context.io;
  const line = `Note: ${sentence}`;
  stderr.write(`${wantsColor(stderr, env, context.globals.color) && !context.output.json ? `\u001B[33m${line}\u001B[39m` : line}\n`);
}
