import { isAppError } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { findLogin, readConfig, withoutLogin, writeConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';

/** `wolfpack logout` has no options of its own; the server comes from the global `--server`. */
export type LogoutOptions = Record<string, never>;

/**
 * `wolfpack logout`: revokes the stored token on the server (DELETE /api/auth/tokens/current) and
 * forgets it. Logging out when not logged in succeeds, so scripts can call it unconditionally.
 * If the server cannot be reached the token is kept, so the person can retry rather than leave a
 * live token behind.
 */
export async function logout(_options: LogoutOptions, context: CommandContext): Promise<void> {
  const config = await readConfig(context.configPath);
  const server = serverFor(context, config);
  const stored = findLogin(config, server);
  if (stored === undefined) {
    context.output.result(`Not logged in to ${server}`, { server, loggedOut: false });
    return;
  }

  const api = new ApiClient({ server, token: stored.token });
  await withSpinner(
    `Logging out of ${server}`,
    async () => {
      try {
        await api.delete('/api/auth/tokens/current');
      } catch (error) {
        // 401: the token was already revoked or expired, which is what logout wants anyway.
        if (!(isAppError(error) && error.code === 'UNAUTHORIZED')) throw error;
      }
    },
    spinnerOptions(context),
  );

  await writeConfig(context.configPath, withoutLogin(await readConfig(context.configPath), server));
  context.output.result(`Logged out of ${server}`, { server, loggedOut: true });
}
