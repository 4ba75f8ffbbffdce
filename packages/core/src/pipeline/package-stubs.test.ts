/**
 * Stand-ins for packages that are not installed must never be why correct code is reported. Each
 * case below is a way a stand-in can cause an error, with the code TypeScript
 * gave; and the same codes on the project's own names are still reported.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { typeCheck } from './verify-types.js';

beforeAll(() => {
  typeCheck({ 'warm-up.ts': 'export const ready = true;\n' });
}, 60_000);

const codes = (files: Record<string, string>) => typeCheck(files).map((p) => `${p.path}:${p.line} ${p.message.slice(0, 6)}`);

describe('stand-ins cause no error', () => {
  it.each([
    [
      // The case: a named import used as a namespace ("'z' only refers to a type").
      'TS2702, z.infer of a named import',
      { 'src/env.ts': "import { z } from 'zod';\nconst Env = z.object({ PORT: z.coerce.number() });\nexport type Env = z.infer<typeof Env>;\nexport const read = (e: unknown): Env => Env.parse(e);\n" },
    ],
    [
      // "Cannot use namespace 'z' as a type": a name reached through is also a type itself.
      'TS2709, a name used as a type and as a namespace',
      { 'src/a.ts': "import { z, ZodType } from 'zod';\nexport let schema: ZodType;\nexport let other: z;\nexport type T = z.ZodType.Options;\nexport type U = ZodType.Def;\n" },
    ],
    [
      // "Namespace has no exported member": names reached through a project module's re-export.
      'TS2694, a package name re-exported by a project module',
      {
        'src/lib.ts': "export { z } from 'zod';\nimport * as R from 'react';\nexport { R as Rx };\n",
        'src/use.ts': "import { z, Rx } from './lib';\nexport type T = z.infer<string>;\nexport type P = Rx.ComponentProps<'div'>;\n",
      },
    ],
    [
      // "Module './lib' has no exported member 'z'": the stand-in of `export *` cannot list names.
      'TS2305, a name a project module re-exports with export *',
      { 'src/lib.ts': "export * from 'zod';\n", 'src/use.ts': "import { z } from './lib';\nexport const s = z.string();\n" },
    ],
    [
      // A string-named import no declaration can be written for.
      'TS2305, an import a stand-in cannot declare',
      { 'src/a.ts': "import { 'kebab-name' as kebab } from 'odd-lib';\nexport const k = kebab;\n" },
    ],
    [
      // "Property does not exist on type 'typeof import(\"zod\")'": the namespace object read elsewhere.
      'TS2339, a package namespace object passed around and destructured',
      { 'src/a.ts': "import * as Z from 'zod';\nconst lib = Z;\nexport const s = lib.string();\nconst { object, number } = Z;\nexport const o = object({ n: number() });\n" },
    ],
    [
      // "Generic type requires between 0 and 8 type arguments".
      'TS2707, more type arguments than a stand-in takes',
      { 'src/a.ts': "import type { Huge } from 'typed-lib';\nexport let h: Huge<1, 2, 3, 4, 5, 6, 7, 8, 9, 10>;\n" },
    ],
    [
      // "Cannot redeclare block-scoped variable 'Request'": the project augments the package.
      'TS2451, a module augmentation of a stubbed package',
      {
        'src/types.ts': "import 'express';\ndeclare module 'express' {\n  interface Request { user?: { id: string } }\n  function helper(): void;\n}\nexport {};\n",
        'src/app.ts': "import express, { Request, helper } from 'express';\nexport const handle = (req: Request) => req.user?.id ?? req.body.name;\nhelper();\nexport const app = express();\n",
      },
    ],
    [
      // "This expression is not callable": a namespace import of a stand-in called as a function.
      'TS2349, a namespace import called',
      { 'src/a.ts': "import * as express from 'express';\nexport const app = express();\nimport cors = require('cors');\nexport const mw = cors();\n" },
    ],
    [
      // `import x = require()` and `import('pkg').T` reached the shorthand `declare module '*'` (TS2694, TS2709).
      'TS2694 and TS2709 through import-equals and import types',
      { 'src/a.ts': "import lib = require('legacy-lib');\nexport type A = lib.Options;\nexport let b: lib;\nexport type C = import('other-lib').Config.Entry;\n" },
    ],
    [
      // A project that types an untyped package itself keeps its own declaration.
      'TS2300, the project declares the package',
      { 'types/legacy.d.ts': "declare module 'legacy-lib' {\n  export function parse(text: string): number;\n}\n", 'src/a.ts': "import { parse } from 'legacy-lib';\nexport const n: number = parse('1');\n" },
    ],
  ])('%s', (_name, files) => {
    expect(codes(files)).toEqual([]);
  });

  it('still checks what the project declares against a package it types itself', () => {
    const files = { 'types/legacy.d.ts': "declare module 'legacy-lib' {\n  export function parse(text: string): number;\n}\n", 'src/a.ts': "import { parse } from 'legacy-lib';\nexport const s: string = parse('1');\n" };
    expect(codes(files)).toEqual(['src/a.ts:2 TS2322']);
  });
});

describe('the same codes on the project own names are reported', () => {
  it.each([
    ['TS2339, a missing property', { 'src/a.ts': "import { z } from 'zod';\nconst point = { x: 1, s: z.string() };\nexport const y = point.y;\n" }, ['src/a.ts:3 TS2339']],
    ['TS2713, a type used as a namespace', { 'src/a.ts': "import { z } from 'zod';\ntype Own = { a: number };\nexport type T = Own.a;\nexport const s = z.string();\n" }, ['src/a.ts:3 TS2713']],
    ['TS2709, a namespace used as a type', { 'src/a.ts': "import { z } from 'zod';\nnamespace Own {\n  export const a = 1;\n}\nexport let t: Own;\nexport const s = z.string();\n" }, ['src/a.ts:5 TS2709']],
    ['TS2305, a missing export of a project module', { 'src/lib.ts': "export * from 'zod';\nexport const a = 1;\n", 'src/local.ts': 'export const b = 2;\n', 'src/use.ts': "import { c } from './local';\nexport { c };\n" }, ['src/use.ts:1 TS2305']],
    ['TS2451, a redeclared variable', { 'src/a.ts': "import { z } from 'zod';\nlet a = z.string();\nlet a = 2;\nexport { a };\n" }, ['src/a.ts:2 TS2451', 'src/a.ts:3 TS2451']],
    ['TS2349, calling what is not a function', { 'src/a.ts': "import { z } from 'zod';\nconst notCallable = { s: z.string() };\nexport const r = notCallable();\n" }, ['src/a.ts:3 TS2349']],
  ])('%s', (_name, files, expected) => {
    expect(codes(files)).toEqual(expected);
  });
});
