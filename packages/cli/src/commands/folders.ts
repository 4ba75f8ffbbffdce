import { folderName, folderReply, type Folder } from '@wolfpack/core';
import { checkCanConfirm, confirmDeletion } from '../confirm.js';
import { loggedInApi, type CommandContext } from '../context.js';
import { plural } from '../format.js';
import { explained, findFolder, findFolderOrRoot, listFolders, projectCounts, shortId } from '../resources.js';
import { schemaUsageError } from '../usage-error.js';

/**
 * `wolfpack folders ls`: the folders as a tree under the root, each with its short id and how many
 * projects it holds. `--json`: `{folders: [{id, name, parentFolderId, projectCount}], rootProjectCount}`.
 */
export async function foldersList(_options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const [folders, counts] = await Promise.all([listFolders(api), projectCounts(api)]);
  const rootProjectCount = counts.get(null) ?? 0;
  if (context.output.json) {
    const withCounts = folders.map((folder) => ({ ...folder, projectCount: counts.get(folder.id) ?? 0 }));
    return context.output.result('', { folders: withCounts, rootProjectCount });
  }

  const { style } = context.output;
  const lines = [`${style('bold', '(root)')}  ${plural(rootProjectCount, 'project')}`];
  const ids = new Set(folders.map((folder) => folder.id));
  const children = (parent: string | null) =>
    folders
      // A parent the list does not hold would hide the folder: show it at the top instead.
      .filter((folder) => (folder.parentFolderId !== null && ids.has(folder.parentFolderId) ? folder.parentFolderId : null) === parent)
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id));
  const walk = (parent: string | null, indent: string, seen: Set<string>) => {
    const list = children(parent);
    list.forEach((folder, i) => {
      if (seen.has(folder.id)) return; // a cycle the server should never allow
      const last = i === list.length - 1;
      const count = plural(counts.get(folder.id) ?? 0, 'project');
      lines.push(`${indent}${last ? '└── ' : '├── '}${folder.name}  ${style('dim', shortId(folder.id))}  ${count}`);
      walk(folder.id, `${indent}${last ? '    ' : '│   '}`, new Set([...seen, folder.id]));
    });
  };
  walk(null, '', new Set());
  if (folders.length === 0) lines.push('No folders yet. Create one with `wolfpack folders create NAME`.');
  context.io.stdout.write(`${lines.join('\n')}\n`);
}

export interface FoldersCreateOptions {
  /** The parent folder's id, or 'root'. @default 'root' */
  parent?: string | undefined;
}

/** `wolfpack folders create NAME [--parent ID]`: prints the new folder's id. `--json`: `{folder}`. */
export async function foldersCreate(name: string, options: FoldersCreateOptions, context: CommandContext): Promise<void> {
  const checked = checkName(name);
  const api = await loggedInApi(context);
  const parent = options.parent === undefined ? null : await findFolderOrRoot(api, options.parent);
  const { folder } = await explained(api, () => api.post('/api/folders', { body: { name: checked, parentFolderId: parent?.id ?? null }, reply: folderReply }));
  const where = parent === null ? '' : ` in "${parent.name}"`;
  context.output.result(`Created folder "${folder.name}"${where}: ${folder.id}`, { folder });
}

/** `wolfpack folders rename ID NAME`. `--json`: `{folder}`. */
export async function foldersRename(id: string, name: string, _options: object, context: CommandContext): Promise<void> {
  const checked = checkName(name);
  const api = await loggedInApi(context);
  const current = await findFolder(api, id);
  const { folder } = await explained(api, () => api.put(`/api/folders/${encodeURIComponent(current.id)}`, { body: { name: checked }, reply: folderReply }));
  context.output.result(`Renamed folder "${current.name}" to "${folder.name}".`, { folder });
}

export interface FoldersRemoveOptions {
  /** Delete without asking (required outside a terminal). */
  yes?: boolean | undefined;
}

/**
 * `wolfpack folders rm ID`: deletes the folder after a "yes" (or `--yes`); the server moves its
 * projects and subfolders to the root, and the CLI says how many. `--json`:
 * `{id, deleted: true, projectsMovedToRoot, foldersMovedToRoot}`.
 */
export async function foldersRemove(id: string, options: FoldersRemoveOptions, context: CommandContext): Promise<void> {
  checkCanConfirm(context, options.yes);
  const api = await loggedInApi(context);
  const folders = await listFolders(api);
  const folder = await findFolder(api, id, folders);
  const projectsMovedToRoot = (await projectCounts(api)).get(folder.id) ?? 0;
  const foldersMovedToRoot = folders.filter((f: Folder) => f.parentFolderId === folder.id).length;
  const moved = movedText(projectsMovedToRoot, foldersMovedToRoot);
  await confirmDeletion(context, options.yes, `Delete folder "${folder.name}" (${shortId(folder.id)})?${moved === '' ? '' : ` Its ${moved} will move to the root.`}`);
  await explained(api, () => api.delete(`/api/folders/${encodeURIComponent(folder.id)}`));
  context.output.result(`Deleted folder "${folder.name}".${moved === '' ? '' : ` Its ${moved} moved to the root.`}`, {
    id: folder.id,
    deleted: true,
    projectsMovedToRoot,
    foldersMovedToRoot,
  });
}

function movedText(projects: number, folders: number): string {
  return [projects > 0 ? plural(projects, 'project') : '', folders > 0 ? plural(folders, 'subfolder') : ''].filter(Boolean).join(' and ');
}

function checkName(name: string): string {
  const parsed = folderName.safeParse(name);
  if (!parsed.success) throw schemaUsageError(parsed.error, 'That folder name cannot be used.');
  return parsed.data;
}
