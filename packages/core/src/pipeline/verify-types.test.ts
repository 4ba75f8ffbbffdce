import { describe, expect, it } from 'vitest';
import { typeCheck } from './verify-types.js';
import { verifyProject } from './verify.js';

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

  it('caches results by content, and a 20-file project checks well under a second warm', () => {
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
    typeCheck(reactProject()); // warm-up: lib files parsed and bound once per process
    let start = performance.now();
    const first = typeCheck(files);
    const cold = performance.now() - start;
    start = performance.now();
    const second = typeCheck(files);
    const cached = performance.now() - start;
    files['src/widgets/Widget0.tsx'] = files['src/widgets/Widget0.tsx']!.replace('label.toUpperCase()', 'label.toFixed()');
    start = performance.now();
    const edited = typeCheck(files);
    const afterEdit = performance.now() - start;
    console.log(`typeCheck, 20+ TS files: first ${cold.toFixed(0)} ms, cached ${cached.toFixed(2)} ms, after one edit ${afterEdit.toFixed(0)} ms`);
    expect(first).toEqual([]);
    expect(second).toEqual(first);
    expect(cached).toBeLessThan(cold);
    expect(edited).toEqual([expect.objectContaining({ path: 'src/widgets/Widget0.tsx', line: 12, message: expect.stringContaining("'toFixed' does not exist") })]);
    expect(cold).toBeLessThan(1000);
    expect(afterEdit).toBeLessThan(1000);
  });
});
