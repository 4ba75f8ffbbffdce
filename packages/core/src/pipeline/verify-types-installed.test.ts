/**
 * The type check against installed packages (see installed-packages.ts): real declarations read
 * from a node_modules folder as the execution gate leaves it. The folder here is laid out without
 * npm: the workspace's real zod, React and Koa (with their @types) copied as they are, and
 * hand-written packages shaped as Prisma's generated client, date-fns, @types/lodash and axios.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compiler, resetCompilerCounts } from './testing/counted-compiler.js';
import { HAND_WRITTEN_LIBRARIES, writeLibraryNodeModules } from '../proof/testing/library-packages.js';
import { LIBRARY_CASES, LIBRARY_MISUSE_CASES, REACT_TSX, ZOD_ENV } from './faults/cases-libraries.js';
import { typeCheck } from './verify-types.js';

// The real compiler, its costly entry points counted (testing/counted-compiler.ts).
vi.mock('./typescript-lazy.js', async (importOriginal) => (await import('./testing/counted-compiler.js')).countedCompiler(importOriginal));

const scratch = mkdtempSync(join(tmpdir(), 'wolfpack-installed-types-'));
/** Everything the corpus installs. */
const installed = join(scratch, 'all', 'node_modules');
/** Only runtimes: lodash without @types/lodash, beside date-fns with its own types. */
const untyped = join(scratch, 'untyped', 'node_modules');

beforeAll(() => {
  writeLibraryNodeModules(installed);
  writeLibraryNodeModules(untyped, [], { lodash: HAND_WRITTEN_LIBRARIES['lodash']!, 'date-fns': HAND_WRITTEN_LIBRARIES['date-fns']! });
  // Warm: the compiler loaded and the lib files parsed, as in any process after its first check.
  typeCheck({ 'warm-up.ts': 'export const ready = true;\n' });
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lines = (problems: { path: string; line?: number; message: string }[]) => problems.map((p) => `${p.path}:${p.line} ${p.message}`);

describe('typeCheck against installed packages', () => {
  it("checks the issue's zod project against zod's own declarations: correct code passes, a wrong use is found", () => {
    expect(typeCheck(ZOD_ENV, { nodeModules: installed })).toEqual([]);
    const misuse = LIBRARY_MISUSE_CASES.find((c) => c.id === 'zod-inferred-number-as-string')!;
    expect(lines(typeCheck(misuse.files, { nodeModules: installed }))).toEqual(["src/index.ts:4 TS2322: Type 'number' is not assignable to type 'string'."]);
    // Stand-ins type zod `any`: they can neither wrong the correct project nor see the mistake.
    expect(typeCheck(ZOD_ENV)).toEqual([]);
    expect(typeCheck(misuse.files)).toEqual([]);
  });

  it.each(LIBRARY_CASES.map((c) => [c.id, c.files] as const))('%s passes against the real declarations', (_id, files) => {
    expect(typeCheck(files, { nodeModules: installed })).toEqual([]);
  });

  it.each([
    ['React (@types/react): a missing prop', REACT_TSX, 'src/main.tsx', ['<TaskList initial={tasks} title="Today" />', '<TaskList initial={tasks} />'], /TS2741: Property 'title' is missing/],
    ['a Prisma generated client: a field the query did not select', LIBRARY_MISUSE_CASES[1]!.files, 'src/users.ts', null, /TS2339: Property 'name' does not exist on type '\{ email: string; \}'/],
    ['date-fns (an exports map, a subpath): a string for a number', LIBRARY_CASES.find((c) => c.id === 'date-fns-due-dates')!.files, 'src/due.ts', ['invoice.termsDays)', 'String(invoice.termsDays))'], /TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/],
    ['@types/lodash (export =, augmentations): a string for a size', LIBRARY_CASES.find((c) => c.id === 'lodash-with-types')!.files, 'src/report.ts', ['_.chunk(items, size)', "_.chunk(items, 'size')"], /TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/],
    ['lodash/groupBy.js from @types/lodash: a wrong property', LIBRARY_CASES.find((c) => c.id === 'lodash-with-types')!.files, 'src/report.ts', ['(row) => row.amount', '(row) => row.price'], /TS2339: Property 'price' does not exist on type 'Sale'/],
    ['axios (nested types conditions): a response field that is not there', LIBRARY_CASES.find((c) => c.id === 'axios-typed-client')!.files, 'src/api.ts', ['return response.data;', 'return response.body;'], /TS2339: Property 'body' does not exist on type 'AxiosResponse<Todo/],
    // Koa's context takes any other property (an index signature): its own are typed.
    ['Koa (@types/koa): a status that is not a number', LIBRARY_CASES.find((c) => c.id === 'koa-server-types')!.files, 'src/app.ts', ['ctx.status = 404;', "ctx.status = 'missing';"], /TS2322: Type 'string' is not assignable to type 'number'/],
  ] as const)('finds a wrong use only the real declarations show: %s', (_name, base, path, edit, expected) => {
    const files = { ...base };
    if (edit) files[path] = files[path]!.replace(edit[0], edit[1]);
    expect(files[path]).not.toBe(edit ? base[path] : undefined);
    const problems = typeCheck(files, { nodeModules: installed });
    expect(problems.map((p) => p.path)).toEqual([path]);
    expect(problems[0]!.message).toMatch(expected);
    expect(typeCheck(files)).toEqual([]);
  });

  it('types a package that ships no types with a stand-in, and checks the others for real', () => {
    const files = {
      'src/a.ts': "import _ from 'lodash';\nimport { addDays } from 'date-fns';\nimport { z } from 'zod';\nexport const pages = _.chunk([1, 2, 3], 'two').flat().whatever;\nexport const s = z.string();\nexport const d = addDays(new Date(), 'one');\n",
    };
    // lodash is there without @types/lodash, zod is not there at all: both are stand-ins.
    expect(lines(typeCheck(files, { nodeModules: untyped }))).toEqual([
      "src/a.ts:6 TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    ]);
  });

  it('falls back to stand-ins when the folder is gone', () => {
    const misuse = LIBRARY_MISUSE_CASES[0]!.files;
    expect(typeCheck(misuse, { nodeModules: join(scratch, 'never-installed', 'node_modules') })).toEqual(typeCheck(misuse));
  });

  it('reads nothing outside the folder: not through a types path, not through a symlink', () => {
    const outside = join(scratch, 'outside');
    const folder = join(scratch, 'escape', 'node_modules');
    mkdirSync(join(outside, 'linked'), { recursive: true });
    mkdirSync(join(folder, 'dotdot'), { recursive: true });
    // Were these read, `take('x')` would be an error: a number is wanted.
    writeFileSync(join(outside, 'secret.d.ts'), 'export declare function take(n: number): void;\n');
    writeFileSync(join(outside, 'linked', 'package.json'), JSON.stringify({ name: 'linked', version: '1.0.0', types: 'index.d.ts' }));
    writeFileSync(join(outside, 'linked', 'index.d.ts'), 'export declare function take(n: number): void;\n');
    writeFileSync(join(folder, 'dotdot', 'package.json'), JSON.stringify({ name: 'dotdot', version: '1.0.0', types: '../../../outside/secret.d.ts' }));
    symlinkSync(join(outside, 'linked'), join(folder, 'linked'));
    const files = { 'src/a.ts': "import { take } from 'dotdot';\nimport { take as take2 } from 'linked';\ntake('x');\ntake2('x');\n" };
    expect(typeCheck(files, { nodeModules: folder })).toEqual([]);
  });

  it('parses an installed declaration file once, until it changes, and caches results per folder', () => {
    const project = (n: number) => ({ ...ZOD_ENV, 'src/extra.ts': `import { z } from 'zod';\nexport const n${n} = z.number().parse(${n});\n` });
    typeCheck(project(1), { nodeModules: installed });

    resetCompilerCounts();
    expect(typeCheck(project(2), { nodeModules: installed })).toEqual([]);
    // A new program for the edited project; zod's and @types/node's files come parsed.
    expect(compiler.programs).toBe(1);
    expect(compiler.parsed).toEqual(['/src/extra.ts']);

    resetCompilerCounts();
    typeCheck(project(2), { nodeModules: installed });
    expect(compiler).toEqual({ programs: 0, parsed: [] });

    // A changed file (a reinstall in place) is read again; nothing else is. zod's `exports` give
    // its types as index.d.cts.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(installed, 'zod', 'index.d.cts'), later, later);
    resetCompilerCounts();
    typeCheck(project(3), { nodeModules: installed });
    expect(compiler.parsed.filter((name) => name.startsWith('/node_modules/'))).toEqual(['/node_modules/zod/index.d.cts']);
  });
});
