/** All Projects' pure pieces: card titles, the sort orders and the remembered choice (spec core §2). */
import type { ProjectSummary } from '@wolfpack/core';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

export const PROJECT_SORTS = ['newest', 'oldest', 'a-z', 'z-a', 'most-files', 'least-files'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
export const DEFAULT_PROJECT_SORT: ProjectSort = 'newest';

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

/** The time a project was last changed, for newest/oldest; unparseable dates count as the oldest. */
function updatedTime(project: Pick<ProjectSummary, 'updatedAt'>): number {
  const time = Date.parse(project.updatedAt);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

type Compare = (a: ProjectSummary, b: ProjectSummary) => number;

const byNewest: Compare = (a, b) => {
  const ta = updatedTime(a);
  const tb = updatedTime(b);
  if (ta !== tb) return ta > tb ? -1 : 1;
  return a.id.localeCompare(b.id);
};

const byTitle: Compare = (a, b) =>
  projectTitle(a.idea).localeCompare(projectTitle(b.idea), 'en', { sensitivity: 'base', numeric: true });

const ORDERS: Record<ProjectSort, Compare> = {
  newest: byNewest,
  oldest: (a, b) => -byNewest(a, b),
  'a-z': (a, b) => byTitle(a, b) || byNewest(a, b),
  'z-a': (a, b) => byTitle(b, a) || byNewest(a, b),
  'most-files': (a, b) => b.fileCount - a.fileCount || byNewest(a, b),
  'least-files': (a, b) => a.fileCount - b.fileCount || byNewest(a, b),
};

/** A sorted copy of `projects`; ties keep the most recently updated first. */
export function sortProjects(projects: readonly ProjectSummary[], sort: ProjectSort): ProjectSummary[] {
  return [...projects].sort(ORDERS[sort]);
}

/** The count line above the list, e.g. '3 projects' or '1 project in Work'. */
export function projectCountLine(count: number, folderName?: string): string {
  const noun = count === 1 ? 'project' : 'projects';
  return folderName ? `${count} ${noun} in ${folderName}` : `${count} ${noun}`;
}
