import type { ImportReply, VersionDiffReply, VersionSummary } from '@wolfpack/core';
import { filePatch } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { changeCounts, diffStat, diffText, importSummary, mergeSkipped, noDifferences, patchLineCounts, restoreSentence, verdictWord, versionsTable } from './version-format.js';

const CREATED = '2026-12-05T09:30:00.000Z';

function version(number: number, overrides: Partial<VersionSummary> = {}): VersionSummary {
  return {
    number,
    createdAt: CREATED,
    source: { kind: 'build' },
    label: 'Build',
    runId: null,
    verdict: null,
    fileCount: 3,
    added: 3,
    changed: 0,
    removed: 0,
    current: false,
    ...overrides,
  };
}

/** A diff reply made the way the server makes it (core's filePatch). */
function diffReply(files: Array<{ path: string; before: string | null; after: string | null }>): VersionDiffReply {
  const status = (f: { before: string | null; after: string | null }) => (f.before === null ? 'added' : f.after === null ? 'removed' : 'changed') as 'added' | 'changed' | 'removed';
  const withPatches = files.map((f) => ({ ...f, status: status(f), patch: filePatch(f.path, f.before, f.after) }));
  const count = (s: string) => withPatches.filter((f) => f.status === s).length;
  return { from: 1, to: 2, files: withPatches, added: count('added'), changed: count('changed'), removed: count('removed') };
}

describe('versions table', () => {
  it('lists newest first as given, marks the current version, words verdicts and counts', () => {
    const lines = versionsTable({
      current: 3,
      versions: [
        version(3, { current: true, source: { kind: 'restore', from: 1 }, label: 'Restored from version 1', verdict: 'passed', added: 0, changed: 2, removed: 1 }),
        version(2, { source: { kind: 'edit' }, label: 'Edited by you', verdict: 'unproven', fileCount: 4, added: 1, changed: 1, removed: 0 }),
        version(1),
      ],
    });
    expect(lines[0]).toMatch(/^VERSION +CREATED +SOURCE +PROVEN CODE +FILES +CHANGES$/);
    expect(lines[1]).toMatch(/^3 \(current\) +\d{4}-\d\d-\d\d \d\d:\d\d +Restored from version 1 +passed +3 +\+0 ~2 -1$/);
    expect(lines[2]).toMatch(/^2 +\S+ \S+ +Edited by you +not proven +4 +\+1 ~1 -0$/);
    expect(lines[3]).toMatch(/^1 +\S+ \S+ +Build +not checked +3 +\+3 ~0 -0$/);
  });

  it('words each verdict, only passed as passing', () => {
    expect([verdictWord('passed'), verdictWord('failed'), verdictWord('unproven'), verdictWord(null)]).toEqual(['passed', 'failed', 'not proven', 'not checked']);
    expect(changeCounts({ added: 2, changed: 1, removed: 0 })).toBe('+2 ~1 -0');
  });
});

describe('restore sentence', () => {
  it('names both versions and the verdict', () => {
    expect(restoreSentence(3, { version: version(8, { verdict: 'passed', current: true }), verification: null })).toBe('Restored version 3 as version 8 (Proven Code: passed).');
    expect(restoreSentence(1, { version: version(2, { current: true }), verification: null })).toBe('Restored version 1 as version 2 (Proven Code: not checked).');
  });
});

describe('diff', () => {
  const reply = diffReply([
    { path: 'app.js', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' },
    { path: 'new.txt', before: null, after: 'hello\n' },
    { path: 'old.txt', before: 'bye\n', after: null },
  ]);

  it('prints the patches one after another, exactly as sent, without colour', () => {
    expect(diffText(reply)).toBe(reply.files.map((f) => f.patch).join(''));
    expect(diffText(reply)).toContain('--- a/app.js\n+++ b/app.js\n@@ ');
    expect(diffText(diffReply([]))).toBe('');
  });

  it('colours headers, hunks, additions and removals when asked', () => {
    const tagged = diffText(reply, (format, text) => `<${format}>${text}</${format}>`);
    expect(tagged).toContain('<bold>--- a/app.js</bold>\n<bold>+++ b/app.js</bold>\n<cyan>@@');
    expect(tagged).toContain('<red>-b</red>\n<green>+B</green>');
    expect(tagged).toContain('<bold>--- /dev/null</bold>');
    expect(tagged).toContain('\n c\n');
  });

  it('counts the lines of hunks only, not the file headers', () => {
    expect(patchLineCounts(reply.files[0]!.patch)).toEqual({ added: 2, removed: 1 });
    expect(patchLineCounts(filePatch('x', null, '+++ looks like a header\n'))).toEqual({ added: 1, removed: 0 });
  });

  it('--stat: a line per file and the totals', () => {
    expect(diffStat(reply)).toEqual([
      'changed  app.js   +2  -1',
      'added    new.txt  +1  -0',
      'removed  old.txt  +0  -1',
      '3 files changed (1 added, 1 changed, 1 removed), 3 lines added, 2 removed',
    ]);
  });

  it('says when there is nothing to show', () => {
    expect(noDifferences({ from: 2, to: 3 })).toBe('No differences between version 2 and version 3.');
    expect(noDifferences({ from: 0, to: 1 })).toBe('Version 1 has no files.');
  });
});

describe('import summary', () => {
  const reply: ImportReply = {
    project: {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      idea: 'A recipe box\nwith tags',
      fileCount: 2,
      folderId: null,
      createdAt: CREATED,
      updatedAt: CREATED,
    } as ImportReply['project'],
    version: 1,
    skipped: [{ path: 'logo.png', reason: 'binary file: Wolfpack keeps text files' }],
  };

  it('names the project, its idea and files, and each path left out, the CLI’s own first', () => {
    const merged = mergeSkipped([{ path: 'node_modules/', reason: 'node_modules/ is not imported: dependencies are installed from the package manifest' }], reply);
    expect(merged.skipped.map((s) => s.path)).toEqual(['node_modules/', 'logo.png']);
    expect(importSummary(merged)).toEqual([
      'Imported project 0f8fad5b-d9cb-469f-a165-70867728950e with 2 files.',
      'Idea: A recipe box',
      '',
      'Left out (2):',
      '  node_modules/: node_modules/ is not imported: dependencies are installed from the package manifest',
      '  logo.png: binary file: Wolfpack keeps text files',
    ]);
    expect(importSummary({ ...reply, skipped: [] })).toHaveLength(2);
  });
});
