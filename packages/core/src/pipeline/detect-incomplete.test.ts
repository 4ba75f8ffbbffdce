import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectIncomplete, isPlaceholderComment } from './detect-incomplete.js';

const check = (path: string, content: string): string | null => detectIncomplete({ path, content });

describe('detectIncomplete: placeholders', () => {
  it.each([
    ['src/a.ts', 'import x from "x";\n\n// rest of code unchanged\n'],
    ['src/a.ts', 'export function a() {\n  // ... existing code ...\n}\n'],
    ['src/a.ts', 'const a = [1, 2 /* ... */];\n'],
    ['src/a.tsx', 'export const A = () => (\n  <div>\n    {/* ... */}\n  </div>\n);\n'],
    ['src/a.ts', 'class A {\n  // TODO: implement the rest\n}\n'],
    ['src/a.ts', 'class A {\n  // other methods here\n}\n'],
    ['src/a.ts', 'const routes = [\n  // ...other routes\n];\n'],
    ['src/a.ts', 'function f() {\n  // Existing implementation remains the same\n}\n'],
    ['src/a.ts', '// Keep existing imports\nexport {};\n'],
    ['src/a.ts', 'function f() {\n  // implementation goes here\n}\n'],
    ['src/a.ts', 'function f() {\n  /* code omitted for brevity */\n}\n'],
    ['src/a.ts', 'function f() {\n  /**\n   * ... rest of the component\n   */\n}\n'],
    ['src/a.ts', 'function f() {\n  ... (remaining code)\n}\n'],
    ['src/a.js', 'function f() {\n  ...\n}\n'],
    ['src/a.js', 'function f() {\n  …\n}\n'],
    ['app.py', 'def main():\n    pass\n\n# ... rest of the file\n'],
    ['app.py', 'class A:\n    def f(self):\n        ...\n'],
    ['styles.css', '.a { color: red; }\n/* rest of styles */\n'],
    ['index.html', '<!doctype html>\n<html><body>\n<!-- ... -->\n</body></html>\n'],
    ['config.yml', 'a: 1\n# ... existing config\n'],
    ['main.go', 'package main\n\nfunc main() {\n\t// ... same as before\n}\n'],
    ['App.vue', '<template>\n  <div/>\n</template>\n<script setup>\n// ... existing code\n</script>\n'],
  ])('flags a placeholder in %s: %j', (path, content) => {
    expect(check(path, content)).toMatch(/placeholder|only "\.\.\."/);
  });

  it('says which line and what it found', () => {
    expect(check('src/a.ts', 'const a = 1;\n  // ... existing code ...\n')).toBe(
      'line 2 is a placeholder ("// ... existing code ...") instead of real code; write the complete file',
    );
    expect(check('src/a.js', 'function f() {\n  ...\n}\n')).toBe('line 2 is only "..." where code was left out; write the complete file');
  });

  it.each([
    ['spread and rest syntax', 'src/a.ts', 'export function f(...args: number[]) {\n  const { a, ...rest } = obj;\n  return [...args, ...rest];\n}\n'],
    ['spread props in JSX', 'src/a.tsx', 'export const A = (props: P) => (\n  <B\n    {...props}\n  />\n);\n'],
    ['ellipsis text in JSX', 'src/a.tsx', 'export const A = () => (\n  <p>\n    …\n  </p>\n);\n'],
    ['loading text', 'src/a.tsx', 'export const A = () => <p>Loading...</p>;\n'],
    ['placeholder words in a string', 'src/a.ts', 'export const hint = "// rest of code unchanged";\nexport const t = `\n// ... existing code ...\n...\n`;\n'],
    ['ordinary comments', 'src/a.ts', '// Keeps the rest of the UI responsive while loading.\n// TODO: cache results\n// See https://example.com/docs/...\nexport {};\n'],
    ['ellipsis mid-comment', 'src/a.ts', '// Wait for the server to answer... then retry.\nexport {};\n'],
    ['a long comment quoting a placeholder', 'src/app.js', '// Your previous answer was incomplete (line 2 is a placeholder ("// rest of code unchanged") instead of real code)\nexport {};\n'],
    ['comment about spread', 'src/a.ts', '// ...args are forwarded untouched\nexport {};\n'],
    ['Python stub ellipsis', 'types.pyi', 'class A:\n    def f(self) -> int:\n        ...\n'],
    ['Python ellipsis on the def line', 'app.py', 'class P(Protocol):\n    def f(self) -> int: ...\n'],
    ['Python doctest', 'app.py', 'def f():\n    """\n    >>> for x in y:\n    ...     print(x)\n    ...\n    """\n    return 1\n'],
    ['Markdown ellipsis', 'README.md', '# App\n\nSteps:\n\n...\n\nMore to come…\n'],
    ['plain text ellipsis', 'notes.txt', '...\n'],
    ['YAML document end', 'a.yml', 'a: 1\n...\n'],
    ['JSON', 'package.json', '{ "name": "x", "scripts": { "dev": "vite" } }\n'],
    ['regex with brackets', 'src/a.js', 'const re = /[({]/;\nexport default re;\n'],
    ['template literal with braces', 'src/a.ts', 'export const css = `a { color: ${"red"}; }`;\n'],
    ['Rust lifetimes', 'src/lib.rs', "pub fn first<'a>(s: &'a str) -> &'a str {\n    let c = '{';\n    &s[..1]\n}\n"],
    ['CSS url with //', 'a.scss', '.a { background: url(http://x.com/a.png); }\n'],
    ['Go raw string', 'main.go', 'package main\n\nvar s = `{\n(`\n\nfunc main() {}\n'],
  ])('accepts %s', (_name, path, content) => {
    expect(check(path, content)).toBeNull();
  });
});

describe('detectIncomplete: cut-off output', () => {
  it('trusts the parser: a block without its closing fence is never complete', () => {
    expect(detectIncomplete({ path: 'src/a.ts', content: 'export const a = 1;\n', truncated: true })).toMatch(/cut off/);
  });

  it.each([
    ['src/a.ts', 'export function a() {\n  if (x) {\n    return 1;\n'],
    ['src/a.tsx', 'export const A = () => (\n  <div>\n'],
    ['src/a.ts', 'const s = `unfinished template\n'],
    ['src/a.ts', 'const a = 1;\n/* a comment that never'],
    ['package.json', '{\n  "name": "x",\n  "dependencies": {\n    "react": "^19.0.0"\n'],
    ['app.py', 'def f():\n    return {\n        "a": 1,\n'],
    ['app.py', 'def f():\n    """Docstring that never\n'],
    ['styles.css', '.a {\n  color: red;\n'],
    ['main.go', 'package main\n\nfunc main() {\n'],
    ['schema.sql', 'CREATE TABLE a (\n  id INT\n'],
    ['README.md', '# App\n\n```bash\nnpm install\n'],
    ['index.html', '<!doctype html>\n<html>\n<body>\n<div>\n'],
    ['App.vue', '<template>\n  <div>{{ a }}</div>\n</template>\n<script setup>\nconst a = 1\n'],
  ])('flags %s ending mid-code', (path, content) => {
    expect(check(path, content)).toMatch(/cut off|never closed/);
  });

  it('points at the opener', () => {
    expect(check('styles.css', '.a {\n  color: red;\n}\n.b {\n  color: blue;\n')).toBe(
      'it ends with 1 unclosed bracket (the last "{" opened on line 4): the output was cut off',
    );
  });

  it('leaves complete files alone', () => {
    expect(check('src/a.ts', 'export function a() {\n  return { b: [1, 2, (3)] };\n}\n')).toBeNull();
    expect(check('README.md', '# App\n\n```bash\nnpm i\n```\n')).toBeNull();
    expect(check('app.py', 'def f():\n    return {"a": [1, (2)]}\n')).toBeNull();
    expect(check('index.html', '<!doctype html>\n<html><body><script>if (a) {</script></body></html>\n')).toBeNull();
  });
});

describe('isPlaceholderComment', () => {
  it.each(['...', ' … ', '... existing code ...', '...rest of file', 'rest of the component', 'Rest unchanged', 'unchanged', 'same as before', 'more routes ...'])(
    'flags %j',
    (text) => expect(isPlaceholderComment(text)).toBe(true),
  );
  it.each(['', 'Loading...', 'TODO: add tests', 'eslint-disable-next-line', 'keep in sync with the server', 'type: ignore[...]', '...args forwarded'])(
    'accepts %j',
    (text) => expect(isPlaceholderComment(text)).toBe(false),
  );
});

describe('detectIncomplete: robustness', () => {
  it('never throws on any content, for every language family (property)', () => {
    const paths = fc.constantFrom('a.ts', 'a.tsx', 'a.py', 'a.rs', 'a.go', 'a.css', 'a.scss', 'a.json', 'tsconfig.json', 'a.sql', 'a.php', 'a.yml', 'a.html', 'a.vue', 'a.md', 'a.txt', 'Dockerfile');
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('{', '}', '(', ')', '[', ']', '"', "'", '`', '${', '/*', '*/', '//', '#', '"""', '/', '\\', '\n', '...', '<!--', '-->', '<script>'));
    const content = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(paths, content, (path, text) => {
        const reason = detectIncomplete({ path, content: text });
        expect(reason === null || typeof reason === 'string').toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
