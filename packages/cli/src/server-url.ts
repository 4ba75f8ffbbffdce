import { UsageError } from './usage-error.js';

/** Where the CLI looks when nothing says otherwise: `wolfpack serve` with its defaults. */
export const DEFAULT_SERVER = 'http://127.0.0.1:3000';

/**
 * One spelling per server, so `http://LOCALHOST:3000/` and `http://localhost:3000` share a login.
 * A bare `host:port` gets `http://` in front; query and fragment are dropped; a path prefix stays
 * (a server mounted under a reverse-proxy path).
 */
export function normalizeServerUrl(input: string): string {
  const trimmed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`"${input}" is not a valid server URL. Use one like ${DEFAULT_SERVER}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`"${input}" is not an http or https URL. Use one like ${DEFAULT_SERVER}.`);
  }
  if (url.username || url.password) {
    throw new UsageError('Put no user name or password in the server URL. Run `wolfpack login` instead.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

export interface ServerChoice {
  /** `--server`. */
  flag?: string | undefined;
  /** WOLFPACK_URL. */
  env?: string | undefined;
  /** The last server logged in to, from the config file. */
  last?: string | undefined;
}

/** `--server`, then WOLFPACK_URL, then the last server logged in to, then {@link DEFAULT_SERVER}. */
export function resolveServer(choice: ServerChoice): string {
  const picked = [choice.flag, choice.env, choice.last].find((value) => value !== undefined && value.trim() !== '');
  return normalizeServerUrl(picked ?? DEFAULT_SERVER);
}
