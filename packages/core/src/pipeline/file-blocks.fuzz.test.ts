/**
 * parseFileBlocks is fed whatever a model writes, so it is fuzzed like a network parser: any text
 * (binary noise, markdown soup, enormous lines built to make regular expressions backtrack) must
 * parse quickly without throwing, and every file it yields must have a path that stays inside the
 * project folder. Answers written in the project's own format must come back file for file.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFilesForPrompt } from './context-budget.js';
import { formatFileBlock, parseFileBlocks } from './file-blocks.js';
import { formatFileOperation, type FileOperation } from './file-operations.js';
import { pathFromFirstLine } from './path-hints.js';
import { sanitizePath } from './safe-path.js';

const RUNS = Number(process.env.WOLFPACK_FUZZ_RUNS ?? 500);
const ROOT = '/srv/wolfpack/projects/p1';

function operationPaths(operations: FileOperation[]): Array<{ path: string }> {
  return operations.flatMap((op) => (op.kind === 'delete' ? [{ path: op.path }] : [{ path: op.from }, { path: op.to }]));
}

function expectSafe(files: Array<{ path: string }>): void {
  for (const file of files) {
    expect(sanitizePath(file.path)).toEqual({ ok: true, path: file.path });
    expect(path.posix.resolve(ROOT, file.path).startsWith(`${ROOT}/`)).toBe(true);
    expect(path.win32.resolve('C:\\p1', file.path).startsWith('C:\\p1\\')).toBe(true);
  }
}

/** Markdown and model habits, mixed with hostile paths and noise. */
const token = fc.oneof(
  fc.constantFrom(
    '```', '````', '~~~', '```ts ', '```js title="', '```bash\n', '```md README.md\n', '<file path="', '<file name=', '">', '>', '</file>', '<file>', '### ', '**', '`', '// ', '# ', '/* ', ' */', '<!-- ', ' -->',
    '\n', '\r\n', '\r', ' ', '\t', ':', 'File: ', 'DELETE: ', 'MOVE: ', '=== DELETE: ', ' -> ', ' → ', ' ===', 'RENAME:', 'src/a.ts', 'src/b/c.tsx', '../x.ts', '../../etc/passwd', '/abs.ts', 'C:\\x.ts', 'c:/x.ts', '\\\\srv\\x.ts', 'a\0b.ts', '.git/config', 'con.ts', 'README.md', 'index.html', '...', '// ... rest unchanged', 'TODO', '{', '}', '\u202e', '🐺',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const answer = fc.array(token, { maxLength: 60 }).map((parts) => parts.join(''));

describe('parseFileBlocks under hostile input', () => {
  it('never throws, and yields only safe, unique paths, for any answer', () => {
    fc.assert(
      fc.property(answer, (text) => {
        const result = parseFileBlocks(text);
        expectSafe(result.files);
        expectSafe(operationPaths(result.operations));
        expect(new Set(result.files.map((f) => f.path)).size).toBe(result.files.length);
        for (const problem of result.problems) expect(problem.message).toMatch(/\S/);
        for (const file of result.files) expect(file.content === '' || file.content.endsWith('\n')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('parses the same whatever the line endings', () => {
    fc.assert(
      fc.property(answer, (text) => {
        const lf = text.replace(/\r\n?/g, '\n');
        expect(parseFileBlocks(lf.replaceAll('\n', '\r\n'))).toEqual(parseFileBlocks(lf));
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('gets back every file of an answer in its own format, with prose and CRLF around them', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/);
    const filePath = fc.oneof(
      fc
        .tuple(fc.array(segment, { maxLength: 3 }), segment, fc.constantFrom('ts', 'tsx', 'js', 'json', 'md', 'css', 'html', 'py', 'yml', 'sh', 'txt', 'sql', 'test.ts', 'd.ts'))
        .map(([dirs, name, ext]) => [...dirs, `${name}.${ext}`].join('/'))
        .filter((p) => sanitizePath(p).ok),
      fc.constantFrom('Dockerfile', 'Makefile', '.gitignore', '.env.example', 'src/.eslintrc', 'bin/run', 'LICENSE', 'docs/README.md', 'scripts/deploy.sh'),
    );
    const line = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
      fc.constantFrom('```', '````ts', '~~~', '```ts other.ts', '<file path="x.ts">', '</file>', '// ... existing code', '# heading', '    indented', ''),
    );
    const content = fc.array(line, { maxLength: 10 }).map((lines) => lines.map((l) => `${l}\n`).join(''));
    const prose = fc.constantFrom('', 'Here is the file:\n', 'Next, the styles.\n\n', '**Note:** keep it simple.\n', 'That is all.\n');
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(filePath, content, prose), { maxLength: 5, selector: ([p]) => p.toLowerCase() }), fc.boolean(), (files, crlf) => {
        // A first line that is only a comment naming the file itself is taken as its label, by design.
        const kept = files.filter(([p, c]) => {
          const first = pathFromFirstLine(c.split('\n')[0] ?? '');
          return first === null || !(p === first || p.endsWith(`/${first}`));
        });
        let text = kept.map(([p, c, before]) => `${before}${formatFileBlock(p, c)}`).join('\n');
        if (crlf) text = text.replaceAll('\n', '\r\n');
        const result = parseFileBlocks(text);
        expect(result.files.map((f) => [f.path, f.content])).toEqual(kept.map(([p, c]) => [p, c]));
        expect(result.truncated).toBe(false);
        expect(result.problems).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('gets back every DELETE and MOVE line, in order, between files in its own format', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/);
    const filePath = fc
      .tuple(fc.array(segment, { maxLength: 3 }), segment, fc.constantFrom('ts', 'js', 'md', 'css', 'py'))
      .map(([dirs, name, ext]) => [...dirs, `${name}.${ext}`].join('/'))
      .filter((p) => sanitizePath(p).ok);
    const operation: fc.Arbitrary<FileOperation> = fc.oneof(
      filePath.map((path) => ({ kind: 'delete' as const, path })),
      fc.tuple(filePath, filePath).map(([from, to]) => ({ kind: 'move' as const, from, to })),
    );
    const item = fc.oneof(
      operation.map((op) => ({ op })),
      fc.tuple(filePath, fc.constantFrom('x\n', 'DELETE: not/an/operation.ts\n', '')).map(([path, content]) => ({ file: { path, content } })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.boolean(), (items, crlf) => {
        let text = items.map((i) => ('op' in i ? `${formatFileOperation(i.op)}\n` : formatFileBlock(i.file.path, i.file.content))).join('\n');
        if (crlf) text = text.replaceAll('\n', '\r\n');
        const result = parseFileBlocks(text);
        expect(result.operations).toEqual(items.flatMap((i) => ('op' in i ? [i.op] : [])));
        // A DELETE line inside a file is content, not an operation.
        const last = new Map(items.flatMap((i) => ('file' in i ? [[i.file.path, i.file.content] as const] : [])));
        expect(result.files.map((f) => [f.path, f.content])).toEqual([...last]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('reads back every file shown to an engine in a prompt, whatever its path, when the engine echoes it', () => {
    // Any path sanitizePath accepts: spaces, braces, quotes, unicode, bare names like CNAME.
    const segment = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'Z', '0', '-', '_', '.', ' ', '{', '}', "'", ',', '=', '#', '@', '(', ')', '[', ']', 'é', '文', '🐺'), fc.string({ minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 12 });
    const safePath = fc
      .array(segment, { minLength: 1, maxLength: 3 })
      .map((segments) => sanitizePath(segments.join('/')))
      .filter((r): r is { ok: true; path: string } => r.ok)
      .map((r) => r.path);
    const content = fc.array(fc.oneof(fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constantFrom('```', '````js', '~~~', '```ts other.ts', '')), { maxLength: 6 }).map((lines) => lines.map((l) => `${l}\n`).join(''));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(safePath, content), { maxLength: 4, selector: ([p]) => p }), (files) => {
        const kept = files.filter(([p, c]) => {
          const first = pathFromFirstLine(c.split('\n')[0] ?? '');
          return first === null || !(p === first || p.endsWith(`/${first}`));
        });
        const prompt = formatFilesForPrompt({ included: kept, omitted: [] });
        const result = parseFileBlocks(prompt);
        expect(result.files.map((f) => [f.path, f.content])).toEqual(kept.map(([p, c]) => [p, c]));
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  // Lines built to make regular expressions backtrack, or a scan restart at every line. No clock
  // here: each case's timeout is the bound (Vitest fails a synchronous test that overran it, once
  // it returns). At 200,000 characters a linear parse takes at most ~0.2 s on an idle machine and
  // a quadratic one (2e10 steps, or 1e9 line checks) minutes, so the cases tell the two apart
  // whatever else the machine is doing.
  const n = 200_000;
  const nasty = [
    `/*${'*'.repeat(n)}`,
    `\`\`\`js\n/*${'*'.repeat(n)}\n\`\`\``,
    `\`\`\`js\n/* ${'a'.repeat(n)} ${'*'.repeat(n)}\n\`\`\``,
    `\`\`\`html\n<!--${' '.repeat(n)}x\n\`\`\``,
    `\`\`\`js\n{/*${'*'.repeat(n)}\n\`\`\``,
    `\`\`\`js\n//${' '.repeat(n)}x y\n\`\`\``,
    `<file ${'path='.repeat(n / 5)}`,
    `<file path="${'a'.repeat(n)}`,
    `\`\`\`${' '.repeat(n)}x`,
    `\`\`\`ts ${'title='.repeat(n / 6)}x.ts\n\`\`\``,
    `\`\`\`ts ${'a '.repeat(n)}\n\`\`\``,
    `${'#'.repeat(n)} src/a.ts\n\`\`\`ts\nx\n\`\`\``,
    `${'**'.repeat(n / 2)}src/a.ts\n\`\`\`ts\nx\n\`\`\``,
    `- ${' ('.repeat(n / 2)}\n\`\`\`ts\nx\n\`\`\``,
    `File: ${'x -- '.repeat(n / 5)}\n\`\`\`ts\nx\n\`\`\``,
    `Now edit ${'`a.ts` '.repeat(n / 7)}:\n\`\`\`ts\nx\n\`\`\``,
    `${'```\n'.repeat(n / 4)}`,
    `${'```ts a.ts\n'.repeat(n / 10)}`,
    `${'<file path="a.ts">\n'.repeat(n / 19)}`,
    `\`\`\`${'`'.repeat(n)}`,
    `${'~'.repeat(n)}\n${'`'.repeat(n)}`,
    `\`\`\`ts src/a.ts\n${'x'.repeat(2_000_000)}\n\`\`\``,
  ];
  it.each(nasty.map((text) => [JSON.stringify(text.slice(0, 40)), text]))('parses %s in bounded time, yielding only safe paths', { timeout: 10_000 }, (_label, text) => {
    expectSafe(parseFileBlocks(text).files);
  });
});
