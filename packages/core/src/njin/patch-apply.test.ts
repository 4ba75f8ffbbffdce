import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { applyProposal, recountHunks, splitDiffs } from './patch-apply.js';
import { changedLineCount, formatUnifiedPatch } from './patch-format.js';

const FILES = { 'a.ts': 'one\ntwo\nthree\n', 'b/c.ts': 'x\n' };

describe('applyProposal', () => {
  it('applies a bare diff outside any fence, with Git a/ b/ prefixes', () => {
    const answer = 'Sure.\n\n--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
    const result = applyProposal(FILES, answer);
    expect(result.problems).toEqual([]);
    expect(result.written).toEqual({ 'a.ts': 'one\nTWO\nthree\n' });
  });

  it('keeps a top-level folder named b when the path exists as written', () => {
    const answer = '```diff\n--- b/c.ts\n+++ b/c.ts\n@@ -1 +1 @@\n-x\n+y\n```';
    expect(applyProposal(FILES, answer).written).toEqual({ 'b/c.ts': 'y\n' });
  });

  it('creates and deletes files', () => {
    const answer = [
      '```diff',
      'diff --git a/new.ts b/new.ts',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.ts',
      '@@ -0,0 +1,1 @@',
      '+export {};',
      '--- a/a.ts',
      '+++ /dev/null',
      '@@ -1,3 +0,0 @@',
      '-one',
      '-two',
      '-three',
      '```',
    ].join('\n');
    const result = applyProposal(FILES, answer);
    expect(result.problems).toEqual([]);
    expect(result.written).toEqual({ 'new.ts': 'export {};\n' });
    expect(result.deleted).toEqual(['a.ts']);
    expect(result.files).toEqual({ 'b/c.ts': 'x\n', 'new.ts': 'export {};\n' });
  });

  it('reads a diff in a fence without an info string', () => {
    const answer = '```\n--- a/a.ts\n+++ b/a.ts\n@@ -2 +2 @@\n-two\n+2\n```';
    expect(applyProposal(FILES, answer).written).toEqual({ 'a.ts': 'one\n2\nthree\n' });
  });

  it('fails diffs of files that were not sent, and creations of files that exist', () => {
    const missing = applyProposal(FILES, '```diff\n--- a/zz.ts\n+++ b/zz.ts\n@@ -1 +1 @@\n-a\n+b\n```');
    expect(missing.problems).toEqual([{ check: 'applies', message: 'The diff changes zz.ts, which is not among the files sent.' }]);
    const exists = applyProposal(FILES, '```diff\n--- /dev/null\n+++ b/a.ts\n@@ -0,0 +1 @@\n+a\n```');
    expect(exists.problems[0]?.message).toBe('The diff creates a.ts, which already exists.');
  });

  it('says when an answer has no change in it, or changes nothing', () => {
    expect(applyProposal(FILES, 'No idea.').problems[0]?.message).toMatch(/neither whole files/);
    expect(applyProposal(FILES, '```ts a.ts\none\ntwo\nthree\n```').problems[0]?.message).toBe('The answer changes nothing.');
  });

  it('fails a block cut off before its closing fence', () => {
    const result = applyProposal(FILES, '```ts a.ts\none\n');
    expect(result.problems.map((p) => p.check)).toContain('format');
  });
});

describe('recountHunks', () => {
  it('fixes wrong counts and restores blank context lines', () => {
    const diff = '--- a/a.ts\n+++ b/a.ts\n@@ -1,9 +1,1 @@\n one\n\n-two\n+2\n';
    expect(recountHunks(diff)).toBe('--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n one\n \n-two\n+2');
  });

  it('does not take a removed "-- " line followed by a file header for a hunk line', () => {
    const diff = '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-p\n+q\n';
    expect(parsePatch(recountHunks(diff))).toHaveLength(2);
  });
});

describe('splitDiffs', () => {
  it('leaves fenced whole files alone', () => {
    const answer = '```ts a.ts\nconst x = 1;\n```\n';
    expect(splitDiffs(answer)).toEqual({ diffs: [], rest: answer });
  });
});

describe('formatUnifiedPatch', () => {
  it('round-trips through jsdiff for changes, creations and deletions', () => {
    const change = { before: FILES, written: { 'a.ts': 'one\n2\nthree\n', 'n.ts': 'new\n' }, deleted: ['b/c.ts'] };
    const patch = formatUnifiedPatch(change);
    const files: Record<string, string> = { ...FILES };
    for (const p of parsePatch(patch)) {
      const path = (p.isCreate ? p.newFileName : p.oldFileName)!.slice(2);
      if (p.isDelete) delete files[path];
      else files[path] = applyPatch(files[path] ?? '', p) as string;
    }
    expect(files).toEqual({ 'a.ts': 'one\n2\nthree\n', 'n.ts': 'new\n' });
    expect(changedLineCount(change)).toBe(4);
  });

  it('is empty when nothing changes', () => {
    expect(formatUnifiedPatch({ before: FILES, written: { 'a.ts': FILES['a.ts'] }, deleted: [] })).toBe('');
  });
});
