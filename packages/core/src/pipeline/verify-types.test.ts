import { beforeAll, describe, expect, it, vi } from 'vitest';
import { compiler, resetCompilerCounts } from './testing/counted-compiler.js';
import { typeCheck, typeCheckMany } from './verify-types.js';
import { verifyProject, verifyProjects } from './verify.js';

// The real compiler, its costly entry points counted (testing/counted-compiler.ts).
vi.mock('./typescript-lazy.js', async (importOriginal) => (await import('./testing/counted-compiler.js')).countedCompiler(importOriginal));

// Loading the compiler and parsing the lib files (about 0.6 s idle) happens once per process, on
// the first check: on a busy 2-core machine that took the first test past its 5 s. Paid here, with
// a hook timeout of its own, every test below starts warm.
beforeAll(() => {
  typeCheck({ 'warm-up.ts': 'export const ready = true;\n' });
}, 60_000);

/** A small React + TS project whose packages are not installed. */
function reactProject(): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'app', private: true, dependencies: { react: '^19.0.0', 'react-dom': '^19.0.0', express: '^5.0.0' } }),
    'tsconfig.json': '{\n  // comments and trailing commas, as Vite writes it\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"], }, },\n}\n',
    'src/main.tsx': `import React from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';
import './index.css';

createRoot(document.getElementById('root')!).render(<React.StrictMode><App /></React.StrictMode>);
`,
    'src/App.tsx': `import { useState, type FC, type ReactNode } from 'react';
import * as R from 'react';
import logo from './logo.svg';
import styles from './App.module.css';
import { Card } from '@/components/Card';
import type { Todo } from './types';

const Frame: FC<{ children: ReactNode }> = ({ children }) => <div className={styles.frame}>{children}</div>;

export default function App(): React.JSX.Element {
  const [todos, setTodos] = useState<Todo[]>([]);
  const onChange = (e: R.ChangeEvent<HTMLInputElement>) => setTodos([...todos, { id: todos.length, title: e.target.value }]);
  return (
    <Frame>
      <img src={logo} alt="" />
      <input onChange={onChange} />
      {todos.map((t) => <Card key={t.id} todo={t} />)}
    </Frame>
  );
}
`,
    'src/components/Card.tsx': `import type { Todo } from '../types';

export function Card({ todo }: { todo: Todo }) {
  return <p>{todo.title.toUpperCase()}</p>;
}
`,
    'src/types.ts': 'export interface Todo {\n  id: number;\n  title: string;\n}\n',
    'src/server.ts': `import express, { Request, Response } from 'express';
const app = express();
app.get('/', (req: Request, res: Response) => res.send(process.env.NAME ?? __dirname + req.url));
export default app;
`,
    'src/index.css': 'body { margin: 0; }\n',
    'src/App.module.css': '.frame { padding: 1rem; }\n',
    'src/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
  };
}

describe('typeCheck', () => {
  it('passes a valid React + TS project whose packages are not installed', () => {
    expect(typeCheck(reactProject())).toEqual([]);
    const report = verifyProject(reactProject());
    expect(report.problems).toEqual([]);
    const checks = Object.fromEntries(report.checked.map((c) => [c.path, c.checks]));
    expect(checks['src/App.tsx']).toEqual(['syntax', 'imports', 'types']);
    expect(checks['src/index.css']).toEqual(['syntax', 'imports']);
  });

  it('reports type errors with path, check and line', () => {
    const files = {
      ...reactProject(),
      'src/lib/math.ts': "export function add(a: number, b: number): number {\n  return a + b;\n}\nconst n: number = 'x';\nexport const three = add(1, 2, 3);\nexport { n };\n",
      'src/components/Card.tsx': `import type { Todo } from '../types';

export function Card({ todo }: { todo: Todo }) {
  return <p>{todo.name}</p>;
}
`,
    };
    const problems = verifyProject(files).problems;
    expect(problems).toEqual([
      { path: 'src/components/Card.tsx', check: 'types', line: 4, message: "TS2339: Property 'name' does not exist on type 'Todo'." },
      { path: 'src/lib/math.ts', check: 'types', line: 4, message: "TS2322: Type 'string' is not assignable to type 'number'." },
      { path: 'src/lib/math.ts', check: 'types', line: 5, message: 'TS2554: Expected 2 arguments, but got 3.' },
    ]);
  });

  it('checks component props across files', () => {
    const files = { ...reactProject() };
    files['src/App.tsx'] = files['src/App.tsx']!.replace('<Card key={t.id} todo={t} />', '<Card key={t.id} item={t} />');
    const problems = typeCheck(files);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'src/App.tsx', check: 'types', line: 17 });
  });

  it('resolves tsconfig paths aliases to project files', () => {
    const files = {
      ...reactProject(),
      'src/lib/format.ts': 'export function format(n: number): string {\n  return n.toFixed(2);\n}\n',
      'src/use.ts': "import { format } from '@/lib/format';\nexport const s: number = format(1);\n",
    };
    // Resolved through the alias, format() is typed; an unresolved import would be `any`.
    expect(typeCheck(files)).toEqual([
      { path: 'src/use.ts', check: 'types', line: 2, message: "TS2322: Type 'string' is not assignable to type 'number'." },
    ]);
  });

  it('skips projects without TypeScript, and TS files with syntax errors', () => {
    const js = { 'package.json': '{"name":"x"}', 'src/a.js': "const n = 1;\nn.foo();\nexport default 'x' * 2;\n" };
    expect(typeCheck(js)).toEqual([]);
    expect(verifyProject(js).checked.every((c) => !c.checks.includes('types'))).toBe(true);
    const broken = { ...reactProject(), 'src/types.ts': 'export interface Todo {\n  id: number\n' };
    const report = verifyProject(broken);
    expect(report.problems.map((p) => p.check)).toEqual(['syntax']);
    expect(report.checked.every((c) => !c.checks.includes('types'))).toBe(true);
  });

  it('caps the problems per project', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `export const v${i}: number = '${i}';`).join('\n');
    expect(typeCheck({ 'a.ts': lines })).toHaveLength(20);
  });

  it('caches results by content, parses the lib files once per process and re-parses only edited files', () => {
    const files: Record<string, string> = { ...reactProject() };
    for (let i = 0; i < 15; i++) {
      files[`src/widgets/Widget${i}.tsx`] = `import { useState } from 'react';
import type { Todo } from '../types';
import { Card } from '../components/Card';

export interface Widget${i}Props { todos: Todo[]; label: string }

export function Widget${i}({ todos, label }: Widget${i}Props) {
  const [open, setOpen] = useState(false);
  const visible = todos.filter((t) => t.title.includes(label)).slice(0, ${i + 1});
  return (
    <section onClick={() => setOpen(!open)}>
      <h2>{label.toUpperCase()} ({visible.length})</h2>
      {open && visible.map((t) => <Card key={t.id} todo={t} />)}
    </section>
  );
}
`;
    }
    expect(Object.keys(files).filter((p) => /\.tsx?$/.test(p)).length).toBeGreaterThanOrEqual(20);
    typeCheck(reactProject()); // lib files parsed and bound once per process, by the beforeAll at the latest
    const widgets = Object.keys(files).filter((p) => p.startsWith('src/widgets/')).map((p) => `/${p}`);

    resetCompilerCounts();
    const first = typeCheck(files);
    expect(first).toEqual([]);
    // One program; the new files parsed, no lib file (those are shared by every program).
    expect(compiler.programs).toBe(1);
    expect(compiler.parsed).toEqual(expect.arrayContaining(widgets));
    expect(compiler.parsed.filter((name) => name.startsWith('/__wolfpack_lib__/') || name.startsWith('/__wolfpack_stub__/ambient'))).toEqual([]);

    resetCompilerCounts();
    const second = typeCheck(files);
    expect(second).toEqual(first);
    // Served from the result cache: no program built, nothing parsed.
    expect(compiler).toEqual({ programs: 0, parsed: [] });

    files['src/widgets/Widget0.tsx'] = files['src/widgets/Widget0.tsx']!.replace('label.toUpperCase()', 'label.toFixed()');
    resetCompilerCounts();
    const edited = typeCheck(files);
    expect(edited).toEqual([expect.objectContaining({ path: 'src/widgets/Widget0.tsx', line: 12, message: expect.stringContaining("'toFixed' does not exist") })]);
    // Checked again, but only the edited file parsed again.
    expect(compiler).toEqual({ programs: 1, parsed: ['/src/widgets/Widget0.tsx'] });
  });

  describe('typeCheckMany', () => {
    // Fresh content per run: results are cached by content, and these must really be checked.
    const tag = () => `// ${Math.random()}\n`;
    const mathModule = (body: string) => ({
      'src/math.ts': `${tag()}export function add(a: number, b: number): number {\n  return a + b;\n}\n${body}`,
      'src/main.ts': "import { add } from './math.js';\nimport { z } from 'zod';\n\nconsole.log(add(1, 2), z);\n",
    });

    it('gives every project exactly what checking it alone gives, whatever shares the program', () => {
      const projects: Record<string, string>[] = [
        mathModule('export const ok = add(1, 2);\n'),
        // The same export with another type: modules do not see each other.
        mathModule("export const ok: string = add(1, 2);\n"),
        // A name another project's module exports is still missing here.
        mathModule("import { ok } from './main.js';\nexport const n: number = ok;\n"),
        // A script: its names are global, so it must not share a program with the others ...
        { 'src/helper.ts': `${tag()}function helper(): number {\n  return 1;\n}\n` },
        // ... where it would hide this unknown name.
        { 'src/use.ts': `${tag()}export const value = helper();\n` },
        // `declare global` and ambient modules reach every file of a program.
        { 'src/globals.ts': `${tag()}declare global {\n  interface Window { appVersion: string }\n}\nexport {};\n`, 'src/read.ts': 'export const v: number = window.appVersion;\n' },
        { 'src/window.ts': `${tag()}export const v: string = window.appVersion;\n` },
        // Different packages: different stubs.
        { 'src/a.tsx': `${tag()}import { useState } from 'react';\nexport function A() {\n  const [n] = useState(0);\n  return <p>{n.toFixed(1)}</p>;\n}\n` },
      ];
      const together = typeCheckMany(projects);
      // Same contents again with fresh tags cannot be compared by value; the same objects through
      // the cache would not be checked. So each project alone, with its tag changed, must give the
      // same problems (paths and messages, line numbers included: tags are one line each).
      const retagged = projects.map((files) => Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replace(/^\/\/ [\d.e-]+\n/, tag())])));
      const alone = retagged.map((files) => typeCheck(files));
      expect(together).toEqual(alone);
      expect(together[0]).toEqual([]);
      expect(together[1]).toEqual([expect.objectContaining({ path: 'src/math.ts', message: expect.stringContaining("Type 'number' is not assignable to type 'string'") })]);
      expect(together[2]).toEqual([expect.objectContaining({ path: 'src/math.ts', message: expect.stringContaining("has no exported member 'ok'") })]);
      expect(together[3]).toEqual([]);
      expect(together[4]).toEqual([expect.objectContaining({ path: 'src/use.ts', message: expect.stringContaining("Cannot find name 'helper'") })]);
      expect(together[5]).toEqual([expect.objectContaining({ path: 'src/read.ts', message: expect.stringContaining("Type 'string' is not assignable to type 'number'") })]);
      expect(together[6]).toEqual([expect.objectContaining({ path: 'src/window.ts', message: expect.stringContaining("Property 'appVersion' does not exist") })]);
      expect(together[7]).toEqual([]);
    });

    it('answers verifyProjects with the reports verifyProject gives one by one', () => {
      const projects: Record<string, string>[] = [mathModule(''), mathModule('export const bad: string = 1;\n'), { 'src/x.ts': 'export const = ;\n' }, { 'README.md': '# hi\n' }];
      const reports = verifyProjects(projects);
      expect(reports).toHaveLength(4);
      expect(reports.map((r) => r.passed)).toEqual([false, false, false, true]);
      // zod is imported without a package.json declaring it.
      expect(reports[0]!.problems.map((p) => p.check)).toEqual(['package-json']);
      expect(reports[1]!.problems.map((p) => `${p.path} ${p.check} ${p.line}`)).toEqual(['package.json package-json undefined', 'src/math.ts types 5']);
      expect(reports[2]!.problems.map((p) => p.check)).toEqual(['syntax']);
      expect(reports[2]!.checked).toEqual([{ path: 'src/x.ts', checks: ['syntax'] }]);
      expect(reports[1]!.checked.find((c) => c.path === 'src/math.ts')!.checks).toEqual(['syntax', 'imports', 'types']);
      for (const [i, files] of projects.entries()) expect(verifyProject(files)).toEqual(reports[i]);
    });
  });
});
