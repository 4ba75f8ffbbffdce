import type { ProjectSummary } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { PROJECT_SORTS, isProjectSort, projectCountLine, projectTitle, sortProjects } from './project-list';

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

const projects = [
  project('a', 'banana shop\nwith a cart', '2026-03-02T10:00:00.000Z', 4),
  project('b', 'Apple tracker', '2026-03-05T10:00:00.000Z', 9),
  project('c', '', '2026-03-01T10:00:00.000Z', 1),
  project('d', 'cherry notes', 'garbage', 4),
];
const ids = (list: ProjectSummary[]) => list.map((p) => p.id);

describe('sortProjects', () => {
  it('orders by last update, newest or oldest first; unparseable dates count as oldest', () => {
    expect(ids(sortProjects(projects, 'newest'))).toEqual(['b', 'a', 'c', 'd']);
    expect(ids(sortProjects(projects, 'oldest'))).toEqual(['d', 'c', 'a', 'b']);
  });

  it('orders by title, case-insensitively, with Untitled Project as its title', () => {
    expect(sortProjects(projects, 'a-z').map((p) => projectTitle(p.idea))).toEqual([
      'Apple tracker',
      'banana shop',
      'cherry notes',
      'Untitled Project',
    ]);
    expect(ids(sortProjects(projects, 'z-a'))).toEqual(['c', 'd', 'a', 'b']);
  });

  it('orders by file count; equal counts keep the newest first', () => {
    expect(ids(sortProjects(projects, 'most-files'))).toEqual(['b', 'a', 'd', 'c']);
    expect(ids(sortProjects(projects, 'least-files'))).toEqual(['c', 'a', 'd', 'b']);
  });

  it('never changes the list it is given', () => {
    const copy = [...projects];
    sortProjects(projects, 'a-z');
    expect(projects).toEqual(copy);
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
