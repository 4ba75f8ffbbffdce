/**
 * Packages for the library corpus (pipeline/faults/cases-libraries.ts), served by the fake
 * registry. zod, React, Koa and their @types are the REAL packages of this workspace's
 * node_modules (see workspace-tree.ts). The others are hand-written here, small, with
 * declarations shaped as the real ones are, so the type check meets the same constructs a real
 * install gives it: a generated client's conditional types and a namespace of inputs
 * (@prisma/client), an ESM barrel of `export *` with `.js` specifiers behind an `exports` map
 * (date-fns), `export =` with a merged namespace, `export as namespace` and module augmentation
 * across files (@types/lodash), nested `types` conditions and generic defaults (axios). Their
 * runtimes do just what the corpus projects call.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FakePackages, PackedPackage } from './fake-npm-registry.js';
import { AXIOS_D_TS, AXIOS_JS, PRISMA_GENERATED_D_TS, PRISMA_JS } from './library-packages-client.js';
import { packFiles, workspaceFolders, workspaceTree } from './workspace-tree.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Real packages the corpus installs from this workspace's node_modules (majors as the corpus declares them). */
export const WORKSPACE_LIBRARIES = ['zod@4', 'react@19', 'react-dom@19', '@types/react@19', '@types/react-dom@19', '@types/node@24', 'koa@3', '@types/koa@3'];

const DATE_FUNCTIONS: Record<string, { js: string; dts: string }> = {
  addDays: {
    js: 'export function addDays(date, amount) {\n  const result = new Date(date);\n  result.setDate(result.getDate() + amount);\n  return result;\n}',
    dts: lines(
      'import type { ContextOptions, DateArg } from "./types.js";',
      '/** The options for `addDays`. */',
      'export interface AddDaysOptions<DateType extends Date = Date> extends ContextOptions<DateType> {}',
      'export declare function addDays<DateType extends Date, ResultDate extends Date = DateType>(date: DateArg<DateType>, amount: number, options?: AddDaysOptions<ResultDate> | undefined): ResultDate;',
    ),
  },
  differenceInCalendarDays: {
    js: 'export function differenceInCalendarDays(later, earlier) {\n  const day = (d) => Date.UTC(new Date(d).getFullYear(), new Date(d).getMonth(), new Date(d).getDate());\n  return Math.round((day(later) - day(earlier)) / 86400000);\n}',
    dts: lines(
      'import type { ContextOptions, DateArg } from "./types.js";',
      'export interface DifferenceInCalendarDaysOptions extends ContextOptions<Date> {}',
      'export declare function differenceInCalendarDays(laterDate: DateArg<Date> & {}, earlierDate: DateArg<Date> & {}, options?: DifferenceInCalendarDaysOptions | undefined): number;',
    ),
  },
  format: {
    js: "const pad = (n) => String(n).padStart(2, '0');\nexport function format(date, pattern) {\n  const d = new Date(date);\n  return pattern.replace('yyyy', String(d.getFullYear())).replace('MM', pad(d.getMonth() + 1)).replace('dd', pad(d.getDate()));\n}",
    dts: lines(
      'import type { DateArg, FormatOptions } from "./types.js";',
      'export declare function format(date: DateArg<Date> & {}, formatStr: string, options?: FormatOptions): string;',
    ),
  },
  isBefore: {
    js: 'export function isBefore(date, dateToCompare) {\n  return +new Date(date) < +new Date(dateToCompare);\n}',
    dts: lines('import type { DateArg } from "./types.js";', 'export declare function isBefore<DateType extends Date, _DateType2 extends Date>(date: DateArg<DateType>, dateToCompare: DateArg<_DateType2>): boolean;'),
  },
  parseISO: {
    js: "export function parseISO(text) {\n  const [y, m, d] = text.slice(0, 10).split('-').map(Number);\n  return new Date(y, m - 1, d);\n}",
    dts: lines(
      'import type { ContextOptions } from "./types.js";',
      'export interface ParseISOOptions<DateType extends Date = Date> extends ContextOptions<DateType> { additionalDigits?: 0 | 1 | 2 }',
      'export declare function parseISO<DateType extends Date, ResultDate extends Date = DateType>(argument: string, options?: ParseISOOptions<ResultDate> | undefined): ResultDate;',
    ),
  },
};

const dateFns = (): Record<string, string> => {
  const names = Object.keys(DATE_FUNCTIONS);
  const files: Record<string, string> = {
    'package.json': json({
      type: 'module',
      sideEffects: false,
      main: './index.js',
      types: './index.d.ts',
      exports: {
        './package.json': './package.json',
        '.': { import: { types: './index.d.ts', default: './index.js' } },
        ...Object.fromEntries(names.map((name) => [`./${name}`, { import: { types: `./${name}.d.ts`, default: `./${name}.js` } }])),
      },
    }),
    'types.d.ts': lines(
      '/** A date, a timestamp, or an object with a date\'s [Symbol.toPrimitive]. */',
      'export type DateArg<DateType extends Date> = DateType | number | string;',
      'export type ContextFn<DateType extends Date> = (value: DateArg<Date> & {}) => DateType;',
      'export interface ContextOptions<DateType extends Date> { in?: ContextFn<DateType> | undefined }',
      'export type Day = 0 | 1 | 2 | 3 | 4 | 5 | 6;',
      'export interface FormatOptions { weekStartsOn?: Day; useAdditionalWeekYearTokens?: boolean }',
    ),
    'types.js': 'export {};\n',
    'index.d.ts': lines(...names.map((name) => `export * from "./${name}.js";`), 'export type * from "./types.js";'),
    'index.js': lines(...names.map((name) => `export * from "./${name}.js";`)),
  };
  for (const [name, { js, dts }] of Object.entries(DATE_FUNCTIONS)) {
    files[`${name}.js`] = `${js}\n`;
    files[`${name}.d.ts`] = dts;
  }
  return files;
};

/** lodash's runtime (CommonJS, no types of its own) for what the corpus calls. */
const LODASH_JS = lines(
  "'use strict';",
  'function chunk(array, size = 1) { const out = []; for (let i = 0; i < array.length; i += size) out.push(array.slice(i, i + size)); return out; }',
  "function iteratee(fn) { return typeof fn === 'function' ? fn : (value) => value[fn]; }",
  'function groupBy(collection, by) { const f = iteratee(by); const out = {}; for (const item of collection) (out[f(item)] ??= []).push(item); return out; }',
  'function sortBy(collection, ...by) { const fs = by.flat().map(iteratee); return [...collection].sort((a, b) => { for (const f of fs) { if (f(a) < f(b)) return -1; if (f(a) > f(b)) return 1; } return 0; }); }',
  'function sumBy(array, by) { const f = iteratee(by); return array.reduce((sum, item) => sum + f(item), 0); }',
  'function uniqBy(array, by) { const f = iteratee(by); const seen = new Set(); return array.filter((item) => !seen.has(f(item)) && seen.add(f(item))); }',
  'const _ = { chunk, groupBy, sortBy, sumBy, uniqBy };',
  'module.exports = _;',
);

/** @types/lodash's shape: `export =` of a value whose type is a namespace's interface, grown by augmentations in other files. */
const typesLodash = (): Record<string, string> => ({
  'package.json': json({ types: 'index.d.ts', typeScriptVersion: '5.0' }),
  'index.d.ts': lines(
    '/// <reference path="./common/common.d.ts" />',
    '/// <reference path="./common/array.d.ts" />',
    '/// <reference path="./common/collection.d.ts" />',
    '/// <reference path="./common/math.d.ts" />',
    'export = _;',
    'export as namespace _;',
    'declare const _: _.LoDashStatic;',
    'declare namespace _ {',
    '    interface LoDashStatic {}',
    '}',
  ),
  'common/common.d.ts': lines(
    'import _ = require("../index");',
    'declare module "../index" {',
    '    type Many<T> = T | ReadonlyArray<T>;',
    '    type PropertyName = string | number | symbol;',
    '    interface List<T> { readonly length: number; readonly [n: number]: T; }',
    '    type ValueIteratee<T> = ((value: T) => unknown) | PropertyName;',
    '    type ValueIterateeCustom<T, TResult> = ((value: T) => TResult) | PropertyName;',
    '    interface Dictionary<T> { [index: string]: T; }',
    '}',
  ),
  'common/array.d.ts': lines(
    'import _ = require("../index");',
    'declare module "../index" {',
    '    interface LoDashStatic {',
    '        chunk<T>(array: List<T> | null | undefined, size?: number): T[][];',
    '        uniqBy<T>(array: List<T> | null | undefined, iteratee: ValueIteratee<T>): T[];',
    '    }',
    '}',
  ),
  'common/collection.d.ts': lines(
    'import _ = require("../index");',
    'declare module "../index" {',
    '    interface LoDashStatic {',
    '        groupBy<T>(collection: List<T> | null | undefined, iteratee?: ValueIteratee<T>): Dictionary<T[]>;',
    '        sortBy<T>(collection: List<T> | null | undefined, ...iteratees: Array<Many<ValueIteratee<T>>>): T[];',
    '    }',
    '}',
  ),
  'common/math.d.ts': lines(
    'import _ = require("../index");',
    'declare module "../index" {',
    '    interface LoDashStatic {',
    '        sumBy<T>(collection: List<T> | null | undefined, iteratee?: ((value: T) => number) | string): number;',
    '    }',
    '}',
  ),
  'groupBy.d.ts': lines('import { groupBy } from "./index";', 'export = groupBy;'),
  'chunk.d.ts': lines('import { chunk } from "./index";', 'export = chunk;'),
});

/** Hand-written packages (name → version → files), with the real packages' names and shapes. */
export const HAND_WRITTEN_LIBRARIES: FakePackages = {
  '@prisma/client': {
    '6.1.0': {
      'package.json': json({ main: 'index.js', types: 'index.d.ts' }),
      'index.js': PRISMA_JS,
      // As prisma generate writes it: the package re-exports the client generated for the schema.
      'index.d.ts': "export * from './generated/client';\n",
      'generated/client.d.ts': PRISMA_GENERATED_D_TS,
    },
  },
  'date-fns': { '4.1.0': dateFns() },
  lodash: { '4.17.21': { 'package.json': json({ main: 'lodash.js' }), 'lodash.js': LODASH_JS, 'groupBy.js': "module.exports = require('./lodash.js').groupBy;\n", 'chunk.js': "module.exports = require('./lodash.js').chunk;\n" } },
  '@types/lodash': { '4.17.13': typesLodash() },
  axios: {
    '1.7.9': {
      'package.json': json({
        type: 'module',
        main: 'index.js',
        types: 'index.d.ts',
        exports: {
          '.': { types: { require: './index.d.cts', default: './index.d.ts' }, default: { default: './index.js' } },
          './package.json': './package.json',
        },
      }),
      'index.js': AXIOS_JS,
      'index.d.ts': AXIOS_D_TS,
      'index.d.cts': AXIOS_D_TS.replace('export default axios;', 'export = axios;'),
    },
  },
};

/** Everything the library corpus installs, packed for the fake registry: the real packages and the hand-written ones. */
export async function libraryPackages(): Promise<PackedPackage[]> {
  const handWritten = Object.entries(HAND_WRITTEN_LIBRARIES).flatMap(([name, versions]) => Object.entries(versions).map(([version, files]) => packFiles(name, version, files)));
  return [...(await workspaceTree(WORKSPACE_LIBRARIES)), ...(await Promise.all(handWritten))];
}

/**
 * An installed node_modules folder without npm, for tests of the type check: the real packages
 * `specs` (with what they need; one version per name, as a flat install has at the top) copied
 * as they are, and the hand-written ones written as npm would unpack them.
 */
export function writeLibraryNodeModules(nodeModules: string, specs: readonly string[] = WORKSPACE_LIBRARIES, handWritten: FakePackages = HAND_WRITTEN_LIBRARIES): void {
  const copied = new Set<string>();
  for (const [key, folder] of workspaceFolders(specs)) {
    const name = key.slice(0, key.lastIndexOf('@'));
    if (copied.has(name)) continue;
    copied.add(name);
    cpSync(folder, join(nodeModules, name), { recursive: true, dereference: true });
  }
  for (const [name, versions] of Object.entries(handWritten)) {
    const [version, files] = Object.entries(versions).at(-1)!;
    for (const [path, content] of Object.entries(files)) {
      const target = join(nodeModules, name, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, path === 'package.json' ? JSON.stringify({ ...(JSON.parse(content) as object), name, version }, null, 2) : content);
    }
  }
}
