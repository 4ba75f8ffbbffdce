import { adminNjinLicenceReply, AppError, isAppError, parseLicenceUntil, type AdminNjinLicence, type AdminNjinLicenceReply } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { readConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { readFirstLine } from '../read-stdin.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

export interface AdminSecretOptions {
  /** Read the admin secret from the first line of stdin (for scripts). */
  secretStdin?: boolean | undefined;
  /** Only to refuse it: `--secret VALUE` is accepted by the parser so that the refusal says why. */
  secret?: string | undefined;
}

export interface GrantLicenceOptions extends AdminSecretOptions {
  /** A day (YYYY-MM-DD: through its end, UTC) or an ISO 8601 time with its zone. */
  until: string;
}

/** Where an operator finds the secret; the server says the same at start-up. */
const WHERE_THE_SECRET_IS = 'It is WOLFPACK_ADMIN_SECRET on the server, or else the "adminSecret" field of the server\'s DATA_DIR/secrets.json.';
const UNTIL_HELP = '--until takes a day such as 2027-01-31 (the licence then runs through that day, UTC) or a time such as 2027-01-31T18:00:00Z.';

/**
 * `wolfpack admin grant-licence USER --until DATE`: the operator gives USER an njin licence that
 * runs until DATE (PUT /api/admin/njin-licences/{USER}), for servers that take no payments.
 * Granting again sets a new end. Authorised by the admin secret, never by a login.
 */
export async function grantLicence(username: string, options: GrantLicenceOptions, context: CommandContext): Promise<void> {
  const user = checkUsername(username);
  if (parseLicenceUntil(options.until) === null) throw new UsageError(`"${options.until}" is not a date. ${UNTIL_HELP}`);
  const reply = await adminCall(context, options, `Granting ${user} an njin licence`, (api, headers) =>
    api.put(licencePath(user), { body: { until: options.until.trim() }, headers, reply: adminNjinLicenceReply }),
  );
  context.output.result(`${reply.licence.username} has an njin licence until ${readable(reply.licence.expiresAt)}.`, reply);
}

/**
 * `wolfpack admin revoke-licence USER`: ends USER's granted licence now (DELETE
 * /api/admin/njin-licences/{USER}). A licence that was not active is left as it is, and said so.
 */
export async function revokeLicence(username: string, options: AdminSecretOptions, context: CommandContext): Promise<void> {
  const user = checkUsername(username);
  const reply = await adminCall(context, options, `Revoking ${user}'s njin licence`, (api, headers) => api.delete(licencePath(user), { headers, reply: adminNjinLicenceReply }));
  const { licence } = reply;
  context.output.result(reply.changed ? `${licence.username}'s njin licence is revoked: njin refuses their keys from now on.` : `${licence.username} had no active njin licence; nothing changed.`, reply);
}

function checkUsername(username: string): string {
  const user = username.trim();
  if (user === '') throw new UsageError('Name the user: wolfpack admin grant-licence USER --until DATE');
  return user;
}

const licencePath = (username: string) => `/api/admin/njin-licences/${encodeURIComponent(username)}`;

/** "2027-01-31 23:59:59 UTC" */
function readable(expiresAt: AdminNjinLicence['expiresAt']): string {
  return expiresAt === null ? 'no end' : `${expiresAt.slice(0, 10)} ${expiresAt.slice(11, 19)} UTC`;
}

/** One admin request with the secret in X-Admin-Secret; a refused secret says where the right one is. */
async function adminCall(
  context: CommandContext,
  options: AdminSecretOptions,
  label: string,
  call: (api: ApiClient, headers: Record<string, string>) => Promise<AdminNjinLicenceReply>,
): Promise<AdminNjinLicenceReply> {
  const server = serverFor(context, await readConfig(context.configPath));
  const secret = await adminSecret(options, context, server);
  try {
    return await withSpinner(label, () => call(new ApiClient({ server }), { 'x-admin-secret': secret }), spinnerOptions(context));
  } catch (error) {
    if (isAppError(error) && error.code === 'UNAUTHORIZED') {
      throw new AppError('UNAUTHORIZED', `The server at ${server} refused the admin secret. ${WHERE_THE_SECRET_IS}`, undefined, { cause: error });
    }
    throw error;
  }
}

/**
 * The admin secret from the first line of stdin (--secret-stdin), else WOLFPACK_ADMIN_SECRET, else
 * asked for on a terminal. Never from an argument: other users of the machine can read a
 * process's arguments (ps), and shells keep them in their history.
 */
async function adminSecret(options: AdminSecretOptions, context: CommandContext, server: string): Promise<string> {
  const { stdin, stdout, stderr, env } = context.io;
  // Never echoed back: it is the secret, or close to it.
  if (options.secret !== undefined) {
    throw new UsageError('wolfpack admin takes no secret as an argument, where other users of this machine can read it (ps). Set WOLFPACK_ADMIN_SECRET, pipe it in with --secret-stdin, or leave both out to be asked.');
  }
  if (options.secretStdin) {
    if (stdin.isTTY) throw new UsageError('--secret-stdin reads a secret piped into wolfpack, but stdin is a terminal. Leave it out to be asked instead.');
    const secret = await readFirstLine(stdin);
    if (secret === '') throw new UsageError('No admin secret on stdin. Pipe it in, for example: printf "%s\\n" "$SECRET" | wolfpack admin … --secret-stdin');
    return secret;
  }
  const fromEnv = env['WOLFPACK_ADMIN_SECRET'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const screen = stdout.isTTY ? stdout : stderr.isTTY ? stderr : undefined;
  if (!stdin.isTTY || screen === undefined) {
    throw new UsageError(`The admin secret is needed: set WOLFPACK_ADMIN_SECRET, or pipe it in with --secret-stdin. ${WHERE_THE_SECRET_IS}`);
  }
  const { promptForSecret } = await import('../ui/secret-prompt.js');
  const answer = await promptForSecret({ stdin, stdout: screen, title: `Admin secret for ${server}`, label: 'Admin secret', color: context.output.color });
  if (answer === null) throw new AppError('BAD_REQUEST', 'Cancelled.');
  return answer;
}
