/**
 * The files every type-check program shares, parsed once per process: TypeScript's lib files,
 * the ambient stand-ins for what is not installed, and the project's own files by content (so an
 * edit re-parses only the edited files).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname as osDirname, join as osJoin } from 'node:path';
import type TS from 'typescript-checker';
import { LRUCache } from 'lru-cache';
import { ts } from './typescript-lazy.js';

const LIB_DIR = osDirname(createRequire(import.meta.url).resolve('typescript-checker'));
/** Where lib files live in the virtual file system. */
export const VIRTUAL_LIB_DIR = '/__wolfpack_lib__';
/** Where the stand-ins live: every file under it is one (see stand-in-diagnostics.ts). */
export const STAND_IN_DIR = '/__wolfpack_stub__';
/** The package stand-ins of one check (see package-stubs.ts). */
export const PACKAGE_STUB_FILE = `${STAND_IN_DIR}/packages.d.ts`;

// Newer library APIs (`findLast`, `Object.groupBy`, `Set.prototype.union`) run in today's
// browsers and Node; generated code using them is not wrong.
export const LIBS = ['lib.esnext.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'];

/** Is this file a stand-in (its declarations say nothing about the real package)? */
export function isStandInFile(fileName: string): boolean {
  return fileName.startsWith(`${STAND_IN_DIR}/`);
}

const MODULES = `
declare module '*';
declare module '*.css';
declare module '*.scss';
declare module '*.sass';
declare module '*.less';
declare module '*.svg';
declare module '*.png';
declare module '*.jpg';
declare module '*.jpeg';
declare module '*.gif';
declare module '*.webp';
declare module '*.ico';
declare module '*.json';
// Vite's import.meta.env / import.meta.hot / import.meta.glob come from vite/client.
interface ImportMeta { [key: string]: any }
// Test runners' globals that tsc does not already flag with its "install type definitions" hint
// (those diagnostics are dropped).
declare var expect: any;
declare var vi: any;
declare var jest: any;
declare var beforeAll: any;
declare var afterAll: any;
declare var beforeEach: any;
declare var afterEach: any;
`;
// React's JSX types are not installed: any element, any attribute; components are still checked
// against their props.
const JSX = `
declare namespace JSX {
  interface IntrinsicElements { [name: string]: any }
  interface IntrinsicAttributes { key?: any; ref?: any }
  interface IntrinsicClassAttributes<T> { key?: any; ref?: any }
  interface ElementChildrenAttribute { children: {} }
  interface ElementAttributesProperty { props: {} }
  type Element = any;
  type ElementClass = any;
}
`;
// Globals of @types/node that tsc does not flag with its hint.
const NODE_GLOBALS = `
declare var __dirname: string;
declare var __filename: string;
declare var global: any;
`;

/** Which stand-ins for globals a check needs: those whose real declarations are not installed. */
export interface AmbientParts {
  /** React's JSX namespace (none when react/jsx-runtime's real types resolve). */
  jsx: boolean;
  /** @types/node's CommonJS globals (none when @types/node is installed). */
  node: boolean;
}

/** The ambient stand-in file with these parts (parsed once per process, like the lib files). */
export function ambientFile(parts: AmbientParts): string {
  return `${STAND_IN_DIR}/ambient${parts.jsx ? '' : '-nojsx'}${parts.node ? '' : '-nonode'}.d.ts`;
}

function ambientText(fileName: string): string {
  return MODULES + (fileName.includes('-nojsx') ? '' : JSX) + (fileName.includes('-nonode') ? '' : NODE_GLOBALS);
}

/** Lib and ambient files, parsed once per process and shared by every program (binding included). */
const sharedFiles = new Map<string, TS.SourceFile>();

/** A lib or ambient stand-in file, or undefined for any other name. */
export function sharedFile(fileName: string): TS.SourceFile | undefined {
  const cached = sharedFiles.get(fileName);
  if (cached) return cached;
  let text: string;
  if (fileName.startsWith(`${STAND_IN_DIR}/ambient`)) text = ambientText(fileName);
  else if (fileName.startsWith(`${VIRTUAL_LIB_DIR}/`)) {
    try {
      text = readFileSync(osJoin(LIB_DIR, fileName.slice(VIRTUAL_LIB_DIR.length + 1)), 'utf8');
    } catch {
      return undefined;
    }
  } else return undefined;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
  sharedFiles.set(fileName, file);
  return file;
}

/** Project source files by path and content, so an edit re-parses only the edited files. */
const projectFiles = new LRUCache<string, TS.SourceFile>({ max: 4000 });

/** The parsed project file (or package stand-in file) of this name and content. */
export function projectFile(fileName: string, text: string): TS.SourceFile {
  const key = `${fileName}\u0000${text}`;
  const cached = projectFiles.get(key);
  if (cached) return cached;
  const kind = /\.tsx$/i.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, kind);
  projectFiles.set(key, file);
  return file;
}

/** Extensions by suffix, named as the compiler's Extension enum names them (read on first use). */
const EXTENSION_BY_SUFFIX: [RegExp, keyof typeof TS.Extension][] = [
  [/\.d\.ts$/i, 'Dts'],
  [/\.d\.mts$/i, 'Dmts'],
  [/\.d\.cts$/i, 'Dcts'],
  [/\.tsx$/i, 'Tsx'],
  [/\.mts$/i, 'Mts'],
  [/\.cts$/i, 'Cts'],
  [/\.ts$/i, 'Ts'],
];

export function extensionOf(path: string): TS.Extension {
  return ts.Extension[EXTENSION_BY_SUFFIX.find(([re]) => re.test(path))?.[1] ?? 'Ts'];
}
