import { meReply } from '@wolfpack/core';
import { explainLoggedOut, loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';

/** `wolfpack whoami` has no options of its own. */
export type WhoamiOptions = Record<string, never>;

/** `wolfpack whoami`: asks the server who the token (WOLFPACK_TOKEN, else the stored one) belongs to (GET /api/auth/me). */
export async function whoami(_options: WhoamiOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const { server } = api;
  let reply;
  try {
    reply = await withSpinner(`Asking ${server}`, () => api.get('/api/auth/me', { reply: meReply }), spinnerOptions(context));
  } catch (error) {
    throw explainLoggedOut(error, server);
  }

  const { username, plan } = reply.user;
  context.output.result(`${username} (${plan}) on ${server}`, { server, username, plan });
}
