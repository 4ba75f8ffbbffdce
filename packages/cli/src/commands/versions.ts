import { AppError, isAppError, versionChangeReply, versionDiffReply, versionFilesReply, versionsReply, type VersionFilesReply } from '@wolfpack/core';
import type { ApiClient } from '../api.js';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { explained, resolveProjectId } from '../resources.js';
import { withSpinner } from '../ui/spinner.js';
import { diffStat, diffText, noDifferences, restoreSentence, versionsTable, type Styler } from '../version-format.js';

export interface DiffOptions {
  /** The changed files with their line counts instead of the patches. */
  stat?: boolean | undefined;
}

/**
 * `wolfpack versions ID`: the project's versions, newest first (number, when, what made it,
 * Proven Code's verdict, files, +added ~changed -removed). `--json`: the server's versionsReply.
 */
export async function versionsList(id: string, _options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const reply = await listVersions(api, projectId);
  if (context.output.json) return context.output.result('', reply);
  context.io.stdout.write(`${versionsTable(reply, styler(context)).join('\n')}\n`);
}

/**
 * `wolfpack diff ID [FROM] [TO]`: the unified diff from FROM (default: the version before TO; 0:
 * nothing) to TO (default: the current version). Exits 0 whether or not they differ.
 * `--json`: the server's versionDiffReply.
 */
export async function diff(id: string, from: number | undefined, to: number | undefined, options: DiffOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const target = to ?? (await listVersions(api, projectId)).current;
  const query = from === undefined ? '' : `?against=${from}`;
  const reply = await versionCall(api, id, target, () =>
    api.get(`/api/projects/${encodeURIComponent(projectId)}/versions/${target}/diff${query}`, { reply: versionDiffReply }),
  );
  if (context.output.json) return context.output.result('', reply);
  const { stdout } = context.io;
  if (reply.files.length === 0) stdout.write(`${noDifferences(reply)}\n`);
  else if (options.stat) stdout.write(`${diffStat(reply, styler(context)).join('\n')}\n`);
  else stdout.write(diffText(reply, styler(context)));
}

/**
 * `wolfpack restore ID VERSION`: the version's files become the project's, as a new version.
 * Prints "Restored version 3 as version 8 (Proven Code: passed)."; `--json`: versionChangeReply.
 */
export async function restore(id: string, version: number, _options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const reply = await withSpinner(
    `Restoring version ${version}`,
    () => versionCall(api, id, version, () => api.post(`/api/projects/${encodeURIComponent(projectId)}/versions/${version}/restore`, { body: {}, reply: versionChangeReply })),
    spinnerOptions(context),
  );
  context.output.result(restoreSentence(version, reply), reply);
}

/** One version's files (GET /versions/N), for `pull --version`. */
export function versionFiles(api: ApiClient, given: string, projectId: string, version: number): Promise<VersionFilesReply> {
  return versionCall(api, given, version, () => api.get(`/api/projects/${encodeURIComponent(projectId)}/versions/${version}`, { reply: versionFilesReply }));
}

function listVersions(api: ApiClient, projectId: string) {
  return explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}/versions`, { reply: versionsReply }));
}

/**
 * A call about one version of a project. A 404 that is not about the project itself means the
 * version does not exist: said with the number and where the versions are listed.
 */
export async function versionCall<T>(api: ApiClient, given: string, version: number, call: () => Promise<T>): Promise<T> {
  try {
    return await explained(api, call);
  } catch (error) {
    throw noSuchVersion(error, given, version);
  }
}

/**
 * The sentence for a version the project does not have: the server's ("This project has no
 * version 9: its versions are 1 to 3.") with where they are listed, or ours if it said less.
 */
export function noSuchVersion(error: unknown, given: string, version: number): unknown {
  if (!isAppError(error) || error.code !== 'NOT_FOUND' || /^project not found/i.test(error.message)) return error;
  const hint = `\`wolfpack versions ${given.trim()}\` lists them.`;
  const said = /version/i.test(error.message) ? error.message.trim().replace(/([^.])$/, '$1.') : `This project has no version ${version}.`;
  return new AppError('NOT_FOUND', `${said} ${hint}`, undefined, { cause: error });
}

function styler(context: CommandContext): Styler {
  return (format, text) => context.output.style(format, text);
}
