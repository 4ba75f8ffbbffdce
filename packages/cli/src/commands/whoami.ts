import { AppError, isAppError, meReply } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { findLogin, readConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';

/** `wolfpack whoami` has no options of its own. */
export type WhoamiOptions = Record<string, never>;

/** `wolfpack whoami`: asks the server who the stored token belongs to (GET /api/auth/me). */
export async function whoami(_options: WhoamiOptions, context: CommandContext): Promise<void> {
  const config = await readConfig(context.configPath);
  const server = serverFor(context, config);
  const stored = findLogin(config, server);
  if (stored === undefined) throw new AppError('UNAUTHORIZED', `Not logged in to ${server}. Run \`wolfpack login\` first.`);

  const api = new ApiClient({ server, token: stored.token });
  let reply;
  try {
    reply = await withSpinner(`Asking ${server}`, () => api.get('/api/auth/me', { reply: meReply }), spinnerOptions(context));
  } catch (error) {
    if (isAppError(error) && error.code === 'UNAUTHORIZED') {
      throw new AppError('UNAUTHORIZED', `Your login to ${server} has expired or was revoked. Run \`wolfpack login\` again.`, undefined, {
        cause: error,
      });
    }
    throw error;
  }

  const { username, plan } = reply.user;
  context.output.result(`${username} (${plan}) on ${server}`, { server, username, plan });
}
