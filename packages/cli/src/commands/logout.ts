import { isAppError } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { findLogin, readConfig, withoutLogin, writeConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';

/** `wolfpack logout [--everywhere]`; the server comes from the global `--server`. */
export interface LogoutOptions {
  /** Sign out everywhere: every browser session, API token and preview link of the account. */
  everywhere?: boolean;
}

/**
 * `wolfpack logout`: revokes the stored token on the server (DELETE /api/auth/tokens/current) and
 * forgets it. Logging out when not logged in succeeds, so scripts can call it unconditionally.
 * If the server cannot be reached the token is kept, so the person can retry rather than leave a
 * live token behind.
 */
export async function logout(options: LogoutOptions, context: CommandContext): Promise<void> {
  const config = await readConfig(context.configPath);
  const server = serverFor(context, config);
  const stored = findLogin(config, server);
  if (stored === undefined) {
    context.output.result(`Not logged in to ${server}`, { server, loggedOut: false });
    return;
  }

  const api = new ApiClient({ server, token: stored.token });
  await withSpinner(
    options.everywhere ? `Signing out everywhere on ${server}` : `Logging out of ${server}`,
    async () => {
      try {
        if (options.everywhere) await api.post('/api/account/sign-out-everywhere', { body: {} });
        else await api.delete('/api/auth/tokens/current');
      } catch (error) {
        // 401: the token was already revoked or expired, which is what logout wants anyway.
        if (!(isAppError(error) && error.code === 'UNAUTHORIZED')) throw error;
      }
    },
    spinnerOptions(context),
  );

  await writeConfig(context.configPath, withoutLogin(await readConfig(context.configPath), server));
  if (options.everywhere) context.output.result(`Signed out everywhere on ${server}: every browser, every API token and every preview link of the account`, { server, loggedOut: true, everywhere: true });
  else context.output.result(`Logged out of ${server}`, { server, loggedOut: true });
}
