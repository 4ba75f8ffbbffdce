import { describe, expect, it } from 'vitest';
import { formatProblems, verifyProject, type VerifyProblem } from './verify.js';

/** A small but realistic React + Vite + TypeScript project, as an engine would write it. */
function reactViteProject(): Record<string, string> {
  return {
    'package.json': JSON.stringify(
      {
        name: 'todo-app',
        private: true,
        type: 'module',
        scripts: { dev: 'vite', build: 'tsc -b && vite build', test: 'vitest' },
        dependencies: { react: '^19.0.0', 'react-dom': '^19.0.0', '@tanstack/react-query': '^5.0.0' },
        devDependencies: { '@vitejs/plugin-react': '^5.0.0', vite: '^7.0.0', typescript: '^5.9.0', vitest: '^4.0.0', tailwindcss: '^4.0.0' },
      },
      null,
      2,
    ),
    'tsconfig.json': `{
  // Vite's template keeps comments and trailing commas here.
  "compilerOptions": {
    "target": "ES2022",
    "jsx": "react-jsx",
    "baseUrl": ".",
    "paths": { "@/*": ["./src/*"], },
  },
  "include": ["src"],
}
`,
    'vite.config.ts': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'url';

const root = path.dirname(fileURLToPath(import.meta.url));
export default defineConfig({ plugins: [react()], resolve: { alias: { '@': path.join(root, 'src') } } });
`,
    'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Todo</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
    'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import App from './App';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
`,
    'src/App.tsx': `import { lazy, Suspense, useState } from 'react';
import type { Todo } from './types';
import { Button } from '@/components/Button';
import { sum } from './lib/math.js';
import logo from './assets/logo.svg?url';

const About = lazy(() => import('./pages/About'));

export default function App() {
  const [todos, setTodos] = useState<Todo[]>([]);
  return (
    <main>
      <img src={logo} alt="" />
      <p>{sum(todos.length, 1)} items…</p>
      <Button onClick={() => setTodos([...todos, { id: todos.length, title: 'New' }])}>Add</Button>
      <Suspense fallback={<p>Loading...</p>}>
        <About />
      </Suspense>
    </main>
  );
}
`,
    'src/types.ts': 'export interface Todo {\n  id: number;\n  title: string;\n}\n',
    'src/components/Button.tsx': `import type { ButtonHTMLAttributes } from 'react';

export function Button(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button className="btn" {...props} />;
}
`,
    'src/lib/math.ts': 'export const sum = (...n: number[]): number => n.reduce((a, b) => a + b, 0);\n',
    'src/lib/math.test.ts': `import { expect, test } from 'vitest';
import { sum } from './math';

test('sum', () => expect(sum(1, 2)).toBe(3));
`,
    'src/pages/About/index.tsx': 'export default function About() {\n  return <p>About</p>;\n}\n',
    'src/index.css': '@import "tailwindcss";\n@import "./theme.css";\n\nbody { margin: 0; }\n',
    'src/theme.css': ':root { --brand: #646cff; }\n',
    'src/assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle r="5"/></svg>\n',
    'public/vite.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    'scripts/seed.cjs': "const fs = require('fs');\nconst { join } = require('node:path');\nfs.writeFileSync(join(__dirname, 'seed.json'), '[]');\n",
    'README.md': '# Todo\n\n```bash\nnpm install\nnpm run dev\n```\n',
    'tools/report.py': 'def main() -> None:\n    print("ok")\n',
  };
}

function problemsOf(files: Record<string, string>): VerifyProblem[] {
  return verifyProject(files).problems;
}

describe('verifyProject on a valid React + Vite project', () => {
  it('passes, and says which checks ran on which file', () => {
    const report = verifyProject(reactViteProject());
    expect(report.problems).toEqual([]);
    expect(report.passed).toBe(true);
    const checks = Object.fromEntries(report.checked.map((c) => [c.path, c.checks]));
    expect(checks['package.json']).toEqual(['json', 'package-json']);
    expect(checks['tsconfig.json']).toEqual(['json']);
    expect(checks['src/App.tsx']).toEqual(['syntax', 'imports', 'types']);
    expect(checks['src/index.css']).toEqual(['syntax', 'imports']);
    expect(checks['index.html']).toEqual(['html', 'imports']);
    expect(checks['tools/report.py']).toEqual([]);
    // Files no check reads (Markdown, SVG, Python) are named, never counted as checked.
    expect(formatProblems(report)).toBe(
      'No problems: 14 files checked (html, imports, json, package-json, syntax, types); 4 files not covered by any check (README.md, public/vite.svg, src/assets/logo.svg, tools/report.py).',
    );
  });
});

describe('verifyProject on broken projects', () => {
  it('json: reports invalid JSON with its line, but allows comments in tsconfig', () => {
    const files = { ...reactViteProject(), 'src/data.json': '{\n  "a": 1,\n  "b": 2,\n}\n', 'src/notes.json': '// no\n{}' };
    expect(problemsOf(files)).toEqual([
      { path: 'src/data.json', check: 'json', message: 'invalid JSON: expected a property name in double quotes', line: 4 },
      { path: 'src/notes.json', check: 'json', message: 'invalid JSON: comments are not allowed in JSON', line: 1 },
    ]);
  });

  it('syntax: reports the parser message and line for TS, JSX, JS and CSS', () => {
    const files = {
      ...reactViteProject(),
      'src/lib/math.ts': 'export const sum = (a: number, b: number) => {\n  return a +;\n};\n',
      'src/pages/About/index.tsx': 'export default function About() {\n  return <p>About</div>;\n}\n',
      'scripts/seed.cjs': 'const x = require("fs")\nx.(1);\n',
      'src/theme.css': ':root { --brand: #646cff; \n',
      'src/index.css': '@import "tailwindcss";\nbody { margin: 0 }\n// not a CSS comment\na { color: red }\n',
    };
    const problems = problemsOf(files).filter((p) => p.check === 'syntax');
    expect(problems).toEqual([
      { path: 'scripts/seed.cjs', check: 'syntax', message: 'Expected identifier but found "("', line: 2 },
      { path: 'src/index.css', check: 'syntax', message: 'Comments in CSS use "/* ... */" instead of "//"', line: 3 },
      { path: 'src/lib/math.ts', check: 'syntax', message: 'Unexpected ";"', line: 2 },
      { path: 'src/pages/About/index.tsx', check: 'syntax', message: 'Unexpected closing "div" tag does not match opening "p" tag', line: 2 },
      { path: 'src/theme.css', check: 'syntax', message: 'Expected "}" to go with "{"', line: 2 },
    ]);
  });

  it('imports: reports local imports that match no generated file', () => {
    const files = reactViteProject();
    files['src/App.tsx'] = `import { Button } from '@/components/Missing';\nimport { sum } from './lib/sum';\nimport data from '../../outside.json';\nexport default function App() { return <Button>{sum(data)}</Button>; }\n`;
    files['src/index.css'] = '@import "./missing.css";\n@import "theme.css";\n@import "nothere.css";\n';
    files['src/main.tsx'] = "const page = await import('./pages/Nope');\nrequire('./legacy');\nexport { page };\n";
    expect(problemsOf(files)).toEqual([
      {
        path: 'src/App.tsx',
        check: 'imports',
        message: "'@/components/Missing' does not match any generated file (alias @/* -> src/* in tsconfig.json)",
        line: 1,
      },
      {
        path: 'src/App.tsx',
        check: 'imports',
        message: "'./lib/sum' does not match any generated file (looked for src/lib/sum, src/lib/sum.{ts,tsx,js,jsx,…} or src/lib/sum/index.*)",
        line: 2,
      },
      { path: 'src/App.tsx', check: 'imports', message: "'../../outside.json' points outside the project", line: 3 },
      { path: 'src/index.css', check: 'imports', message: expect.stringContaining("'./missing.css' does not match"), line: 1 },
      { path: 'src/index.css', check: 'imports', message: "'nothere.css' does not match any generated file (looked for src/nothere.css)", line: 3 },
      { path: 'src/main.tsx', check: 'imports', message: expect.stringContaining("'./pages/Nope' does not match"), line: 1 },
      { path: 'src/main.tsx', check: 'imports', message: expect.stringContaining("'./legacy' does not match"), line: 2 },
    ]);
  });

  it('imports: checks the scripts and stylesheets a page loads', () => {
    const files = {
      ...reactViteProject(),
      'site/index.html': '<!doctype html>\n<html><head>\n<link rel="stylesheet" href="style.css">\n<link rel="stylesheet" href="https://cdn.example.com/x.css">\n</head><body>\n<script src="./app.js"></script>\n<script src="js/missing.js"></script>\n</body></html>\n',
      'site/style.css': 'body {}\n',
      'site/app.js': 'console.log(1);\n',
    };
    expect(problemsOf(files)).toEqual([
      { path: 'site/index.html', check: 'imports', message: expect.stringContaining("'js/missing.js' does not match any generated file (looked for site/js/missing.js"), line: 7 },
    ]);
  });

  it('package-json: reports packages the code imports but package.json does not declare', () => {
    const files = reactViteProject();
    files['src/lib/http.ts'] = "import axios from 'axios';\nimport { z } from 'zod/v4';\nimport { readFile } from 'fs/promises';\nimport x from '#internal/x';\nexport { axios, z, readFile, x };\n";
    files['src/lib/use-http.ts'] = "export { default } from 'axios';\nexport * from '@scope/pkg/deep/path';\n";
    expect(problemsOf(files)).toEqual([
      { path: 'package.json', check: 'package-json', message: "'axios' is imported (in src/lib/http.ts and 1 more file(s)) but not declared in dependencies or devDependencies" },
      { path: 'package.json', check: 'package-json', message: "'zod' is imported (in src/lib/http.ts) but not declared in dependencies or devDependencies" },
      { path: 'package.json', check: 'package-json', message: "'@scope/pkg' is imported (in src/lib/use-http.ts) but not declared in dependencies or devDependencies" },
    ]);
  });

  it('package-json: requires a name or "private": true and well-formed dependency maps', () => {
    const files = { ...reactViteProject(), 'package.json': JSON.stringify({ version: '1.0.0', dependencies: ['react'] }) };
    const problems = problemsOf(files).filter((p) => p.path === 'package.json');
    expect(problems.slice(0, 2)).toEqual([
      { path: 'package.json', check: 'package-json', message: 'package.json needs a "name" or "private": true' },
      { path: 'package.json', check: 'package-json', message: '"dependencies" must be an object of strings' },
    ]);
  });

  it('package-json: a project without package.json cannot import packages', () => {
    expect(problemsOf({ 'main.js': "import _ from 'lodash';\nconsole.log(_);\n" })).toEqual([
      { path: 'package.json', check: 'package-json', message: "'lodash' is imported (in main.js) but the project has no package.json to declare it" },
    ]);
  });

  it('package-json: the nearest package.json governs, workspace packages count as declared', () => {
    const files = {
      'package.json': JSON.stringify({ name: 'root', private: true, devDependencies: { typescript: '^5.0.0' } }),
      'packages/api/package.json': JSON.stringify({ name: '@acme/api', dependencies: { koa: '^3.0.0', '@acme/shared': 'workspace:*' } }),
      'packages/api/src/index.ts': "import Koa from 'koa';\nimport { x } from '@acme/shared';\nimport ts from 'typescript';\nimport { y } from '@acme/web';\nexport { Koa, x, ts, y };\n",
      'packages/shared/package.json': JSON.stringify({ name: '@acme/shared' }),
      'packages/shared/index.ts': "import Koa from 'koa';\nexport const x = Koa;\n",
      'packages/web/package.json': JSON.stringify({ name: '@acme/web' }),
    };
    expect(problemsOf(files)).toEqual([
      { path: 'packages/shared/package.json', check: 'package-json', message: "'koa' is imported (in packages/shared/index.ts) but not declared in dependencies or devDependencies" },
    ]);
  });

  it('html: reports unclosed and stray tags, an unclosed script, and text that is no page', () => {
    const files = {
      ...reactViteProject(),
      'index.html': '<!doctype html>\n<html><body>\n<div id="root">\n<section></div></section>\n<div class="x">\n<script type="module" src="/src/main.tsx"></script>\n</body></html>\n',
      'other.html': '<!doctype html>\n<html><body>\n</span>\n<script>\nconst a = "</div>";\n',
      'empty.html': 'hello\n',
    };
    expect(problemsOf(files).filter((p) => p.check === 'html')).toEqual([
      { path: 'empty.html', check: 'html', message: 'it has neither <!DOCTYPE html> nor any element, so it is not an HTML page' },
      // </div> closes the <section> inside it too, so <div id="root"> itself is balanced.
      { path: 'index.html', check: 'html', message: '<section> opened on line 4 is never closed', line: 4 },
      { path: 'index.html', check: 'html', message: '</section> on line 4 has no matching open tag', line: 4 },
      { path: 'index.html', check: 'html', message: '<div> opened on line 5 is never closed', line: 5 },
      { path: 'other.html', check: 'html', message: '</span> on line 3 has no matching open tag', line: 3 },
      { path: 'other.html', check: 'html', message: 'the file ends inside a <script>, <style>, <title> or <textarea> that is never closed', line: 6 },
    ]);
  });

  it('html: leaves tag balance to the renderer in server templates', () => {
    const files = {
      'templates/list.html': '{% extends "base.html" %}\n{% block body %}\n{% if wide %}<div class="wide">{% else %}<div>{% endif %}\n<p>{{ items|length }}</p>\n</div>\n{% endblock %}\n',
    };
    expect(problemsOf(files)).toEqual([]);
  });

  it('does not crash on odd input', () => {
    const files = {
      'a.py': 'def (:\n',
      'b.json': '',
      'c.ts': '\u0000\u0001',
      'd.html': '',
      'e.css': '@import url(',
      'f.txt': 'x',
      'package.json': '[]',
    };
    const report = verifyProject(files);
    expect(report.passed).toBe(false);
    expect(report.checked.map((c) => c.path)).toEqual(Object.keys(files).sort());
    expect(report.problems.find((p) => p.path === 'package.json')?.message).toBe('package.json must be a JSON object');
  });
});

describe('formatProblems', () => {
  it('writes one compact line per problem, with the line number when known', () => {
    const files = { ...reactViteProject(), 'src/a.ts': 'const a = 1\nlet b = x y;\n', 'src/b.json': '{"a": }' };
    expect(formatProblems(verifyProject(files))).toBe(
      ['src/a.ts: syntax: Expected ";" but found "y" (line 2)', 'src/b.json: json: invalid JSON: expected a value (line 1)'].join('\n'),
    );
  });

  it('caps the list', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`f${i}.json`] = '{';
    const text = formatProblems(verifyProject(files), 2);
    expect(text.split('\n')).toHaveLength(3);
    expect(text.endsWith('… and 3 more problems.')).toBe(true);
  });
});
