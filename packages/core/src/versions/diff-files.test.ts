import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, diffFileMaps } from './diff-files.js';

describe('diffFileMaps', () => {
  it('lists added, changed and removed files sorted by path, leaving identical ones out', () => {
    const before = { 'src/b.ts': 'one\ntwo\nthree\n', 'README.md': '# Hi\n', 'gone.txt': 'bye\n' };
    const after = { 'src/b.ts': 'one\n2\nthree\n', 'README.md': '# Hi\n', 'new.txt': 'hello\n' };
    const diff = diffFileMaps(before, after);
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([
      ['gone.txt', 'removed'],
      ['new.txt', 'added'],
      ['src/b.ts', 'changed'],
    ]);
    expect([diff.added, diff.changed, diff.removed]).toEqual([1, 1, 1]);
    const [gone, added, changed] = diff.files;
    expect(gone).toMatchObject({ before: 'bye\n', after: null, patch: '--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n' });
    expect(added).toMatchObject({ before: null, after: 'hello\n', patch: '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hello\n' });
    expect(changed!.patch).toBe('--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
  });

  it('keeps 3 lines of context and gives patches that apply to the old text', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const old = `${lines.join('\n')}\n`;
    const now = `${lines.map((l, i) => (i === 9 ? 'changed' : l)).join('\n')}\n`;
    const [file] = diffFileMaps({ 'a.txt': old }, { 'a.txt': now }).files;
    expect(file!.patch).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+changed\n line 11\n line 12\n line 13\n');
    expect(applyPatch(old, file!.patch)).toBe(now);
    const [unended] = diffFileMaps({ 'a.txt': old }, { 'a.txt': now.trimEnd() }).files;
    expect(unended!.patch).toContain('\\ No newline at end of file');
    expect(applyPatch(old, unended!.patch)).toBe(now.trimEnd());
  });

  it('tells an empty file from a missing one', () => {
    const diff = diffFileMaps({ 'empty.txt': '' }, { 'empty.txt': '', 'other.txt': '' });
    expect(diff.files).toEqual([{ path: 'other.txt', status: 'added', before: null, after: '', patch: '--- /dev/null\n+++ b/other.txt\n' }]);
    expect(diffFileMaps({}, {})).toEqual({ files: [], added: 0, changed: 0, removed: 0 });
  });

  it('treats inherited object keys as ordinary paths', () => {
    const diff = diffFileMaps({}, { constructor: 'x', __proto__x: 'y' });
    expect(diff.files.map((f) => f.status)).toEqual(['added', 'added']);
  });
});

describe('compareCodePoints', () => {
  it('orders by code point, astral characters after the end of the basic plane', () => {
    expect(['🐺.ts', '｡.ts', 'b', 'a', 'ab', 'A'].sort(compareCodePoints)).toEqual(['A', 'a', 'ab', 'b', '｡.ts', '🐺.ts']);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});
