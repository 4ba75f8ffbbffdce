/**
 * All Projects' pure pieces: card titles, the sort orders and the remembered choice (spec core
 * §2), and the URL of one page of the list. The server sorts and pages (GET /api/projects): a
 * user with 10,000 projects gets the first 50 at once and the rest as they scroll.
 */
import { PROJECT_SORTS, PROJECTS_PAGE_SIZE, type ProjectSort, type ProjectSummary } from '@wolfpack/core';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

export { PROJECT_SORTS, type ProjectSort };
export const DEFAULT_PROJECT_SORT: ProjectSort = 'newest';

/**
 * How long a loaded page of the list is shown without asking the server again. Older pages are
 * asked again when a list mounts: the browser sends the page's ETag, and an unchanged page is a
 * 304 without a body, so coming back to the projects page costs little and still shows what the
 * CLI or another tab changed. This tab's own changes refresh the list at once (invalidateLibrary).
 */
export const PROJECT_LIST_STALE_MS = 30_000;

/** The labels of the sort dropdown. */
export const PROJECT_SORT_LABELS: Record<ProjectSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  'a-z': 'Name A-Z',
  'z-a': 'Name Z-A',
  'most-files': 'Most files',
  'least-files': 'Least files',
};

export function isProjectSort(value: unknown): value is ProjectSort {
  return typeof value === 'string' && (PROJECT_SORTS as readonly string[]).includes(value);
}

/** The stored sort order; anything unknown means newest. */
export const projectSortStore = createStoredValue<ProjectSort>(STORAGE_KEYS.projectSort, (raw) =>
  isProjectSort(raw) ? raw : DEFAULT_PROJECT_SORT,
);

/** A card's title: the idea's first non-blank line, or 'Untitled Project' for an empty idea. */
export function projectTitle(idea: string): string {
  const line = idea.trim().split('\n')[0]?.trim() ?? '';
  return line || 'Untitled Project';
}

/** The count line above the list, e.g. '3 projects' or '1 project in Work'. */
export function projectCountLine(count: number, folderName?: string): string {
  const noun = count === 1 ? 'project' : 'projects';
  return folderName ? `${count} ${noun} in ${folderName}` : `${count} ${noun}`;
}

/** Which projects a list shows: one folder's (null: the root) or every folder's, optionally searched. */
export interface ProjectListFilter {
  /** undefined: every folder; null: the root. */
  folderId?: string | null | undefined;
  sort: ProjectSort;
  /** Text the idea must contain (ignoring case); blank means no search. */
  q?: string | undefined;
}

export interface ProjectPageRequest extends ProjectListFilter {
  /** @default PROJECTS_PAGE_SIZE (50) */
  limit?: number | undefined;
  /** The nextCursor of the page before; absent for the first page. */
  cursor?: string | undefined;
  /** Ask for total and folderCounts (first pages only: it costs the server a count). */
  counts?: boolean | undefined;
}

/** GET /api/projects?… for one page. Parameters with their default value are left out. */
export function projectsPageUrl({ folderId, sort, q, limit = PROJECTS_PAGE_SIZE, cursor, counts }: ProjectPageRequest): string {
  const params = new URLSearchParams();
  if (limit !== PROJECTS_PAGE_SIZE) params.set('limit', String(limit));
  if (sort !== DEFAULT_PROJECT_SORT) params.set('sort', sort);
  if (folderId !== undefined) params.set('folderId', folderId ?? 'root');
  const search = q?.trim();
  if (search) params.set('q', search);
  if (counts) params.set('counts', 'true');
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/api/projects?${query}` : '/api/projects';
}

/**
 * The pages loaded so far as one list. Keyset pages never overlap, but a refetch after a change
 * can move a project between two pages that are read one after the other: each shows once.
 */
export function joinPages(pages: ReadonlyArray<{ projects: readonly ProjectSummary[] }>): ProjectSummary[] {
  const seen = new Set<string>();
  const list: ProjectSummary[] = [];
  for (const page of pages) {
    for (const project of page.projects) {
      if (seen.has(project.id)) continue;
      seen.add(project.id);
      list.push(project);
    }
  }
  return list;
}

/** Folder counts as the sidebar reads them: 'root' in the reply is the null key. */
export function folderCountMap(folderCounts: Readonly<Record<string, number>> | undefined): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const [key, count] of Object.entries(folderCounts ?? {})) counts.set(key === 'root' ? null : key, count);
  return counts;
}
