import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_BLOCK_INSTRUCTIONS, formatFileBlock, parseFileBlocks } from './file-blocks.js';
import { sanitizePath } from './safe-path.js';

const FENCE = '```';

/** The single file an answer yields; fails the test when there is not exactly one. */
function only(text: string): { path: string; content: string; language?: string } {
  const { files } = parseFileBlocks(text);
  expect(files).toHaveLength(1);
  const file = files[0];
  if (!file) throw new Error('no file');
  return file;
}

describe('parseFileBlocks: the own format', () => {
  it('reads ```lang path blocks between prose', () => {
    const answer = [
      'Here is the project.',
      '',
      `${FENCE}ts src/a.ts`,
      'export const a = 1;',
      FENCE,
      '',
      'And a second file:',
      `${FENCE}json package.json`,
      '{ "name": "x" }',
      FENCE,
      'Done!',
    ].join('\n');
    const result = parseFileBlocks(answer);
    expect(result.files).toEqual([
      { path: 'src/a.ts', content: 'export const a = 1;\n', language: 'ts' },
      { path: 'package.json', content: '{ "name": "x" }\n', language: 'json' },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.truncated).toBe(false);
  });

  it('keeps extensionless paths that have a folder, and dotfiles', () => {
    const result = parseFileBlocks(`${FENCE}sh bin/run\necho hi\n${FENCE}\n${FENCE}text .env.example\nA=1\n${FENCE}\n`);
    expect(result.files.map((f) => f.path)).toEqual(['bin/run', '.env.example']);
  });

  it.each(['Dockerfile', '.env', 'bin/run', 'LICENSE', '.github/workflows/ci.yml', 'src/types.d.ts', 'app/[id]/page.tsx'])('round-trips formatFileBlock for %s', (path) => {
    expect(only(formatFileBlock(path, 'x\n'))).toMatchObject({ path, content: 'x\n' });
  });

  it('round-trips formatFileBlock, also for content with its own fences', () => {
    const readme = `# Demo\n\n${FENCE}bash\nnpm start\n${FENCE}\n\n${'````'}\nfour\n${'````'}\n`;
    const text = formatFileBlock('README.md', readme);
    expect(text.startsWith('`````markdown README.md\n')).toBe(true);
    expect(only(text)).toMatchObject({ path: 'README.md', content: readme });
  });

  it('round-trips any content ending in a newline (property)', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
    const path = fc
      .tuple(fc.array(segment, { maxLength: 3 }), segment, fc.constantFrom('ts', 'md', 'py', 'json', 'css'))
      .map(([dirs, base, ext]) => [...dirs, `${base}.${ext}`].join('/'))
      // Not `con/x.ts` or `com0.ts`: Windows device names are refused, as they should be.
      .filter((p) => sanitizePath(p).ok);
    const line = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constantFrom('```', '````js', '~~~', '```ts other.ts', '<file path="x.ts">', '</file>'));
    const content = fc.array(line, { maxLength: 8 }).map((lines) => lines.map((l) => `${l}\n`).join(''));
    fc.assert(
      fc.property(path, content, (p, c) => {
        const result = parseFileBlocks(`Intro text\n\n${formatFileBlock(p, c)}\nOutro`);
        expect(result.files).toEqual([expect.objectContaining({ path: p, content: c })]);
        expect(result.truncated).toBe(false);
      }),
    );
  });

  it('documents the format it parses', () => {
    const example = FILE_BLOCK_INSTRUCTIONS.split('\n').slice(1, 4).join('\n');
    expect(only(example).path).toBe('src/app.ts');
  });
});

describe('parseFileBlocks: other ways models name files', () => {
  it.each([
    ['title="…"', `${FENCE}ts title="src/a.ts"`],
    ["title='…'", `${FENCE}ts title='src/a.ts'`],
    ['file=', `${FENCE}ts file=src/a.ts`],
    ['filename=', `${FENCE}typescript filename="src/a.ts"`],
    ['path=', `${FENCE}ts path=src/a.ts`],
    ['braces', `${FENCE}ts {filename="src/a.ts"}`],
    ['lang:path', `${FENCE}ts:src/a.ts`],
    ['path alone', `${FENCE}src/a.ts`],
    ['lang + path + label', `${FENCE}ts file: src/a.ts`],
  ])('info string %s', (_name, opener) => {
    expect(only(`Text\n${opener}\nconst a = 1;\n${FENCE}\n`)).toMatchObject({ path: 'src/a.ts', content: 'const a = 1;\n' });
  });

  it('ignores a display title that is not a file', () => {
    const result = parseFileBlocks(`${FENCE}ts title="Example usage"\nfoo();\n${FENCE}\n`);
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'missing-path' })]);
  });

  it.each([
    'src/a.ts',
    '`src/a.ts`',
    '**src/a.ts**',
    '**`src/a.ts`**',
    '**src/a.ts:**',
    '### src/a.ts',
    '### File: src/a.ts',
    '## 2. `src/a.ts`',
    '#### `src/a.ts` (new file)',
    '// src/a.ts',
    'File: src/a.ts',
    'Filename: `src/a.ts`',
    '- src/a.ts:',
    '* `src/a.ts`',
    '1. src/a.ts',
    '> src/a.ts',
    '<!-- src/a.ts -->',
    'src/a.ts — the entry point',
    'Now create `src/a.ts`:',
  ])('path line before the fence: %s', (header) => {
    expect(only(`Some intro.\n\n${header}\n${FENCE}typescript\nconst a = 1;\n${FENCE}\n`)).toMatchObject({
      path: 'src/a.ts',
      content: 'const a = 1;\n',
      language: 'typescript',
    });
  });

  it('allows a blank line between the path line and the fence', () => {
    expect(only(`**src/a.ts**\n\n${FENCE}ts\nx;\n${FENCE}`).path).toBe('src/a.ts');
  });

  it('does not take prose mentions or product names for paths', () => {
    for (const header of ['Next.js', '### Node.js', 'Run `npm install` in the folder:', 'Open `index.html` in your browser:']) {
      const result = parseFileBlocks(`${header}\n${FENCE}bash\nnpm install\n${FENCE}\n`);
      expect(result.files, header).toEqual([]);
    }
  });

  it('does not reuse a path line that belongs to an earlier block', () => {
    const result = parseFileBlocks(`### src/a.ts\n${FENCE}ts\na;\n${FENCE}\n${FENCE}ts\nb;\n${FENCE}\n`);
    expect(result.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'missing-path', message: expect.stringMatching(/^1 code block had no file path/) })]);
  });

  it.each([
    ['// src/a.ts', 'src/a.ts'],
    ['// File: src/a.ts', 'src/a.ts'],
    ['# path: app.py', 'app.py'],
    ['# app.py', 'app.py'],
    ['<!-- index.html -->', 'index.html'],
    ['/* styles/main.css */', 'styles/main.css'],
    ['-- db/schema.sql', 'db/schema.sql'],
  ])('first-line path comment %s is the path and is removed', (comment, path) => {
    const file = only(`${FENCE}\n${comment}\n\nbody\n${FENCE}\n`);
    expect(file).toMatchObject({ path, content: 'body\n' });
  });

  it('keeps a first-line comment that is not a path', () => {
    const file = only(`${FENCE}ts src/a.ts\n// Entry point\nx;\n${FENCE}`);
    expect(file.content).toBe('// Entry point\nx;\n');
  });

  it('strips a first-line comment that repeats the (shorter) path; the header gives the folder', () => {
    const file = only(`### src/utils.py\n${FENCE}python\n# utils.py\ndef f(): pass\n${FENCE}`);
    expect(file).toMatchObject({ path: 'src/utils.py', content: 'def f(): pass\n' });
  });

  it('reads <file> tags, with or without an inner fence', () => {
    const answer = [
      '<file path="src/a.ts">',
      'export const a = 1;',
      '</file>',
      "<file name='src/b.ts'>",
      `${FENCE}ts`,
      'export const b = 2;',
      FENCE,
      '</file>',
      '<file path="one.txt">inline</file>',
    ].join('\n');
    expect(parseFileBlocks(answer).files).toEqual([
      { path: 'src/a.ts', content: 'export const a = 1;\n' },
      { path: 'src/b.ts', content: 'export const b = 2;\n', language: 'ts' },
      { path: 'one.txt', content: 'inline\n' },
    ]);
  });

  it('marks an unclosed <file> tag as truncated', () => {
    const result = parseFileBlocks('<file path="src/a.ts">\nexport const a =');
    expect(result.truncated).toBe(true);
    expect(result.files[0]).toMatchObject({ path: 'src/a.ts', truncated: true });
  });
});

describe('parseFileBlocks: tolerance', () => {
  it('handles CRLF line endings', () => {
    const file = only(`Intro\r\n${FENCE}ts src/a.ts\r\nconst a = 1;\r\nconst b = 2;\r\n${FENCE}\r\n`);
    expect(file.content).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('accepts ~~~ and longer fences; a fence closes only with the same character and length', () => {
    const answer = `~~~py app.py\nprint("${FENCE}")\n${FENCE}\n~~~\n${'````'}md README.md\n${FENCE}js\nx()\n${FENCE}\n${'````'}\n`;
    const { files } = parseFileBlocks(answer);
    expect(files).toEqual([
      { path: 'app.py', content: `print("${FENCE}")\n${FENCE}\n`, language: 'py' },
      { path: 'README.md', content: `${FENCE}js\nx()\n${FENCE}\n`, language: 'md' },
    ]);
  });

  it('matches a nested ```lang block inside a ``` README instead of closing early', () => {
    const readme = `# App\n\nInstall:\n\n${FENCE}bash\nnpm install\n${FENCE}\n\nThen run it.\n`;
    const answer = `${FENCE}markdown README.md\n${readme}${FENCE}\n\n${FENCE}ts src/a.ts\na;\n${FENCE}\n`;
    const { files, truncated } = parseFileBlocks(answer);
    expect(files).toEqual([
      { path: 'README.md', content: readme, language: 'markdown' },
      { path: 'src/a.ts', content: 'a;\n', language: 'ts' },
    ]);
    expect(truncated).toBe(false);
  });

  it('dedents a fence indented under a list item', () => {
    const file = only(`1. \`src/a.py\`\n   ${FENCE}python\n   def f():\n       return 1\n   ${FENCE}\n`);
    expect(file.content).toBe('def f():\n    return 1\n');
  });

  it('marks a block whose closing fence is missing as truncated', () => {
    const result = parseFileBlocks(`${FENCE}ts src/a.ts\nexport const a = 1;\n${FENCE}\n${FENCE}ts src/b.ts\nexport function b() {\n  return`);
    expect(result.truncated).toBe(true);
    expect(result.files).toEqual([
      { path: 'src/a.ts', content: 'export const a = 1;\n', language: 'ts' },
      { path: 'src/b.ts', content: 'export function b() {\n  return\n', language: 'ts', truncated: true },
    ]);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'truncated', path: 'src/b.ts' })]);
  });

  it('treats the next file header inside an unclosed code block as the end of a cut-off block', () => {
    const result = parseFileBlocks(`${FENCE}ts src/a.ts\nexport const a = {\n${FENCE}ts src/b.ts\nexport const b = 1;\n${FENCE}\n`);
    expect(result.files).toEqual([
      { path: 'src/a.ts', content: 'export const a = {\n', language: 'ts', truncated: true },
      { path: 'src/b.ts', content: 'export const b = 1;\n', language: 'ts' },
    ]);
  });

  it('reports truncation inside a block without a path', () => {
    const result = parseFileBlocks(`${FENCE}\nsome code`);
    expect(result.truncated).toBe(true);
    expect(result.problems.map((p) => p.kind).sort()).toEqual(['missing-path', 'truncated']);
  });

  it('keeps the later block for a repeated path and warns', () => {
    const result = parseFileBlocks(`${FENCE}ts src/a.ts\nold\n${FENCE}\n${FENCE}ts ./src//a.ts\nnew\n${FENCE}\n`);
    expect(result.files).toEqual([{ path: 'src/a.ts', content: 'new\n', language: 'ts' }]);
    expect(result.problems).toEqual([
      { kind: 'duplicate-path', path: 'src/a.ts', message: 'src/a.ts was written 2 times; the last version was kept.' },
    ]);
  });

  it('counts code blocks without a path', () => {
    const result = parseFileBlocks(`${FENCE}bash\nnpm i\n${FENCE}\ntext\n${FENCE}\nplain\n${FENCE}\n`);
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'missing-path', message: expect.stringMatching(/^2 code blocks had no file path/) })]);
  });

  it('turns unsafe paths into problems, not files', () => {
    const result = parseFileBlocks(`${FENCE}sh ../../etc/passwd\nx\n${FENCE}\n<file path="/etc/hosts">y</file>\n${FENCE}ts title="C:\\\\a.ts"\nz\n${FENCE}\n`);
    expect(result.files).toEqual([]);
    expect(result.problems.map((p) => p.kind)).toEqual(['unsafe-path', 'unsafe-path', 'unsafe-path']);
    expect(result.problems[0]?.message).toContain('".."');
  });

  it('yields nothing from prose alone', () => {
    expect(parseFileBlocks('No code here, just `inline` and ```inline fences```.')).toEqual({ files: [], problems: [], truncated: false, operations: [] });
  });
});

describe('parseFileBlocks: hostile paths (property)', () => {
  it('never throws, and every path it yields is already sanitised, for any answer', () => {
    const token = fc.constantFrom('```', '````', '~~~', '```ts ', '<file path="', '">', '</file>', '### ', '**', '`', '// ', '\n', '\r\n', ' ', 'src/a.ts', '../x.ts', '/abs.ts', 'C:\\x.ts', 'title="', 'README.md', '...');
    const answer = fc.array(fc.oneof(token, fc.string({ maxLength: 5 })), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(answer, (text) => {
        const result = parseFileBlocks(text);
        for (const file of result.files) expect(sanitizePath(file.path)).toEqual({ ok: true, path: file.path });
        expect(new Set(result.files.map((f) => f.path)).size).toBe(result.files.length);
      }),
      { numRuns: 1000 },
    );
  });

  const hostile = fc.oneof(
    fc.constantFrom('..', '../x.ts', 'a/../../b.ts', '/etc/passwd', '\\\\server\\share.ts', 'C:\\a.ts', 'c:/a.ts', 'a\\b.ts', 'a\0b.ts', 'a\u0001.ts', '.git/config', 'src/.git/hooks/x.sh', 'CON.ts', 'x/nul.txt'),
    fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom('..', '/', '\\', 'C:', '\0', '\u001f', '\u007f'), fc.string({ maxLength: 6 })).map(([a, bad, b]) => `${a}${bad}${b}.ts`),
  );
  const wrappers: ((path: string) => string)[] = [
    (p) => `${FENCE}ts ${p}\nx\n${FENCE}`,
    (p) => `${FENCE}ts title="${p}"\nx\n${FENCE}`,
    (p) => `${FENCE}ts title='${p}'\nx\n${FENCE}`,
    (p) => `### ${p}\n${FENCE}ts\nx\n${FENCE}`,
    (p) => `**${p}**\n${FENCE}ts\nx\n${FENCE}`,
    (p) => `${FENCE}\n// ${p}\nx\n${FENCE}`,
    (p) => `<file path="${p}">x</file>`,
    (p) => `<file path='${p}'>\nx\n</file>`,
  ];

  it('never yields a path that escapes, is absolute, or holds backslashes, drive letters or control characters', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom(...wrappers), (path, wrap) => {
        for (const file of parseFileBlocks(wrap(path)).files) {
          expect(file.path.split('/')).not.toContain('..');
          expect(file.path.startsWith('/')).toBe(false);
          expect(file.path).not.toMatch(/\\|^[a-zA-Z]:|[\u0000-\u001f\u007f]/);
          expect(file.path.split('/').map((s) => s.toLowerCase())).not.toContain('.git');
        }
      }),
      { numRuns: 500 },
    );
  });
});
