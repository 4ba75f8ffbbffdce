/**
 * Type-checks the TypeScript files of a generated project with the classic TypeScript compiler
 * (5.x, which still has a JS API; the repo's own TypeScript 7 is native), entirely in memory.
 *
 * The project's packages are not installed, so every import that does not resolve to a project
 * .ts/.tsx file (packages, CSS, images, JS and JSON files) is typed `any` by an ambient
 * `declare module '*'`: their absence is the imports check's business, not this one's. The
 * options are lenient (no `strict`) so only mistakes that would break `tsc` in any setup are
 * reported: wrong types, wrong argument counts, missing properties, unknown names.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname as osDirname, join as osJoin } from 'node:path';
import type TS from 'typescript-checker';
import { ts } from './typescript-lazy.js';
import { aliasCandidates, classifySpecifier, dirname, joinPath, readTsconfigs, resolveFile } from './resolve-imports.js';
import { packageStubs } from './package-stubs.js';
import type { VerifyProblem } from './verify.js';

/** At most this many type problems per project: past that, more lines only bury the first. */
export const MAX_TYPE_PROBLEMS = 20;

const TS_FILE = /\.(ts|tsx|mts|cts)$/i;

/** Is this a file the type check reads (TypeScript sources and declarations)? */
export function isTypeScriptPath(path: string): boolean {
  return TS_FILE.test(path) && !path.split('/').includes('node_modules');
}

const LIB_DIR = osDirname(createRequire(import.meta.url).resolve('typescript-checker'));
/** Where lib files live in the virtual file system. */
const VIRTUAL_LIB_DIR = '/__wolfpack_lib__';
const STUB_FILE = '/__wolfpack_stub__/ambient.d.ts';

// Newer library APIs (`findLast`, `Object.groupBy`, `Set.prototype.union`) run in today's
// browsers and Node; generated code using them is not wrong.
const LIBS = ['lib.esnext.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'];

const STUB = `
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
// React's JSX types are not installed: any element, any attribute; components are still
// checked against their props.
declare namespace JSX {
  interface IntrinsicElements { [name: string]: any }
  interface IntrinsicAttributes { key?: any; ref?: any }
  interface IntrinsicClassAttributes<T> { key?: any; ref?: any }
  interface ElementChildrenAttribute { children: {} }
  interface ElementAttributesProperty { props: {} }
  type Element = any;
  type ElementClass = any;
}
// Globals of @types/node and test runners that tsc does not already flag with its "install type
// definitions" hint (those diagnostics are dropped).
declare var __dirname: string;
declare var __filename: string;
declare var global: any;
declare var expect: any;
declare var vi: any;
declare var jest: any;
declare var beforeAll: any;
declare var afterAll: any;
declare var beforeEach: any;
declare var afterEach: any;
`;

// "Cannot find name 'process'. Do you need to install type definitions for node?" and the like:
// the missing types are the uninstalled packages', not the code's fault. 2688: a
// `/// <reference types>` to a package that is not installed.
// 2347: type arguments on a call of an `any` package function (`useState<T>()`). 2607: a class
// component whose base (`React.Component`) is `any` has no typed `props`.
const IGNORED_CODES = new Set([2580, 2581, 2582, 2591, 2592, 2593, 2688, 2347, 2607]);

let baseOptions: TS.CompilerOptions | undefined;
/** The compiler options (built on first use: they read the compiler's enums). */
const BASE_OPTIONS = (): TS.CompilerOptions =>
  (baseOptions ??= {
  strict: false,
  noEmit: true,
  jsx: ts.JsxEmit.ReactJSX,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  allowJs: false,
  noResolve: false,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: false,
  isolatedModules: false,
  types: [],
  lib: LIBS,
  });

/** Lib and stub files, parsed once per process and shared by every program (binding included). */
const sharedFiles = new Map<string, TS.SourceFile>();

function sharedFile(fileName: string): TS.SourceFile | undefined {
  const cached = sharedFiles.get(fileName);
  if (cached) return cached;
  let text: string;
  if (fileName === STUB_FILE) text = STUB;
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
const projectFiles = new Map<string, TS.SourceFile>();
const PROJECT_FILE_ENTRIES = 4000;

function projectFile(fileName: string, text: string): TS.SourceFile {
  const key = `${fileName}\u0000${text}`;
  const cached = projectFiles.get(key);
  if (cached) return cached;
  const kind = /\.tsx$/i.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, kind);
  projectFiles.set(key, file);
  if (projectFiles.size > PROJECT_FILE_ENTRIES) projectFiles.delete(projectFiles.keys().next().value!);
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

function extensionOf(path: string): TS.Extension {
  return ts.Extension[EXTENSION_BY_SUFFIX.find(([re]) => re.test(path))?.[1] ?? 'Ts'];
}

/** Resolves a specifier to a project TS file (project-relative path), or null. */
function makeResolver(tsFiles: ReadonlySet<string>, files: Readonly<Record<string, string>>): (specifier: string, importer: string) => string | null {
  const { aliases, baseUrls } = readTsconfigs(files);
  const find = (candidate: string): string | null =>
    resolveFile(candidate, tsFiles) ?? (tsFiles.has(`${candidate}.d.ts`) ? `${candidate}.d.ts` : null);
  return (raw, importer) => {
    const specifier = raw.replace(/[?#].*$/, '');
    const kind = classifySpecifier(specifier);
    if (kind.type === 'relative') {
      const joined = joinPath(dirname(importer), specifier);
      return joined === null ? null : find(joined);
    }
    if (kind.type === 'root') return find(specifier.slice(1));
    const alias = aliasCandidates(specifier, aliases);
    if (alias) {
      for (const candidate of alias.candidates) {
        const found = find(candidate);
        if (found !== null) return found;
      }
      return null;
    }
    for (const base of baseUrls) {
      const found = find(base === '' ? specifier : `${base}/${specifier}`);
      if (found !== null) return found;
    }
    return null;
  };
}

function toProblem(diagnostic: TS.Diagnostic, root: string): VerifyProblem | null {
  const file = diagnostic.file;
  if (!file || IGNORED_CODES.has(diagnostic.code)) return null;
  // A message may quote a file name (TS2307 and others): the user's paths, without the root.
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').replace(/\n\s*/g, ' ').replaceAll(`${root}/`, '/');
  const problem: VerifyProblem = { path: file.fileName.slice(root.length + 1), check: 'types', message: `TS${diagnostic.code}: ${text}` };
  if (diagnostic.start !== undefined) problem.line = file.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
  return problem;
}

const PACKAGE_STUB_FILE = '/__wolfpack_stub__/packages.d.ts';

/** One project of a check: its files, its TS paths, and where they sit in the virtual file system. */
interface CheckedProject {
  files: Readonly<Record<string, string>>;
  tsPaths: readonly string[];
  /** '' alone; `/__wolfpack_p{i}__` when several projects share a program. */
  root: string;
  resolve: (specifier: string, importer: string) => string | null;
  sources: TS.SourceFile[];
  stubs: string;
}

function prepare(files: Readonly<Record<string, string>>, tsPaths: readonly string[], root: string): CheckedProject {
  const tsFiles = new Set(tsPaths);
  const resolve = makeResolver(tsFiles, files);
  const sources = tsPaths.map((p) => projectFile(`${root}/${p}`, files[p] ?? ''));
  // packageStubs names importers by file name without the leading '/': drop the rest of the root.
  const stubs = packageStubs(sources, (specifier, importer) => resolve(specifier, importer.slice(root.length)) !== null);
  return { files, tsPaths, root, resolve, sources, stubs };
}

/**
 * Can this project share a program with others without changing a single diagnostic? Only when
 * nothing it declares is global: every file a module (no script's names in the global scope), no
 * `declare global`, no ambient `declare module`, no declaration files.
 */
function isSelfContained(project: CheckedProject): boolean {
  return project.sources.every(
    (source) =>
      !source.isDeclarationFile &&
      ts.isExternalModule(source) &&
      !source.statements.some((statement) => ts.isModuleDeclaration(statement) && (ts.isStringLiteral(statement.name) || statement.name.text === 'global')),
  );
}

/**
 * Type-checks projects in one TypeScript program. A program's checker first merges the lib files'
 * globals (most of a small project's check), so several self-contained projects with the same
 * package stubs (the candidates of one njin iteration) are checked for about the price of one.
 */
function check(projects: readonly CheckedProject[], stubs: string): VerifyProblem[][] {
  const byFileName = new Map<string, { project: CheckedProject; path: string }>();
  for (const project of projects) for (const path of project.tsPaths) byFileName.set(`${project.root}/${path}`, { project, path });
  const host: TS.CompilerHost = {
    getSourceFile: (fileName) => {
      if (fileName === PACKAGE_STUB_FILE) return projectFile(fileName, stubs);
      const entry = byFileName.get(fileName);
      if (entry) return projectFile(fileName, entry.project.files[entry.path] ?? '');
      return sharedFile(fileName);
    },
    getDefaultLibFileName: () => `${VIRTUAL_LIB_DIR}/lib.d.ts`,
    getDefaultLibLocation: () => VIRTUAL_LIB_DIR,
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => byFileName.has(fileName) || sharedFile(fileName) !== undefined,
    readFile: (fileName) => {
      const entry = byFileName.get(fileName);
      return entry ? entry.project.files[entry.path] : sharedFile(fileName)?.text;
    },
    directoryExists: () => false,
    getDirectories: () => [],
    resolveModuleNameLiterals: (literals, containingFile) =>
      literals.map((literal) => {
        const entry = byFileName.get(containingFile);
        const found = entry ? entry.project.resolve(literal.text, entry.path) : null;
        if (!entry || found === null) return { resolvedModule: undefined };
        return { resolvedModule: { resolvedFileName: `${entry.project.root}/${found}`, extension: extensionOf(found), isExternalLibraryImport: false } };
      }),
    resolveTypeReferenceDirectiveReferences: (references) => references.map(() => ({ resolvedTypeReferenceDirective: undefined })),
  };
  const program = ts.createProgram({ rootNames: [...byFileName.keys(), STUB_FILE, PACKAGE_STUB_FILE], options: BASE_OPTIONS(), host });
  return projects.map((project) => {
    const problems: VerifyProblem[] = [];
    for (const path of project.tsPaths) {
      const file = program.getSourceFile(`${project.root}/${path}`);
      if (!file) continue;
      for (const diagnostic of program.getSemanticDiagnostics(file)) {
        const problem = toProblem(diagnostic, project.root);
        if (problem) problems.push(problem);
        if (problems.length >= MAX_TYPE_PROBLEMS) return problems;
      }
    }
    return problems;
  });
}

/** Results by a hash of the TS files and tsconfigs: the pipeline verifies the same files often. */
const results = new Map<string, VerifyProblem[]>();
const RESULT_ENTRIES = 200;

function resultKey(files: Readonly<Record<string, string>>): string {
  const hash = createHash('sha1');
  for (const path of Object.keys(files).sort()) {
    if (!isTypeScriptPath(path) && !/(^|\/)(tsconfig|jsconfig)[^/]*\.json$/i.test(path)) continue;
    hash.update(path).update('\u0000').update(files[path] ?? '').update('\u0000');
  }
  return hash.digest('base64');
}

/**
 * Type errors in each project's .ts/.tsx files, at most MAX_TYPE_PROBLEMS per project, each with
 * its line: exactly what checking each project alone gives. Callers run it only when those files
 * parse (syntax errors make for noisy type errors).
 */
export function typeCheckMany(list: readonly Readonly<Record<string, string>>[]): VerifyProblem[][] {
  const answers: (VerifyProblem[] | undefined)[] = list.map(() => undefined);
  // Projects still to check, by result key (the same files sent twice are checked once).
  const todo = new Map<string, { files: Readonly<Record<string, string>>; tsPaths: string[]; indexes: number[] }>();
  list.forEach((files, index) => {
    const tsPaths = Object.keys(files).filter(isTypeScriptPath).sort();
    if (tsPaths.length === 0) return void (answers[index] = []);
    const key = resultKey(files);
    const cached = results.get(key);
    if (cached) {
      results.delete(key);
      results.set(key, cached);
      return void (answers[index] = cached);
    }
    const entry = todo.get(key);
    if (entry) entry.indexes.push(index);
    else todo.set(key, { files, tsPaths, indexes: [index] });
  });

  const entries = [...todo];
  const shared = entries.length > 1 ? entries.map(([, entry], i) => prepare(entry.files, entry.tsPaths, `/__wolfpack_p${i}__`)) : [];
  // Self-contained projects with identical stubs share one program; every other one gets its own.
  const groups = new Map<string, number[]>();
  const alone: number[] = [];
  shared.forEach((project, i) => {
    if (!isSelfContained(project)) return void alone.push(i);
    const group = groups.get(project.stubs);
    if (group) group.push(i);
    else groups.set(project.stubs, [i]);
  });
  const store = (i: number, problems: VerifyProblem[]) => {
    const [key, entry] = entries[i]!;
    results.set(key, problems);
    if (results.size > RESULT_ENTRIES) results.delete(results.keys().next().value!);
    for (const index of entry.indexes) answers[index] = problems;
  };
  for (const [stubs, members] of groups) {
    if (members.length === 1) alone.push(members[0]!);
    else check(members.map((i) => shared[i]!), stubs).forEach((problems, k) => store(members[k]!, problems));
  }
  if (entries.length === 1) alone.push(0);
  for (const i of alone) {
    const [, entry] = entries[i]!;
    const project = prepare(entry.files, entry.tsPaths, '');
    store(i, check([project], project.stubs)[0]!);
  }
  return answers.map((problems) => (problems ?? []).map((p) => ({ ...p })));
}

/** {@link typeCheckMany} of one project. */
export function typeCheck(files: Readonly<Record<string, string>>): VerifyProblem[] {
  return typeCheckMany([files])[0]!;
}
