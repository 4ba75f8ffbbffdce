/**
 * What the project, folder, export and publish commands share: finding a project or folder by
 * its id or the start of it (the 8 characters the tables show; `showcase get` finds listings the
 * same way), the sentences for ones that do not exist, and how a project is named in a table.
 */
import { AppError, foldersReply, isAppError, projectsPageReply, PROJECTS_MAX_PAGE_SIZE, type Folder, type ProjectSort, type ProjectSummary } from '@wolfpack/core';
import type { ApiClient } from './api.js';
import { explainLoggedOut } from './context.js';
import { UsageError } from './usage-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A whole id, which names one thing by itself; anything shorter is looked up in a list. */
export function isFullId(id: string): boolean {
  return UUID.test(id);
}
/** Characters of an id shown in tables; also enough to name a project in a command. */
export const SHORT_ID_LENGTH = 8;

export const PROJECT_NOT_FOUND = 'Project not found. `wolfpack projects ls` lists your projects.';
export const FOLDER_NOT_FOUND = 'Folder not found. `wolfpack folders ls` lists your folders.';

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** The first line of the idea, as the web page titles a project. */
export function projectTitle(idea: string): string {
  return idea.trim().split('\n')[0]?.trim() || 'Untitled Project';
}

/**
 * An API error as the person should read it: an expired login says to log in again, and the
 * server's bare "Project not found" / "Folder not found" say where to look.
 */
export function explainApiError(error: unknown, server: string): unknown {
  if (isAppError(error) && error.code === 'NOT_FOUND') {
    if (/^project not found\.?$/i.test(error.message)) return new AppError('NOT_FOUND', PROJECT_NOT_FOUND, undefined, { cause: error });
    if (/^folder not found\.?$/i.test(error.message)) return new AppError('NOT_FOUND', FOLDER_NOT_FOUND, undefined, { cause: error });
  }
  return explainLoggedOut(error, server);
}

/** Runs one API call and explains its failure (see {@link explainApiError}). */
export async function explained<T>(api: ApiClient, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw explainApiError(error, api.server);
  }
}

export interface ListProjectsOptions {
  /** The order the server lists them in. @default 'newest' */
  sort?: ProjectSort | undefined;
  /** Stop after this many. @default every project */
  max?: number | undefined;
}

/**
 * The user's projects, or those in one folder (null: the root), read page by page (200 at a time,
 * the most the server answers) until the last page or `max`.
 */
export async function listProjects(api: ApiClient, folderId?: string | null, options: ListProjectsOptions = {}): Promise<ProjectSummary[]> {
  const { sort = 'newest', max } = options;
  const projects: ProjectSummary[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(Math.min(PROJECTS_MAX_PAGE_SIZE, max === undefined ? Infinity : max - projects.length)) });
    if (sort !== 'newest') params.set('sort', sort);
    if (folderId !== undefined) params.set('folderId', folderId ?? 'root');
    if (cursor !== null) params.set('cursor', cursor);
    const page = await explained(api, () => api.get(`/api/projects?${params.toString()}`, { reply: projectsPageReply }));
    projects.push(...page.projects);
    cursor = page.nextCursor;
  } while (cursor !== null && (max === undefined || projects.length < max));
  return max === undefined ? projects : projects.slice(0, max);
}

/** How many projects each folder holds (`root`: in no folder), from one small request. */
export async function projectCounts(api: ApiClient): Promise<Map<string | null, number>> {
  const page = await explained(api, () => api.get('/api/projects?limit=1&counts=true', { reply: projectsPageReply }));
  return new Map(Object.entries(page.folderCounts ?? {}).map(([folder, count]) => [folder === 'root' ? null : folder, count] as const));
}

export function listFolders(api: ApiClient): Promise<Folder[]> {
  return explained(api, async () => (await api.get('/api/folders', { reply: foldersReply })).folders);
}

/**
 * The project's full id. A full id is taken as it is (the server says whether it is the user's);
 * anything shorter must be the start of exactly one of the user's project ids.
 */
export async function resolveProjectId(api: ApiClient, given: string): Promise<string> {
  const id = checkedId(given, 'project');
  if (isFullId(id)) return id;
  return (await pickById(id, await listProjects(api), 'project', PROJECT_NOT_FOUND)).id;
}

/** The user's project with this id or start of an id, from the list (so its title can be shown). */
export async function findProject(api: ApiClient, given: string): Promise<ProjectSummary> {
  return pickById(checkedId(given, 'project'), await listProjects(api), 'project', PROJECT_NOT_FOUND);
}

/** The user's folder with this id or start of an id, and the whole list it was found in. */
export async function findFolder(api: ApiClient, given: string, folders?: Folder[]): Promise<Folder> {
  return pickById(checkedId(given, 'folder'), folders ?? (await listFolders(api)), 'folder', FOLDER_NOT_FOUND);
}

/** `--folder ID|root`: the folder, or null for the root. */
export async function findFolderOrRoot(api: ApiClient, given: string, folders?: Folder[]): Promise<Folder | null> {
  return given.trim().toLowerCase() === 'root' ? null : findFolder(api, given, folders);
}

function checkedId(given: string, kind: 'project' | 'folder'): string {
  const id = given.trim();
  if (id === '') throw new UsageError(`Give the ${kind}'s id (the first ${SHORT_ID_LENGTH} characters are enough).`);
  // Only the characters of an id: anything else cannot match and must not reach a URL path as it is.
  if (!/^[0-9a-f-]+$/i.test(id)) throw new AppError('NOT_FOUND', kind === 'project' ? PROJECT_NOT_FOUND : FOLDER_NOT_FOUND);
  return id.toLowerCase();
}

/**
 * The item whose id is `prefix`, or the one item whose id starts with it. `kind` names the items in
 * the sentence for a prefix that several ids start with; `notFound` is the sentence for none.
 */
export function pickById<T extends { id: string }>(prefix: string, items: readonly T[], kind: string, notFound: string): T {
  const exact = items.find((item) => item.id.toLowerCase() === prefix);
  if (exact !== undefined) return exact;
  const matches = items.filter((item) => item.id.toLowerCase().startsWith(prefix));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new AppError('NOT_FOUND', notFound);
  const shown = matches.slice(0, 3).map((item) => item.id).join(', ');
  throw new UsageError(`"${prefix}" is the start of ${matches.length} ${kind} ids (${shown}${matches.length > 3 ? ', …' : ''}). Give more of the id.`);
}
