import { describe, expect, it } from 'vitest';
import { parseFileBlocks } from './file-blocks.js';
import { applyFileChanges, FILE_OPERATION_INSTRUCTIONS, parseOperationLine } from './file-operations.js';

const FENCE = '```';

describe('parseOperationLine', () => {
  it.each([
    ['DELETE: src/src/x.ts', { kind: 'delete', path: 'src/src/x.ts' }],
    ['delete: src/src/x.ts', { kind: 'delete', path: 'src/src/x.ts' }],
    ['REMOVE: ./src//x.ts', { kind: 'delete', path: 'src/x.ts' }],
    ['- **DELETE:** `src/x.ts`', { kind: 'delete', path: 'src/x.ts' }],
    ['=== DELETE: src/x.ts ===', { kind: 'delete', path: 'src/x.ts' }],
    ['DELETE: "docs/Read Me.md"', { kind: 'delete', path: 'docs/Read Me.md' }],
    ['MOVE: src/Utils.ts -> src/utils.ts', { kind: 'move', from: 'src/Utils.ts', to: 'src/utils.ts' }],
    ['RENAME: a.js => b.js', { kind: 'move', from: 'a.js', to: 'b.js' }],
    ['1. MOVE: `a.js` → `lib/a.js`', { kind: 'move', from: 'a.js', to: 'lib/a.js' }],
    ['=== MOVE: a.js -> b.js ===', { kind: 'move', from: 'a.js', to: 'b.js' }],
  ])('reads %s', (line, operation) => {
    expect(parseOperationLine(line)).toEqual({ operation });
  });

  it.each(['Delete the old file', 'DELETE', 'DELETE: two words here', 'MOVE: a.js', 'MOVE: a -> b -> c', 'We should delete: nothing else', 'const DELETE = 1;'])(
    'leaves prose alone: %s',
    (line) => {
      expect(parseOperationLine(line)).toBeNull();
    },
  );

  it.each(['DELETE: ../outside.ts', 'DELETE: /etc/passwd', 'MOVE: a.ts -> ../../b.ts', 'MOVE: C:\\x.ts -> b.ts', 'DELETE: .git/config'])(
    'refuses an unsafe path like a written file: %s',
    (line) => {
      const result = parseOperationLine(line);
      expect(result).toEqual({ problem: expect.objectContaining({ kind: 'unsafe-path', message: expect.stringMatching(/not a safe file path.*line was skipped/) }) });
    },
  );
});

describe('parseFileBlocks with operations', () => {
  it('reads DELETE and MOVE lines between blocks, in order, and never takes them for a block header', () => {
    const answer = [
      'The doubled file goes, the fixed one stays:',
      'DELETE: src/src/x.ts',
      `${FENCE}ts`,
      'export const x = 1;',
      FENCE,
      'MOVE: src/Y.ts -> src/y.ts',
      `${FENCE}ts src/x.ts`,
      'export const x = 2;',
      FENCE,
    ].join('\n');
    const result = parseFileBlocks(answer);
    expect(result.operations).toEqual([
      { kind: 'delete', path: 'src/src/x.ts' },
      { kind: 'move', from: 'src/Y.ts', to: 'src/y.ts' },
    ]);
    // The first block named no file: the DELETE line above it is not its path.
    expect(result.files.map((f) => f.path)).toEqual(['src/x.ts']);
    expect(result.problems.map((p) => p.kind)).toEqual(['missing-path']);
  });

  it('reads operations a model fenced without a path', () => {
    const result = parseFileBlocks(`${FENCE}\nDELETE: a.js\n\nMOVE: b.js -> c.js\n${FENCE}\n`);
    expect(result.operations).toEqual([
      { kind: 'delete', path: 'a.js' },
      { kind: 'move', from: 'b.js', to: 'c.js' },
    ]);
    expect(result.problems).toEqual([]);
  });

  it('keeps DELETE lines inside a file as its content', () => {
    const result = parseFileBlocks(`${FENCE}md NOTES.md\nDELETE: a.js\n${FENCE}\n`);
    expect(result.operations).toEqual([]);
    expect(result.files).toEqual([expect.objectContaining({ path: 'NOTES.md', content: 'DELETE: a.js\n' })]);
  });

  it('reports an unsafe operation as a problem and skips it', () => {
    const result = parseFileBlocks('DELETE: ../../etc/passwd\nMOVE: a.js -> /abs.js\n');
    expect(result.operations).toEqual([]);
    expect(result.problems.map((p) => p.kind)).toEqual(['unsafe-path', 'unsafe-path']);
  });

  it('documents the format it parses', () => {
    const lines = FILE_OPERATION_INSTRUCTIONS.split('\n').filter((l) => parseOperationLine(l) !== null);
    expect(parseFileBlocks(lines.join('\n')).operations).toEqual([
      { kind: 'delete', path: 'path/to/file.ext' },
      { kind: 'move', from: 'old/path.ext', to: 'new/path.ext' },
    ]);
  });
});

describe('applyFileChanges', () => {
  const project = { 'src/x.ts': 'fixed', 'src/src/x.ts': 'doubled', 'src/Y.ts': 'y', 'README.md': 'r' };

  it('deletes the doubled copy beside the fixed file', () => {
    const result = applyFileChanges(project, {}, [{ kind: 'delete', path: 'src/src/x.ts' }]);
    expect(Object.keys(result.files).sort()).toEqual(['README.md', 'src/Y.ts', 'src/x.ts']);
    expect(result.changed).toEqual(['src/src/x.ts']);
    expect(result.warnings).toEqual([]);
  });

  it('moves a file with its content, then applies the written files', () => {
    const result = applyFileChanges(project, { 'src/y.ts': 'y2' }, [{ kind: 'move', from: 'src/Y.ts', to: 'src/y.ts' }]);
    expect(result.files['src/Y.ts']).toBeUndefined();
    expect(result.files['src/y.ts']).toBe('y2');
    expect(result.changed).toEqual(['src/Y.ts', 'src/y.ts']);
  });

  it('refuses, with a warning and no change, to delete or move a missing file or to move onto an existing one', () => {
    const result = applyFileChanges(
      project,
      {},
      [
        { kind: 'delete', path: 'nope.ts' },
        { kind: 'move', from: 'nope.ts', to: 'b.ts' },
        { kind: 'move', from: 'src/Y.ts', to: 'README.md' },
      ],
    );
    expect(result.files).toEqual(project);
    expect(result.changed).toEqual([]);
    expect(result.warnings).toEqual([
      'DELETE: nope.ts was refused: there is no such file.',
      'MOVE: nope.ts -> b.ts was refused: there is no file nope.ts.',
      'MOVE: src/Y.ts -> README.md was refused: README.md already exists (delete it first, or write the file instead).',
    ]);
  });

  it('keeps a file that one answer both deletes and writes, as written', () => {
    const result = applyFileChanges(project, { 'README.md': 'new' }, [{ kind: 'delete', path: 'README.md' }]);
    expect(result.files['README.md']).toBe('new');
    expect(result.warnings).toEqual(['README.md was both deleted and written; the written version was kept.']);
  });
});
