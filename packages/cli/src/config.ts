import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AppError } from '@wolfpack/core';
import { z } from 'zod';

/**
 * The CLI's config file: one login per server URL, so a person can be logged in to a local
 * server and a hosted one at once, plus the server used last, which is the default for the next
 * command. It holds API tokens, so it is created 0600 in a 0700 directory.
 */
const storedLogin = z.looseObject({ server: z.string(), token: z.string(), username: z.string() });
export type StoredLogin = z.infer<typeof storedLogin>;

// Loose: fields a newer wolfpack wrote survive a round trip through an older one.
const cliConfig = z.looseObject({
  /** The server of the most recent `wolfpack login`; kept after logout so the next login goes there too. */
  lastServer: z.string().optional(),
  logins: z.array(storedLogin).default([]),
});
export type CliConfig = z.infer<typeof cliConfig>;

/** `$WOLFPACK_CONFIG`, else `$XDG_CONFIG_HOME/wolfpack/config.json`, else `~/.config/wolfpack/config.json`. */
export function configPath(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const explicit = env['WOLFPACK_CONFIG'];
  if (explicit) return explicit;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg && xdg.startsWith('/') ? xdg : join(home, '.config');
  return join(base, 'wolfpack', 'config.json');
}

/** Reads the config file; a missing file is an empty config. */
export async function readConfig(path: string): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { logins: [] };
    throw new AppError('INTERNAL', `Cannot read the Wolfpack config file at ${path}: ${(error as Error).message}.`, undefined, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AppError('BAD_REQUEST', `The Wolfpack config file at ${path} is not valid JSON. Fix it or delete it and log in again.`, undefined, {
      cause: error,
    });
  }
  const parsed = cliConfig.safeParse(data);
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', `The Wolfpack config file at ${path} is not in the expected shape. Fix it or delete it and log in again.`);
  }
  return parsed.data;
}

/**
 * Replaces the config file in one step: write a 0600 temporary file beside it, then rename it
 * over the old one, so a crash never leaves half a file and the token is never world-readable,
 * not even for a moment.
 */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.config-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(config, null, 2)}\n`, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    // The umask may have taken bits away but never adds any; chmod makes the mode exact anyway.
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export function findLogin(config: CliConfig, server: string): StoredLogin | undefined {
  return config.logins.find((login) => login.server === server);
}

/** Adds or replaces the login for `login.server` and makes it the last server. */
export function withLogin(config: CliConfig, login: StoredLogin): CliConfig {
  return {
    ...config,
    lastServer: login.server,
    logins: [...config.logins.filter((entry) => entry.server !== login.server), login],
  };
}

/** Drops the login for `server`; other servers' logins and the last server stay. */
export function withoutLogin(config: CliConfig, server: string): CliConfig {
  return { ...config, logins: config.logins.filter((entry) => entry.server !== server) };
}
