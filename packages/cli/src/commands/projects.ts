import { projectDetailReply } from '@wolfpack/core';
import { checkCanConfirm, confirmDeletion } from '../confirm.js';
import { loggedInApi, type CommandContext } from '../context.js';
import { formatBytes, formatDate, formatTable, plural, truncate } from '../format.js';
import { explained, findFolderOrRoot, findProject, listFolders, listProjects, projectTitle, resolveProjectId, shortId } from '../resources.js';

import type { ProjectSort } from '../command-options.js';

export { PROJECT_SORTS, type ProjectSort } from '../command-options.js';

const TITLE_WIDTH = 60;

export interface ProjectsListOptions {
  /** newest/oldest go by the last update, as the table shows it. @default 'newest' */
  sort?: ProjectSort | undefined;
  /** Only the projects in this folder; 'root' for those in no folder. @default every project */
  folder?: string | undefined;
  /** Only the first this many, in the chosen order. @default every project */
  limit?: number | undefined;
}

/**
 * `wolfpack projects ls`: a table of the user's projects (short id, title, files, last update),
 * or with `--json` `{projects: [...]}` as the server lists them, each with its `title`, in the
 * chosen order. The server sorts and pages; every page is read unless `--limit` says fewer.
 */
export async function projectsList(options: ProjectsListOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const folderId = options.folder === undefined ? undefined : ((await findFolderOrRoot(api, options.folder))?.id ?? null);
  const projects = await listProjects(api, folderId, { sort: options.sort ?? 'newest', max: options.limit });
  const withTitles = projects.map((project) => ({ ...project, title: projectTitle(project.idea) }));
  if (context.output.json) return context.output.result('', { projects: withTitles });

  if (projects.length === 0) {
    const where = folderId === undefined ? 'No projects yet. Build one with `wolfpack build "IDEA"`.' : 'No projects in this folder.';
    context.io.stdout.write(`${where}\n`);
    return;
  }
  const rows = withTitles.map((p) => [shortId(p.id), truncate(p.title, TITLE_WIDTH), String(p.fileCount), formatDate(p.updatedAt)]);
  const [header, ...lines] = formatTable([{ header: 'ID' }, { header: 'TITLE' }, { header: 'FILES', align: 'right' }, { header: 'UPDATED' }], rows);
  context.io.stdout.write(`${[context.output.style('bold', header!), ...lines].join('\n')}\n`);
}

/**
 * `wolfpack projects show ID`: the idea, the dates, the folder and the files with their sizes.
 * `--json`: `{id, title, idea, createdAt, updatedAt, folderId, files: [{path, bytes}]}`.
 */
export async function projectsShow(id: string, _options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const { project } = await explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}`, { reply: projectDetailReply }));
  const files = Object.entries(project.fsIndex).map(([path, content]) => ({ path, bytes: Buffer.byteLength(content, 'utf8') }));
  const folderId = project.folderId ?? null;
  const title = projectTitle(project.idea);
  if (context.output.json) {
    const { id: pid, idea, createdAt, updatedAt } = project;
    return context.output.result('', { id: pid, title, idea, createdAt, updatedAt, folderId, files });
  }

  const folder = folderId === null ? '(root)' : ((await listFolders(api)).find((f) => f.id === folderId)?.name ?? folderId);
  const { style } = context.output;
  const lines = [style('bold', title)];
  const rest = project.idea.trim().split('\n').slice(1).join('\n').trim();
  if (rest !== '') lines.push(rest);
  lines.push('', `ID       ${project.id}`, `Folder   ${folder}`, `Created  ${formatDate(project.createdAt)}`, `Updated  ${formatDate(project.updatedAt)}`, '');
  lines.push(style('bold', `Files (${files.length})`));
  const width = Math.max(0, ...files.map((f) => [...f.path].length));
  for (const file of files) lines.push(`  ${file.path.padEnd(width)}  ${formatBytes(file.bytes)}`);
  context.io.stdout.write(`${lines.join('\n')}\n`);
}

export interface ProjectsRemoveOptions {
  /** Delete without asking (required outside a terminal). */
  yes?: boolean | undefined;
}

/** `wolfpack projects rm ID`: deletes the project after a "yes" (or `--yes`). `--json`: `{id, deleted: true}`. */
export async function projectsRemove(id: string, options: ProjectsRemoveOptions, context: CommandContext): Promise<void> {
  checkCanConfirm(context, options.yes);
  const api = await loggedInApi(context);
  const project = await findProject(api, id);
  const title = projectTitle(project.idea);
  await confirmDeletion(context, options.yes, `Delete project "${truncate(title, TITLE_WIDTH)}" (${shortId(project.id)}, ${plural(project.fileCount, 'file')})? This cannot be undone.`);
  await explained(api, () => api.delete(`/api/projects/${encodeURIComponent(project.id)}`));
  context.output.result(`Deleted project "${truncate(title, TITLE_WIDTH)}" (${shortId(project.id)}).`, { id: project.id, deleted: true });
}

export interface ProjectsMoveOptions {
  /** The folder's id, or 'root'. */
  folder: string;
}

/** `wolfpack projects mv ID --folder ID|root`. `--json`: `{id, folderId}` (null: the root). */
export async function projectsMove(id: string, options: ProjectsMoveOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const project = await findProject(api, id);
  const folder = await findFolderOrRoot(api, options.folder);
  const folderId = folder?.id ?? null;
  await explained(api, () => api.put(`/api/projects/${encodeURIComponent(project.id)}/folder`, { body: { folderId } }));
  const where = folder === null ? 'the root' : `folder "${folder.name}"`;
  context.output.result(`Moved "${truncate(projectTitle(project.idea), TITLE_WIDTH)}" (${shortId(project.id)}) to ${where}.`, { id: project.id, folderId });
}
