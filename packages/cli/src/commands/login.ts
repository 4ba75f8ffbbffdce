import { hostname } from 'node:os';
import { AppError, createTokenReply, type CreateTokenRequest } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { findLogin, readConfig, withLogin, writeConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { readFirstLine } from '../read-stdin.js';
import type { Credentials } from '../ui/login-prompt.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

export interface LoginOptions {
  /** Skip the username question; required with `passwordStdin`. */
  username?: string | undefined;
  /** Read the password from the first line of stdin instead of asking (for scripts). */
  passwordStdin?: boolean | undefined;
}

/**
 * `wolfpack login`: trades a username and password for an API token (POST /api/auth/tokens) and
 * keeps the token in the config file for this server. The password is only ever sent to the server;
 * the token is never printed.
 */
export async function login(options: LoginOptions, context: CommandContext): Promise<void> {
  const server = serverFor(context, await readConfig(context.configPath));
  const credentials = await readCredentials(options, context, server);

  const api = new ApiClient({ server });
  const body: CreateTokenRequest = { ...credentials, name: tokenName() };
  const reply = await withSpinner(
    `Logging in to ${server}`,
    () => api.post('/api/auth/tokens', { body, reply: createTokenReply }),
    spinnerOptions(context),
  );

  // Read again: another wolfpack may have changed the file while the person was typing.
  const config = await readConfig(context.configPath);
  const previous = findLogin(config, server);
  await writeConfig(context.configPath, withLogin(config, { server, token: reply.token, username: reply.user.username }));
  if (previous !== undefined && previous.token !== reply.token) await revokeQuietly(server, previous.token);

  const { username, plan } = reply.user;
  context.output.result(`Logged in to ${server} as ${username}`, { server, username, plan });
}

async function readCredentials(options: LoginOptions, context: CommandContext, server: string): Promise<Credentials> {
  const { stdin, stdout, stderr } = context.io;
  const username = options.username?.trim();
  if (options.username !== undefined && !username) throw new UsageError('The username given with --username is empty.');

  if (options.passwordStdin) {
    if (username === undefined) throw new UsageError('--password-stdin needs --username too.');
    if (stdin.isTTY) {
      throw new UsageError('--password-stdin reads a password piped into wolfpack, but stdin is a terminal. Leave it out to be asked instead.');
    }
    const password = await readFirstLine(stdin);
    if (password === '') throw new UsageError('No password on stdin. Pipe it in, for example: printf "%s\\n" "$PASSWORD" | wolfpack login --username NAME --password-stdin');
    return { username, password };
  }

  // The prompt draws on whichever of stdout and stderr is a terminal, so `--json | jq` still works.
  const screen = stdout.isTTY ? stdout : stderr.isTTY ? stderr : undefined;
  if (!stdin.isTTY || screen === undefined) {
    throw new UsageError('Cannot ask for a password without a terminal. Use `wolfpack login --username NAME --password-stdin` and pipe the password in.');
  }
  const { promptForCredentials } = await import('../ui/login-prompt.js');
  const answer = await promptForCredentials({ stdin, stdout: screen, server, username, color: context.output.color });
  if (answer === null) throw new AppError('BAD_REQUEST', 'Login cancelled.');
  return answer;
}

/** Names the token after this machine, so the web account page can tell the person's tokens apart. */
function tokenName(): string {
  return `wolfpack-cli@${hostname()}`.slice(0, 100);
}

/** Logging in again replaces the token; the old one should not stay valid on the server. */
async function revokeQuietly(server: string, token: string): Promise<void> {
  try {
    await new ApiClient({ server, token, timeoutMs: 5_000 }).delete('/api/auth/tokens/current');
  } catch {
    // The old token may already be revoked or expired; nothing for the person to do.
  }
}
