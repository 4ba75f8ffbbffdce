import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, diffFileMaps, diffFileMapsAsync } from './diff-files.js';

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

  it('replaces every line of files it cannot match within its time budget, with patches that still apply', () => {
    const unrelated = (seed: number, ended: boolean) =>
      `${Array.from({ length: 30_000 }, (_, i) => `line ${i} ${(i * seed) % 9973} ${'x'.repeat(20)}`).join('\n')}${ended ? '\n' : ''}`;
    const before = { 'a.txt': unrelated(7, true), 'b.txt': unrelated(3, false), 'small.txt': 'one\n' };
    const after = { 'a.txt': unrelated(13, false), 'b.txt': unrelated(5, true), 'small.txt': 'two\n' };
    const started = Date.now();
    const diff = diffFileMaps(before, after, 100);
    // Two unrelated 1 MiB files take jsdiff minutes to match line by line.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(diff.changed).toBe(3);
    const [a, b] = diff.files;
    expect(a!.patch.startsWith('--- a/a.txt\n+++ b/a.txt\n@@ -1,30000 +1,30000 @@\n-line 0 0 ')).toBe(true);
    for (const file of diff.files) expect(applyPatch(file.before!, file.patch), file.path).toBe(file.after);
    expect(b!.patch).toContain('\n\\ No newline at end of file\n+line 0 0');
    // Once the budget is spent, files are not matched at all.
    const spent = diffFileMaps({ 'a.txt': 'a\nb\n' }, { 'a.txt': 'a\nc' }, 0);
    expect(spent.files[0]!.patch).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\n+c\n\\ No newline at end of file\n');
    expect(diffFileMaps({}, { 'new.txt': 'x\n' }, 0).files[0]!.patch).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+x\n');
  });

  it('gives the same diff without holding the thread, letting other work run while it matches', async () => {
    const before = { 'a.txt': 'one\ntwo\n', 'gone.txt': 'x', 'same.txt': 's' };
    const after = { 'a.txt': 'one\n2\n', 'new.txt': 'y\n', 'same.txt': 's' };
    expect(await diffFileMapsAsync(before, after)).toEqual(diffFileMaps(before, after));

    const unrelated = (seed: number) => Array.from({ length: 30_000 }, (_, i) => `line ${i} ${(i * seed) % 9973} ${'x'.repeat(20)}`).join('\n');
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    try {
      const diff = await diffFileMapsAsync({ 'a.txt': unrelated(7) }, { 'a.txt': unrelated(13) }, 300);
      expect(applyPatch(diff.files[0]!.before!, diff.files[0]!.patch)).toBe(diff.files[0]!.after);
    } finally {
      clearInterval(ticking);
    }
    expect(ticks).toBeGreaterThan(5);
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
