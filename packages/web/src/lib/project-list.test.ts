import { PROJECTS_PAGE_SIZE, type ProjectSummary } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { PROJECT_SORTS, folderCountMap, isProjectSort, joinPages, projectCountLine, projectTitle, projectsPageUrl } from './project-list';

function project(id: string, idea: string, updatedAt: string, fileCount: number): ProjectSummary {
  return {
    id,
    idea,
    createdAt: updatedAt,
    updatedAt,
    folderId: null,
    fileCount,
    sessionCount: 1,
    totalCostCents: 0,
    replitTotalCostCents: 0,
    totalProcessingTimeMs: 0,
  };
}

const ids = (list: ProjectSummary[]) => list.map((p) => p.id);

describe('projectsPageUrl', () => {
  it('asks for the first page of every folder, newest first, with no parameters', () => {
    expect(projectsPageUrl({ sort: 'newest' })).toBe('/api/projects');
    expect(projectsPageUrl({ sort: 'newest', limit: PROJECTS_PAGE_SIZE, q: '   ' })).toBe('/api/projects');
  });

  it('names the folder (root for none), the order, the search, the page size, counts and the cursor', () => {
    expect(projectsPageUrl({ folderId: null, sort: 'a-z', counts: true })).toBe('/api/projects?sort=a-z&folderId=root&counts=true');
    const url = new URL(projectsPageUrl({ folderId: 'f 1', sort: 'least-files', q: ' 50% & more ', limit: 8, cursor: 'abc_-' }), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '8', sort: 'least-files', folderId: 'f 1', q: '50% & more', cursor: 'abc_-' });
  });
});

describe('joinPages', () => {
  it('puts the pages one after another, each project once', () => {
    const a = project('a', 'A', '2026-03-05T10:00:00.000Z', 1);
    const b = project('b', 'B', '2026-03-04T10:00:00.000Z', 1);
    const c = project('c', 'C', '2026-03-03T10:00:00.000Z', 1);
    expect(ids(joinPages([{ projects: [a, b] }, { projects: [b, c] }, { projects: [] }]))).toEqual(['a', 'b', 'c']);
    expect(joinPages([])).toEqual([]);
  });
});

describe('folderCountMap', () => {
  it("reads 'root' as the null key of the sidebar's counts", () => {
    expect(folderCountMap({ root: 7, 'folder-1': 2 })).toEqual(
      new Map<string | null, number>([
        [null, 7],
        ['folder-1', 2],
      ]),
    );
    expect(folderCountMap(undefined).size).toBe(0);
  });
});

describe('sort preference', () => {
  it('knows exactly the six orders of the spec', () => {
    expect(PROJECT_SORTS).toEqual(['newest', 'oldest', 'a-z', 'z-a', 'most-files', 'least-files']);
    expect(isProjectSort('a-z')).toBe(true);
    expect(isProjectSort('largest')).toBe(false);
    expect(isProjectSort(null)).toBe(false);
  });
});

describe('projectTitle and the count line', () => {
  it("uses the idea's first line, or 'Untitled Project'", () => {
    expect(projectTitle('  Weather app  \nshows rain')).toBe('Weather app');
    expect(projectTitle('')).toBe('Untitled Project');
    expect(projectTitle(' \n ')).toBe('Untitled Project');
  });

  it('counts in words', () => {
    expect(projectCountLine(0)).toBe('0 projects');
    expect(projectCountLine(1)).toBe('1 project');
    expect(projectCountLine(3, 'Work')).toBe('3 projects in Work');
  });
});
