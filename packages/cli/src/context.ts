import { AppError, isAppError } from '@wolfpack/core';
import type { Command } from 'commander';
import { ApiClient, TokenRefused } from './api.js';
import { configPath, findLogin, readConfig, type CliConfig } from './config.js';
import type { CliIo } from './io.js';
import { createOutput, wantsColor, type Output } from './output.js';
import { resolveServer } from './server-url.js';
import type { SpinnerOptions } from './ui/spinner.js';

/** The options every command accepts, declared once on the program. */
export interface GlobalOptions {
  server?: string | undefined;
  json?: boolean | undefined;
  /** false for `--no-color`. */
  color?: boolean | undefined;
}

/** Everything a command needs besides its own options. */
export interface CommandContext {
  io: CliIo;
  output: Output;
  configPath: string;
  globals: GlobalOptions;
}

export function createContext(io: CliIo, globals: GlobalOptions): CommandContext {
  return { io, output: createOutput(io, globals), configPath: configPath(io.env), globals };
}

/** Builds the context from an action's command, whose global options may sit before or after it. */
export function contextFor(io: CliIo, command: Command): CommandContext {
  return createContext(io, command.optsWithGlobals<GlobalOptions>());
}

/** `--server`, WOLFPACK_URL, the last server logged in to, or the default local one. */
export function serverFor(context: CommandContext, config: CliConfig): string {
  return resolveServer({ flag: context.globals.server, env: context.io.env['WOLFPACK_URL'], last: config.lastServer });
}

export function spinnerOptions(context: CommandContext): SpinnerOptions {
  const { io, output, globals } = context;
  return { enabled: output.live, color: wantsColor(io.stderr, io.env, globals.color), stream: io.stderr };
}

/** The environment variable that signs every command in with a personal access token. */
export const TOKEN_VARIABLE = 'WOLFPACK_TOKEN';

/**
 * An API client signed in with WOLFPACK_TOKEN, else with the stored token for the server; fails
 * with a hint when neither is there. With WOLFPACK_TOKEN and a server given (--server or
 * WOLFPACK_URL), no config file is read or needed.
 */
export async function loggedInApi(context: CommandContext): Promise<ApiClient> {
  const envToken = context.io.env[TOKEN_VARIABLE]?.trim();
  const given = context.globals.server ?? context.io.env['WOLFPACK_URL'];
  if (envToken) {
    const server = given ? resolveServer({ flag: context.globals.server, env: context.io.env['WOLFPACK_URL'] }) : serverFor(context, await readConfig(context.configPath));
    return new ApiClient({ server, token: envToken, tokenSource: TOKEN_VARIABLE });
  }
  const config = await readConfig(context.configPath);
  const server = serverFor(context, config);
  const stored = findLogin(config, server);
  if (stored === undefined) throw new AppError('UNAUTHORIZED', `Not logged in to ${server}. Run \`wolfpack login\` first.`);
  return new ApiClient({ server, token: stored.token });
}

/** A 401 for a stored token means it expired or was revoked: say what to do about it. */
export function explainLoggedOut(error: unknown, server: string): unknown {
  if (error instanceof TokenRefused) return error;
  if (isAppError(error) && error.code === 'UNAUTHORIZED') {
    return new AppError('UNAUTHORIZED', `Your login to ${server} has expired or was revoked. Run \`wolfpack login\` again.`, undefined, { cause: error });
  }
  return error;
}
