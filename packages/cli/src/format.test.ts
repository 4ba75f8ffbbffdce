import type { ProjectSummary } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { zipName } from './commands/export.js';
import { sortProjects } from './commands/projects.js';
import { formatBytes, formatTable, plural, truncate } from './format.js';
import { projectTitle } from './resources.js';

describe('formatTable', () => {
  it('pads columns to the widest cell, right-aligns numbers, leaves no trailing spaces', () => {
    const lines = formatTable(
      [{ header: 'ID' }, { header: 'TITLE' }, { header: 'FILES', align: 'right' }, { header: 'UPDATED' }],
      [
        ['a1b2c3d4', 'Crème brûlée timer', '4', '2026-11-20 10:00'],
        ['e5f6a7b8', 'x', '12', ''],
      ],
    );
    expect(lines).toEqual([
      'ID        TITLE               FILES  UPDATED',
      'a1b2c3d4  Crème brûlée timer      4  2026-11-20 10:00',
      'e5f6a7b8  x                      12',
    ]);
  });

  it('truncates, sizes and counts', () => {
    expect(truncate('a habit tracker', 8)).toBe('a habit…');
    expect(truncate('short', 8)).toBe('short');
    expect([formatBytes(0), formatBytes(999), formatBytes(1536), formatBytes(25_000), formatBytes(3_200_000)]).toEqual(['0 B', '999 B', '1.5 kB', '25 kB', '3.2 MB']);
    expect([plural(1, 'project'), plural(2, 'project'), plural(0, 'file')]).toEqual(['1 project', '2 projects', '0 files']);
  });
});

describe('projects', () => {
  const at = (id: string, idea: string, fileCount: number, updatedAt: string): ProjectSummary => ({
    id,
    idea,
    fileCount,
    createdAt: updatedAt,
    updatedAt,
    folderId: null,
    sessionCount: 1,
    totalCostCents: 0,
    replitTotalCostCents: 0,
    totalProcessingTimeMs: 0,
  });
  const projects = [
    at('1', 'banana bread', 3, '2026-11-20T10:00:00Z'),
    at('2', 'Apple pie\nwith cream', 7, '2026-11-21T10:00:00Z'),
    at('3', 'cherry jam', 3, '2026-11-22T10:00:00Z'),
  ];
  const order = (sort: Parameters<typeof sortProjects>[1]) => sortProjects(projects, sort).map((p) => p.id).join('');

  it('sorts by update, title (ignoring case) and file count, newest first on ties', () => {
    expect(order('newest')).toBe('321');
    expect(order('oldest')).toBe('123');
    expect(order('a-z')).toBe('213');
    expect(order('z-a')).toBe('312');
    expect(order('most-files')).toBe('231');
    expect(order('least-files')).toBe('312');
  });

  it('titles a project by the first line of its idea', () => {
    expect(projectTitle('  Apple pie\nwith cream')).toBe('Apple pie');
    expect(projectTitle('   \n  ')).toBe('Untitled Project');
  });
});

describe('zipName', () => {
  const id = '1a2b3c4d-0000-4000-8000-000000000000';
  it('takes a plain file name from Content-Disposition, never a path', () => {
    expect(zipName('attachment; filename="project-1a2b3c4d.zip"', id)).toBe('project-1a2b3c4d.zip');
    expect(zipName('attachment; filename=export.zip', id)).toBe('export.zip');
    expect(zipName('attachment; filename="../../etc/passwd"', id)).toBe('project-1a2b3c4d.zip');
    expect(zipName('attachment; filename="/tmp/x.zip"', id)).toBe('project-1a2b3c4d.zip');
    expect(zipName('attachment; filename=".."', id)).toBe('project-1a2b3c4d.zip');
    expect(zipName(null, id)).toBe('project-1a2b3c4d.zip');
  });
});
