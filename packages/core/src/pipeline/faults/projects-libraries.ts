/**
 * Correct projects built on client libraries (see cases-libraries.ts): a generated Prisma client,
 * date-fns, lodash with @types/lodash, axios. Each runs its tests in the sandbox against the
 * fake registry's packages, and type-checks against their declarations.
 */

const tsconfig = `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src', 'test'] }, null, 2)}\n`;
const manifest = (name: string, dependencies: Record<string, string>, devDependencies: Record<string, string>, start = true) =>
  `${JSON.stringify({ name, private: true, type: 'module', scripts: { test: 'node --test test/*.test.ts', ...(start ? { start: 'node src/index.ts' } : {}) }, dependencies, devDependencies }, null, 2)}\n`;

export const LIBRARY_CLIENT_PROJECTS: Record<string, Record<string, string>> = {
  'prisma-generated-client': {
    'package.json': manifest('members', { '@prisma/client': '^6.1.0' }, { '@types/node': '^24.0.0' }),
    'tsconfig.json': tsconfig,
    'src/users.ts': `import { Prisma, PrismaClient, Role, type User } from '@prisma/client';

/** Registers a member; an e-mail that is taken is said in words, not as Prisma's P2002. */
export async function register(db: PrismaClient, input: Prisma.UserCreateInput): Promise<User> {
  try {
    return await db.user.create({ data: input });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new Error(\`\${input.email} is already registered\`);
    }
    throw error;
  }
}

export async function adminEmails(db: PrismaClient): Promise<string[]> {
  const admins = await db.user.findMany({ where: { role: Role.ADMIN }, select: { email: true } });
  return admins.map((admin) => admin.email);
}

export function displayName(user: Pick<User, 'email' | 'name'>): string {
  return user.name ?? user.email.split('@')[0]!;
}
`,
    'src/index.ts': `import { PrismaClient } from '@prisma/client';
import { adminEmails, displayName, register } from './users.js';

const db = new PrismaClient({ log: ['warn', 'error'] });
const ada = await register(db, { email: 'ada@example.com', name: 'Ada', role: 'ADMIN' });
await register(db, { email: 'bob@example.com' });
console.log(displayName(ada), await adminEmails(db), await db.user.count());
await db.$disconnect();
`,
    'test/users.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaClient } from '@prisma/client';
import { adminEmails, displayName, register } from '../src/users.js';

test('lists the admins by e-mail', async () => {
  const db = new PrismaClient();
  await register(db, { email: 'ada@example.com', role: 'ADMIN' });
  await register(db, { email: 'bob@example.com' });
  assert.deepEqual(await adminEmails(db), ['ada@example.com']);
});

test('says when an e-mail is taken', async () => {
  const db = new PrismaClient();
  await register(db, { email: 'ada@example.com' });
  await assert.rejects(register(db, { email: 'ada@example.com' }), /already registered/);
});

test('falls back to the e-mail name', () => {
  assert.equal(displayName({ email: 'bob@example.com', name: null }), 'bob');
});
`,
  },

  'date-fns-due-dates': {
    'package.json': manifest('invoices', { 'date-fns': '^4.1.0' }, { '@types/node': '^24.0.0' }),
    'tsconfig.json': tsconfig,
    'src/due.ts': `import { differenceInCalendarDays, format, isBefore, parseISO } from 'date-fns';
import { addDays } from 'date-fns/addDays';
import type { DateArg } from 'date-fns';

export interface Invoice {
  id: string;
  issued: string;
  termsDays: number;
}

export function dueDate(invoice: Invoice): Date {
  return addDays(parseISO(invoice.issued), invoice.termsDays);
}

export function daysLeft(invoice: Invoice, today: DateArg<Date>): number {
  return differenceInCalendarDays(dueDate(invoice), today);
}

export function label(invoice: Invoice, today: Date): string {
  const due = format(dueDate(invoice), 'yyyy-MM-dd');
  return isBefore(dueDate(invoice), today) ? \`\${invoice.id}: overdue since \${due}\` : \`\${invoice.id}: due \${due}\`;
}
`,
    'src/index.ts': `import { parseISO } from 'date-fns';
import { label } from './due.js';

console.log(label({ id: 'INV-1', issued: '2026-01-10', termsDays: 30 }, parseISO('2026-02-01')));
`,
    'test/due.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseISO } from 'date-fns';
import { daysLeft, label } from '../src/due.js';

const invoice = { id: 'INV-7', issued: '2026-03-01', termsDays: 14 };

test('counts the days left', () => {
  assert.equal(daysLeft(invoice, parseISO('2026-03-10')), 5);
});

test('labels overdue invoices', () => {
  assert.equal(label(invoice, parseISO('2026-03-20')), 'INV-7: overdue since 2026-03-15');
  assert.equal(label(invoice, parseISO('2026-03-02')), 'INV-7: due 2026-03-15');
});
`,
  },

  'lodash-with-types': {
    'package.json': manifest('sales-report', { lodash: '^4.17.21' }, { '@types/lodash': '^4.17.13', '@types/node': '^24.0.0' }),
    'tsconfig.json': tsconfig,
    'src/report.ts': `import _ from 'lodash';
import groupBy from 'lodash/groupBy.js';

export interface Sale {
  region: string;
  product: string;
  amount: number;
}

export function totalsByRegion(sales: Sale[]): Record<string, number> {
  const groups = groupBy(sales, 'region');
  return Object.fromEntries(Object.entries(groups).map(([region, rows]) => [region, _.sumBy(rows, (row) => row.amount)]));
}

export function topProducts(sales: Sale[], count: number): string[] {
  return _.sortBy(_.uniqBy(sales, 'product'), (sale) => -sale.amount)
    .slice(0, count)
    .map((sale) => sale.product);
}

export function pages<T>(items: T[], size: number): T[][] {
  return _.chunk(items, size);
}
`,
    'src/index.ts': `import { totalsByRegion } from './report.js';

console.log(totalsByRegion([{ region: 'north', product: 'tea', amount: 4 }, { region: 'south', product: 'tea', amount: 2 }]));
`,
    'test/report.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pages, topProducts, totalsByRegion } from '../src/report.js';

const sales = [
  { region: 'north', product: 'tea', amount: 4 },
  { region: 'north', product: 'coffee', amount: 9 },
  { region: 'south', product: 'tea', amount: 2 },
];

test('sums per region', () => {
  assert.deepEqual(totalsByRegion(sales), { north: 13, south: 2 });
});

test('ranks products and pages lists', () => {
  assert.deepEqual(topProducts(sales, 1), ['coffee']);
  assert.deepEqual(pages([1, 2, 3], 2), [[1, 2], [3]]);
});
`,
  },

  'axios-typed-client': {
    'package.json': manifest('todo-client', { axios: '^1.7.9' }, { '@types/node': '^24.0.0' }, false),
    'tsconfig.json': tsconfig,
    'src/api.ts': `import axios, { type AxiosAdapter, type AxiosInstance, type AxiosResponse } from 'axios';

export interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

export function createClient(baseURL: string, adapter?: AxiosAdapter): AxiosInstance {
  return axios.create({ baseURL, timeout: 5000, headers: { Accept: 'application/json' }, ...(adapter ? { adapter } : {}) });
}

/** The todo, or null when the server has none with that id. */
export async function fetchTodo(client: AxiosInstance, id: number): Promise<Todo | null> {
  try {
    const response: AxiosResponse<Todo> = await client.get<Todo>(\`/todos/\${id}\`);
    return response.data;
  } catch (error) {
    if (axios.isAxiosError(error) && error.response?.status === 404) return null;
    throw error;
  }
}

export async function addTodo(client: AxiosInstance, title: string): Promise<Todo> {
  const { data } = await client.post<Todo, AxiosResponse<Todo>, Omit<Todo, 'id'>>('/todos', { title, completed: false });
  return data;
}
`,
    'test/api.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AxiosAdapter } from 'axios';
import { addTodo, createClient, fetchTodo } from '../src/api.js';

// The server's answers, without a network: axios takes an adapter.
const adapter: AxiosAdapter = async (config) => {
  const found = config.url === '/todos/1';
  const data = config.method === 'post' ? { id: 2, ...config.data } : found ? { id: 1, title: 'Write tests', completed: true } : { error: 'not found' };
  return { data, status: config.method === 'post' ? 201 : found ? 200 : 404, statusText: '', headers: {}, config };
};

test('fetches a todo, and null for a missing one', async () => {
  const client = createClient('https://api.example.com', adapter);
  assert.deepEqual(await fetchTodo(client, 1), { id: 1, title: 'Write tests', completed: true });
  assert.equal(await fetchTodo(client, 5), null);
});

test('adds a todo', async () => {
  assert.deepEqual(await addTodo(createClient('https://api.example.com', adapter), 'Ship'), { id: 2, title: 'Ship', completed: false });
});
`,
  },
};
