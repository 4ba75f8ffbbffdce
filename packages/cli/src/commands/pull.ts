import { resolve } from 'node:path';
import { AppError, projectDetailReply, type ProjectDetailReply } from '@wolfpack/core';
import type { ApiClient } from '../api.js';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { plural } from '../format.js';
import { explained, resolveProjectId } from '../resources.js';
import { withSpinner } from '../ui/spinner.js';
import { versionFiles } from './versions.js';
import { checkOutputDir, writeProject, type WriteProjectOptions, type WriteProjectResult } from '../write-project.js';

export interface PullOptions {
  /** The folder to write the files into (created when missing). */
  out: string;
  /** Write into a folder that already has files in it. */
  force?: boolean | undefined;
  /** Write this version's files. @default the current version */
  version?: number | undefined;
}

/**
 * `wolfpack pull ID --out DIR`: writes the project's files into a folder with the same
 * path-checked writer as `build --out` (no absolute paths, `..`, `.git` or links out of the
 * folder). A refused path is reported and exits 1; the other files are still written.
 * `--version N` writes that version's files (GET /versions/N). `--json`: `{projectId, version, dir,
 * files: [...]}` (version: absent for the current files).
 */
export async function pull(id: string, options: PullOptions, context: CommandContext): Promise<void> {
  const dir = resolve(context.io.cwd, options.out);
  // Before anything is fetched: a full folder is the caller's mistake, whatever the project.
  await checkOutputDir(dir, { force: options.force });
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  if (options.version !== undefined) {
    const { version } = options;
    const { files } = await withSpinner(`Fetching version ${version}`, () => versionFiles(api, id, projectId, version), spinnerOptions(context));
    const result = checkWritten(await writeProject(dir, files, { force: options.force }));
    context.output.result(`Wrote ${plural(result.written.length, 'file')} of version ${version} of project ${projectId} to ${result.dir}.`, {
      projectId,
      version,
      dir: result.dir,
      files: result.written,
    });
    return;
  }
  const { project, result } = await pullProject(api, projectId, dir, options, context);
  context.output.result(`Wrote ${plural(result.written.length, 'file')} of project ${project.id} to ${result.dir}.`, {
    projectId: project.id,
    dir: result.dir,
    files: result.written,
  });
}

/**
 * Fetches a project and writes its files into `dir`, as `wolfpack pull` does; `showcase get`
 * reuses it for the copy a listing gave. A refused path is reported as an AppError (exit 1)
 * after the other files are written.
 */
export async function pullProject(
  api: ApiClient,
  projectId: string,
  dir: string,
  options: WriteProjectOptions,
  context: CommandContext,
): Promise<{ project: ProjectDetailReply['project']; result: WriteProjectResult }> {
  const { project } = await withSpinner(
    'Fetching the project',
    () => explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}`, { reply: projectDetailReply })),
    spinnerOptions(context),
  );
  const result = checkWritten(await writeProject(dir, project.fsIndex, { force: options.force }));
  return { project, result };
}

/** The result of a write, or an AppError (exit 1) naming the paths that were refused. */
function checkWritten(result: WriteProjectResult): WriteProjectResult {
  const { refused } = result;
  if (refused.length === 0) return result;
  const reasons = refused.slice(0, 3).map((r) => r.reason.replace(/\.$/, '')).join('; ');
  const more = refused.length > 3 ? `; and ${refused.length - 3} more` : '';
  throw new AppError('BAD_GATEWAY', `Did not write ${plural(refused.length, 'file')} of the project: ${reasons}${more}. The other files are in ${result.dir}.`);
}
