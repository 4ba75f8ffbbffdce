import { describe, expect, it } from 'vitest';
import { zipName } from './commands/export.js';
import { formatBytes, formatTable, plural, shellQuote, truncate } from './format.js';
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

describe('shellQuote', () => {
  it('leaves safe words as they are and single-quotes the rest, so a shell reads them back', () => {
    expect(shellQuote('/tmp/out-1')).toBe('/tmp/out-1');
    expect(shellQuote('/tmp/my app')).toBe("'/tmp/my app'");
    expect(shellQuote("/tmp/it's")).toBe("'/tmp/it'\\''s'");
    expect(shellQuote('$HOME;rm')).toBe("'$HOME;rm'");
    expect(shellQuote('')).toBe("''");
  });
});
