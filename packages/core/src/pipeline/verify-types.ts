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
import ts from 'typescript-checker';
import { aliasCandidates, classifySpecifier, dirname, joinPath, readTsconfigs, resolveFile } from './resolve-imports.js';
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

const BASE_OPTIONS: ts.CompilerOptions = {
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
};

/** Lib and stub files, parsed once per process and shared by every program (binding included). */
const sharedFiles = new Map<string, ts.SourceFile>();

function sharedFile(fileName: string): ts.SourceFile | undefined {
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
const projectFiles = new Map<string, ts.SourceFile>();
const PROJECT_FILE_ENTRIES = 4000;

function projectFile(fileName: string, text: string): ts.SourceFile {
  const key = `${fileName}\u0000${text}`;
  const cached = projectFiles.get(key);
  if (cached) return cached;
  const kind = /\.tsx$/i.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, kind);
  projectFiles.set(key, file);
  if (projectFiles.size > PROJECT_FILE_ENTRIES) projectFiles.delete(projectFiles.keys().next().value!);
  return file;
}

const EXTENSION_BY_SUFFIX: [RegExp, ts.Extension][] = [
  [/\.d\.ts$/i, ts.Extension.Dts],
  [/\.d\.mts$/i, ts.Extension.Dmts],
  [/\.d\.cts$/i, ts.Extension.Dcts],
  [/\.tsx$/i, ts.Extension.Tsx],
  [/\.mts$/i, ts.Extension.Mts],
  [/\.cts$/i, ts.Extension.Cts],
  [/\.ts$/i, ts.Extension.Ts],
];

function extensionOf(path: string): ts.Extension {
  return EXTENSION_BY_SUFFIX.find(([re]) => re.test(path))?.[1] ?? ts.Extension.Ts;
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

function toProblem(diagnostic: ts.Diagnostic): VerifyProblem | null {
  const file = diagnostic.file;
  if (!file || IGNORED_CODES.has(diagnostic.code)) return null;
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').replace(/\n\s*/g, ' ');
  const problem: VerifyProblem = { path: file.fileName.slice(1), check: 'types', message: `TS${diagnostic.code}: ${text}` };
  if (diagnostic.start !== undefined) problem.line = file.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
  return problem;
}

interface NameTree {
  children: Map<string, NameTree>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private protected public static yield any boolean number string symbol type never unknown object undefined'.split(' '),
);

function addChain(tree: NameTree, chain: readonly string[]): void {
  let node = tree;
  for (const name of chain) {
    if (!IDENTIFIER.test(name) || RESERVED.has(name)) return;
    let child = node.children.get(name);
    if (!child) {
      child = { children: new Map() };
      node.children.set(name, child);
    }
    node = child;
  }
}

/** `a.b.c` as ['a', 'b', 'c'] when it is a plain chain of names. */
function chainOf(node: ts.Node): string[] | null {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isQualifiedName(node)) {
    const left = chainOf(node.left);
    return left && [...left, node.right.text];
  }
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
    const left = chainOf(node.expression);
    return left && [...left, node.name.text];
  }
  return null;
}

const TYPE_PARAMS = '<_0 = any, _1 = any, _2 = any, _3 = any, _4 = any, _5 = any>';

function emitTypes(tree: NameTree, indent: string): string {
  let out = '';
  for (const [name, child] of tree.children) {
    out +=
      child.children.size === 0
        ? `${indent}export type ${name}${TYPE_PARAMS} = any;\n`
        : `${indent}export namespace ${name} {\n${emitTypes(child, `${indent}  `)}${indent}}\n`;
  }
  return out;
}

/**
 * Modules for the packages the project imports, typed as loosely as `declare module '*'` but
 * usable in type positions too: every name the project imports from a package, or reaches
 * through its default or namespace import (`React.FC<P>`, `React.JSX.Element`), is both an
 * `any` value and an `any` type that takes type arguments.
 */
function packageStubs(sources: readonly ts.SourceFile[], isLocal: (specifier: string, importer: string) => boolean): string {
  const trees = new Map<string, NameTree>();
  // @types/react also declares a global `React` namespace: `React.FC` without an import.
  const globalReact: NameTree = { children: new Map() };
  const treeFor = (specifier: string): NameTree => {
    let tree = trees.get(specifier);
    if (!tree) {
      tree = { children: new Map() };
      trees.set(specifier, tree);
    }
    return tree;
  };
  for (const source of sources) {
    const importer = source.fileName.slice(1);
    const locals = new Map<string, NameTree>();
    for (const statement of source.statements) {
      const moduleSpecifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      if (moduleSpecifier === null || moduleSpecifier.startsWith('.') || isLocal(moduleSpecifier, importer)) continue;
      const tree = treeFor(moduleSpecifier);
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (clause?.name) locals.set(clause.name.text, tree);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) locals.set(bindings.name.text, tree);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) addChain(tree, [(element.propertyName ?? element.name).text]);
        }
      } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) addChain(tree, [(element.propertyName ?? element.name).text]);
      }
    }
    if (!locals.has('React')) locals.set('React', globalReact);
    // Top-down, so the first chain met is the longest (`React.JSX.Element`, not `React.JSX`).
    const visit = (node: ts.Node): void => {
      if (ts.isQualifiedName(node) || ts.isPropertyAccessExpression(node)) {
        const chain = chainOf(node);
        const tree = chain && chain.length > 1 ? locals.get(chain[0]!) : undefined;
        if (tree && chain) addChain(tree, chain.slice(1));
        if (chain) return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  let out = globalReact.children.size > 0 ? `declare namespace React {\n${emitTypes(globalReact, '  ')}}\n` : '';
  for (const [specifier, tree] of trees) {
    out += `declare module ${JSON.stringify(specifier)} {\n`;
    for (const name of tree.children.keys()) out += `  export const ${name}: any;\n`;
    out += emitTypes(tree, '  ');
    out += `  const __wolfpack_default: any;\n  namespace __wolfpack_default {\n${emitTypes(tree, '    ')}  }\n  export default __wolfpack_default;\n}\n`;
  }
  return out;
}

const PACKAGE_STUB_FILE = '/__wolfpack_stub__/packages.d.ts';

function check(files: Readonly<Record<string, string>>, tsPaths: readonly string[]): VerifyProblem[] {
  const tsFiles = new Set(tsPaths);
  const resolve = makeResolver(tsFiles, files);
  const sources = tsPaths.map((p) => projectFile(`/${p}`, files[p] ?? ''));
  const stubs = packageStubs(sources, (specifier, importer) => resolve(specifier, importer) !== null);
  const host: ts.CompilerHost = {
    getSourceFile: (fileName) => {
      if (fileName === PACKAGE_STUB_FILE) return projectFile(fileName, stubs);
      const path = fileName.slice(1);
      if (fileName.startsWith('/') && tsFiles.has(path)) return projectFile(fileName, files[path] ?? '');
      return sharedFile(fileName);
    },
    getDefaultLibFileName: () => `${VIRTUAL_LIB_DIR}/lib.d.ts`,
    getDefaultLibLocation: () => VIRTUAL_LIB_DIR,
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => tsFiles.has(fileName.slice(1)) || sharedFile(fileName) !== undefined,
    readFile: (fileName) => (tsFiles.has(fileName.slice(1)) ? files[fileName.slice(1)] : sharedFile(fileName)?.text),
    directoryExists: () => false,
    getDirectories: () => [],
    resolveModuleNameLiterals: (literals, containingFile) =>
      literals.map((literal) => {
        const found = containingFile.startsWith('/') && tsFiles.has(containingFile.slice(1)) ? resolve(literal.text, containingFile.slice(1)) : null;
        if (found === null) return { resolvedModule: undefined };
        return { resolvedModule: { resolvedFileName: `/${found}`, extension: extensionOf(found), isExternalLibraryImport: false } };
      }),
    resolveTypeReferenceDirectiveReferences: (references) => references.map(() => ({ resolvedTypeReferenceDirective: undefined })),
  };
  const program = ts.createProgram({ rootNames: [...tsPaths.map((p) => `/${p}`), STUB_FILE, PACKAGE_STUB_FILE], options: BASE_OPTIONS, host });
  const problems: VerifyProblem[] = [];
  for (const path of tsPaths) {
    const file = program.getSourceFile(`/${path}`);
    if (!file) continue;
    for (const diagnostic of program.getSemanticDiagnostics(file)) {
      const problem = toProblem(diagnostic);
      if (problem) problems.push(problem);
      if (problems.length >= MAX_TYPE_PROBLEMS) return problems;
    }
  }
  return problems;
}

/** Results by a hash of the TS files and tsconfigs: the pipeline verifies the same files often. */
const results = new Map<string, VerifyProblem[]>();
const RESULT_ENTRIES = 200;

/**
 * Type errors in the project's .ts/.tsx files, at most MAX_TYPE_PROBLEMS, each with its line.
 * Callers run it only when those files parse (syntax errors make for noisy type errors).
 */
export function typeCheck(files: Readonly<Record<string, string>>): VerifyProblem[] {
  const tsPaths = Object.keys(files).filter(isTypeScriptPath).sort();
  if (tsPaths.length === 0) return [];
  const hash = createHash('sha1');
  for (const path of Object.keys(files).sort()) {
    if (!isTypeScriptPath(path) && !/(^|\/)(tsconfig|jsconfig)[^/]*\.json$/i.test(path)) continue;
    hash.update(path).update('\u0000').update(files[path] ?? '').update('\u0000');
  }
  const key = hash.digest('base64');
  const cached = results.get(key);
  if (cached) {
    results.delete(key);
    results.set(key, cached);
    return cached.map((p) => ({ ...p }));
  }
  const problems = check(files, tsPaths);
  results.set(key, problems);
  if (results.size > RESULT_ENTRIES) results.delete(results.keys().next().value!);
  return problems.map((p) => ({ ...p }));
}
