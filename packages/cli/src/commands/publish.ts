import { AppError, GITHUB_TOKEN_HEADER, isAppError, publishReply, publishRequest, type PublishRequest } from '@wolfpack/core';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { explained, resolveProjectId } from '../resources.js';
import { withSpinner } from '../ui/spinner.js';
import { schemaUsageError } from '../usage-error.js';
import { versionCall } from './versions.js';

/** Publishing uploads every file to GitHub through the server; big projects take a while. */
const PUBLISH_TIMEOUT_MS = 5 * 60_000;

export interface PublishOptions {
  /** The repository's name on the token's account. */
  repo: string;
  /** Create the repository as private. */
  private?: boolean | undefined;
  /** The repository's description (at most 350 characters). */
  description?: string | undefined;
  /** Publish this version. @default the current version */
  version?: number | undefined;
  /** Push every version up to it as a commit of its own, oldest first (a new repository only). */
  history?: boolean | undefined;
}

/**
 * `wolfpack publish ID --repo NAME`: publishes the project to GitHub as one commit (a new
 * repository, or a commit on top when this project was published there before). The token is
 * `GITHUB_TOKEN`, sent in the X-GitHub-Token header and never stored; without it the server uses
 * the token saved in Settings. Prints the repository URL alone on stdout, so a CI script can
 * capture it; `--json` prints `{repoUrl, replitUrl}`. `--version N` publishes that version's files;
 * `--history` pushes every version up to it as a commit, its source as the message.
 */
export async function publish(id: string, options: PublishOptions, context: CommandContext): Promise<void> {
  const request = checkRequest(options);
  const token = context.io.env['GITHUB_TOKEN']?.trim();
  const headers: Record<string, string> = token ? { [GITHUB_TOKEN_HEADER]: token } : {};
  const api = await loggedInApi(context);
  if (token && !isSafeToSend(api.server)) {
    context.io.stderr.write(`Warning: GITHUB_TOKEN goes to ${api.server} over plain http, which others on the network can read. Use https for a server on another machine.\n`);
  }
  const projectId = await resolveProjectId(api, id);
  const { version } = options;
  const call = () =>
    explained(api, () => api.post(`/api/projects/${encodeURIComponent(projectId)}/publish-to-github`, { body: request, headers, reply: publishReply, timeoutMs: PUBLISH_TIMEOUT_MS }));
  const reply = await withSpinner(
    `Publishing ${version === undefined ? '' : `version ${version} `}to GitHub as ${request.repoName}`,
    () => (version === undefined ? call() : versionCall(api, id, version, call)),
    spinnerOptions(context),
  ).catch((error: unknown) => {
    throw token ? error : noTokenHint(error);
  });
  context.output.result(reply.repoUrl, { repoUrl: reply.repoUrl, replitUrl: reply.replitUrl });
}

/** The name (GitHub's rules, core's repoName schema), description and version, checked before anything is sent. */
function checkRequest(options: PublishOptions): PublishRequest {
  const parsed = publishRequest.safeParse({
    repoName: options.repo,
    description: options.description ?? '',
    isPrivate: options.private === true,
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.history ? { history: true } : {}),
  });
  if (!parsed.success) throw schemaUsageError(parsed.error, 'That repository name cannot be used.');
  return parsed.data;
}

/** The server's "no token saved" names its header; from the CLI, GITHUB_TOKEN is the way. */
function noTokenHint(error: unknown): unknown {
  if (isAppError(error) && error.code === 'BAD_REQUEST' && error.message.includes(GITHUB_TOKEN_HEADER)) {
    return new AppError('BAD_REQUEST', 'No GitHub token: set GITHUB_TOKEN to a token with the repo scope, or save one in Settings on the Wolfpack server.', undefined, {
      cause: error,
    });
  }
  return error;
}

/** https, or http to this machine. */
export function isSafeToSend(server: string): boolean {
  const url = new URL(server);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}
