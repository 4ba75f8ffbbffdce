/**
 * Correct projects that use popular libraries the way their docs teach: zod's `z.infer`, React
 * components in TSX, a Koa server, a generated Prisma client, date-fns, lodash and axios. Each
 * must pass the whole Proven Code gate with no repair call: a false alarm costs the user a paid
 * repair and their trust. Their packages are served by the fake registry (the real zod, React and
 * Koa of this workspace; hand-written ones shaped as the real ones for the rest), so the type
 * check meets the declarations a real install gives it.
 *
 * Two misuses follow, each a type error only the real declarations show (stand-ins type every
 * package `any`): they prove the check reads the installed packages.
 */
import type { FaultCase } from './fault-case.js';
import { LIBRARY_CLIENT_PROJECTS } from './projects-libraries.js';
import { changed, oneEdit } from './projects.js';

const tsconfig = (jsx = false) =>
  `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, allowImportingTsExtensions: true, ...(jsx ? { jsx: 'react-jsx' } : {}) }, include: ['src', 'test'] }, null, 2)}\n`;
const manifest = (name: string, scripts: Record<string, string>, dependencies: Record<string, string>, devDependencies: Record<string, string> = {}) =>
  `${JSON.stringify({ name, private: true, type: 'module', scripts, dependencies, devDependencies }, null, 2)}\n`;

/** The case: an environment schema and its inferred type. */
export const ZOD_ENV: Record<string, string> = {
  'package.json': manifest('env-config', { test: 'node --test test/*.test.ts', start: 'node src/index.ts' }, { zod: '^4.0.0' }, { '@types/node': '^24.0.0' }),
  'tsconfig.json': tsconfig(),
  'src/env.ts': `import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().positive().default(3000),
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

/** The environment, checked once: a wrong value stops the program with the names of the fields. */
export function loadEnv(source: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(\`Invalid environment: \${fields}\`);
  }
  return parsed.data;
}
`,
  'src/index.ts': `import { loadEnv, type Env } from './env.js';

const env: Env = loadEnv(process.env);
const port: number = env.PORT;
console.log(\`port \${port} (\${env.NODE_ENV}), log level \${env.LOG_LEVEL}\`);
`,
  'test/env.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEnv } from '../src/env.js';

test('fills in the defaults', () => {
  assert.deepEqual(loadEnv({}), { PORT: 3000, NODE_ENV: 'development', LOG_LEVEL: 'info' });
});

test('coerces the port', () => {
  assert.equal(loadEnv({ PORT: '8080' }).PORT, 8080);
});

test('names the wrong field', () => {
  assert.throws(() => loadEnv({ PORT: 'eighty' }), /PORT/);
});
`,
  'README.md': '# env-config\n\nReads and checks the environment with zod.\n',
};

/** React components in TSX with @types/react; a server-side render the tests run. */
export const REACT_TSX: Record<string, string> = {
  'package.json': manifest(
    'task-board',
    { test: 'node --test test/*.test.ts' },
    { react: '^19.0.0', 'react-dom': '^19.0.0' },
    { '@types/react': '^19.0.0', '@types/react-dom': '^19.0.0' },
  ),
  'tsconfig.json': tsconfig(true),
  'src/types.ts': 'export interface Task {\n  id: number;\n  title: string;\n  done: boolean;\n  tags: string[];\n}\n',
  'src/tasks.ts': `import type { Task } from './types.ts';

/** Share of the tasks done, 0 to 100. */
export function progress(tasks: readonly Task[]): number {
  return tasks.length === 0 ? 0 : Math.round((100 * tasks.filter((t) => t.done).length) / tasks.length);
}

export function toggle(tasks: readonly Task[], id: number): Task[] {
  return tasks.map((t) => (t.id === id ? { ...t, done: !t.done } : t));
}
`,
  'src/summary.ts': `import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { progress } from './tasks.ts';
import type { Task } from './types.ts';

/** The board's summary line as HTML (rendered on the server, for e-mails). */
export function summaryHtml(tasks: readonly Task[]): string {
  return renderToStaticMarkup(createElement('p', { className: 'summary' }, \`\${progress(tasks)}% done\`));
}
`,
  'src/components/TaskItem.tsx': `import type { ChangeEvent } from 'react';
import type { Task } from '../types.ts';

interface TaskItemProps {
  task: Task;
  onToggle: (id: number) => void;
}

export function TaskItem({ task, onToggle }: TaskItemProps) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    if (event.target.checked !== task.done) onToggle(task.id);
  };
  return (
    <li className={task.done ? 'done' : undefined}>
      <label>
        <input type="checkbox" checked={task.done} onChange={onChange} />
        {task.title}
      </label>
    </li>
  );
}
`,
  'src/components/TaskList.tsx': `import { useMemo, useState, type FC, type ReactNode } from 'react';
import { progress, toggle } from '../tasks.ts';
import type { Task } from '../types.ts';
import { TaskItem } from './TaskItem.tsx';

interface TaskListProps {
  initial: Task[];
  title: ReactNode;
}

export const TaskList: FC<TaskListProps> = ({ initial, title }) => {
  const [tasks, setTasks] = useState<Task[]>(initial);
  const [tag, setTag] = useState<string | null>(null);
  const visible = useMemo(() => (tag === null ? tasks : tasks.filter((t) => t.tags.includes(tag))), [tasks, tag]);
  return (
    <section>
      <h2>
        {title} ({progress(tasks)}%)
      </h2>
      <select value={tag ?? ''} onChange={(e) => setTag(e.target.value || null)}>
        <option value="">All</option>
        {[...new Set(tasks.flatMap((t) => t.tags))].map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
      <ul>
        {visible.map((task) => (
          <TaskItem key={task.id} task={task} onToggle={(id) => setTasks((all) => toggle(all, id))} />
        ))}
      </ul>
    </section>
  );
};
`,
  'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { TaskList } from './components/TaskList.tsx';

const tasks = [{ id: 1, title: 'Write the plan', done: true, tags: ['work'] }];

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <TaskList initial={tasks} title="Today" />
  </StrictMode>,
);
`,
  'test/summary.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryHtml } from '../src/summary.ts';
import { toggle } from '../src/tasks.ts';

const tasks = [
  { id: 1, title: 'a', done: true, tags: [] },
  { id: 2, title: 'b', done: false, tags: [] },
];

test('renders the share done', () => {
  assert.equal(summaryHtml(tasks), '<p class="summary">50% done</p>');
  assert.equal(summaryHtml(toggle(tasks, 2)), '<p class="summary">100% done</p>');
});
`,
};

/** A Koa server with @types/koa: typed middleware, ctx.throw, a test over HTTP. */
export const KOA_SERVER: Record<string, string> = {
  'package.json': manifest('notes-api', { test: 'node --test test/*.test.ts', start: 'node src/server.ts' }, { koa: '^3.0.0' }, { '@types/koa': '^3.0.0', '@types/node': '^24.0.0' }),
  'tsconfig.json': tsconfig(),
  'src/notes.ts': `export interface Note {
  id: number;
  text: string;
}

export class NoteStore {
  private readonly notes = new Map<number, Note>();

  add(text: string): Note {
    const note = { id: this.notes.size + 1, text };
    this.notes.set(note.id, note);
    return note;
  }

  get(id: number): Note | undefined {
    return this.notes.get(id);
  }

  list(): Note[] {
    return [...this.notes.values()];
  }
}
`,
  'src/app.ts': `import Koa, { type Context, type Next } from 'koa';
import { NoteStore } from './notes.ts';

export function createApp(store: NoteStore = new NoteStore()): Koa {
  const app = new Koa();
  app.use(async (ctx: Context, next: Next) => {
    const started = Date.now();
    await next();
    ctx.set('X-Response-Time', \`\${Date.now() - started}ms\`);
  });
  app.use(async (ctx) => {
    const match = /^\\/notes\\/(\\d+)$/.exec(ctx.path);
    if (ctx.method === 'GET' && ctx.path === '/notes') {
      ctx.body = store.list();
    } else if (ctx.method === 'GET' && match) {
      const note = store.get(Number(match[1]));
      if (!note) ctx.throw(404, 'note not found');
      ctx.body = note;
    } else {
      ctx.status = 404;
      ctx.body = { error: 'not found' };
    }
  });
  return app;
}
`,
  'src/server.ts': `import { createApp } from './app.ts';
import { NoteStore } from './notes.ts';

const store = new NoteStore();
store.add('Buy milk');
const port = Number(process.env.PORT ?? 3000);
createApp(store).listen(port, () => console.log(\`listening on http://localhost:\${port}\`));
`,
  'test/app.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.ts';
import { NoteStore } from '../src/notes.ts';

test('serves notes and a 404', async () => {
  const store = new NoteStore();
  store.add('hello');
  const server = createApp(store).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
  try {
    assert.deepEqual(await (await fetch(\`\${base}/notes/1\`)).json(), { id: 1, text: 'hello' });
    assert.equal((await fetch(\`\${base}/notes/9\`)).status, 404);
  } finally {
    server.close();
  }
});
`,
};

const correct = (id: string, files: Record<string, string>): FaultCase => ({ id, kind: 'node-ts', defect: null, files, engineFixes: false });

/** Correct projects with popular libraries: each passes clean, with no repair call. */
export const LIBRARY_CASES: FaultCase[] = [
  correct('zod-env-infer', ZOD_ENV),
  correct('react-tsx-components', REACT_TSX),
  correct('koa-server-types', KOA_SERVER),
  ...Object.entries(LIBRARY_CLIENT_PROJECTS).map(([id, files]) => correct(id, files)),
];

/** Wrong uses of a library that only its real declarations show: found by the type check, repaired in one round. */
export const LIBRARY_MISUSE_CASES: FaultCase[] = [
  {
    id: 'zod-inferred-number-as-string',
    kind: 'node-ts',
    defect: "a zod schema's inferred number is assigned to a string",
    ...oneEdit(ZOD_ENV, 'src/index.ts', 'const port: number = env.PORT;', 'const port: string = env.PORT;'),
    engineFixes: true,
    expect: /src\/index\.ts: types: TS2322/,
  },
  {
    id: 'prisma-field-not-selected',
    kind: 'node-ts',
    defect: 'reads a field the Prisma query did not select',
    ...(() => {
      const files = LIBRARY_CLIENT_PROJECTS['prisma-generated-client']!;
      const broken = files['src/users.ts']!.replace('admins.map((admin) => admin.email)', 'admins.map((admin) => admin.name)');
      if (broken === files['src/users.ts']) throw new Error('the Prisma misuse changes nothing');
      return { files: changed(files, { 'src/users.ts': broken }), fix: { files: { 'src/users.ts': files['src/users.ts']! } } };
    })(),
    engineFixes: true,
    expect: /src\/users\.ts: types: TS2339: Property 'name' does not exist/,
  },
];
