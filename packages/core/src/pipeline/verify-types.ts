/**
 * Type-checks the TypeScript files of a generated project with the classic TypeScript compiler
 * (5.x, which still has a JS API; the repo's own TypeScript 7 is native). The project's files stay
 * in memory.
 *
 * When the execution gate installed the project's dependencies, their real declarations are read
 * from that node_modules folder (see installed-packages.ts): `z.infer<typeof Schema>` is checked
 * against zod's own types, and the files a tsconfig covers get exactly its `types` and `lib`
 * (tsconfig-scopes.ts), so `process` in browser code under `types: ["vite/client"]` is TS2591 as
 * in the project's own `tsc -b`, whatever @types/node some package installed. Otherwise, and for an installed package that ships no types, imports
 * of packages are typed by stand-ins (package-stubs.ts, and an ambient `declare module '*'` for
 * everything else that does not resolve to a project .ts/.tsx file: CSS, images, JS and JSON);
 * their absence is the imports check's business, and an error only a stand-in can cause is
 * never reported (stand-in-diagnostics.ts). The options are lenient (no `strict`) so only
 * mistakes that would break `tsc` in any setup are reported: wrong types, wrong argument counts,
 * missing properties, unknown names.
 */
import { createHash } from 'node:crypto';
import type TS from 'typescript-checker';
import { LRUCache } from 'lru-cache';
import { ts } from './typescript-lazy.js';
import { aliasCandidates, classifySpecifier, dirname, joinPath, readTsconfigs, resolveFile } from './resolve-imports.js';
import { InstalledPackages, isTypedResolution, NODE_MODULES } from './installed-packages.js';
import { packageStubs } from './package-stubs.js';
import { causedByStandIn } from './stand-in-diagnostics.js';
import { tsconfigScopes, type TsconfigScope } from './tsconfig-scopes.js';
import { ambientFile, extensionOf, isStandInFile, LIBS, PACKAGE_STUB_FILE, projectFile, sharedFile, VIRTUAL_LIB_DIR, type AmbientParts } from './typescript-files.js';
import type { VerifyProblem } from './verify-problem.js';

/** At most this many type problems per project: past that, more lines only bury the first. */
export const MAX_TYPE_PROBLEMS = 20;

const TS_FILE = /\.(ts|tsx|mts|cts)$/i;

/** Is this a file the type check reads (TypeScript sources and declarations)? */
export function isTypeScriptPath(path: string): boolean {
  return TS_FILE.test(path) && !path.split('/').includes('node_modules');
}

/** Where the type check finds the packages' declarations. */
export interface TypeCheckOptions {
  /**
   * A node_modules folder where the project's dependencies are installed (the execution gate's
   * cache, read-only): their real declarations are checked against. Without it, or when it is
   * gone, packages are typed by stand-ins.
   */
  nodeModules?: string;
}

// "Cannot find name 'process'. Do you need to install type definitions for node?" and the like:
// the missing types are the uninstalled packages', not the code's fault. 2688: a
// `/// <reference types>` to a package that is not installed.
// 2347: type arguments on a call of an `any` package function (`useState<T>()`). 2607: a class
// component whose base (`React.Component`) is `any` has no typed `props`. 1202: `import x =
// require()` is right in a CommonJS project, and the check does not read the project's `module`.
const IGNORED_CODES = new Set([2580, 2581, 2582, 2591, 2592, 2593, 2688, 2347, 2607, 1202]);
// With the packages installed and a tsconfig that covers the file, a missing global is what the
// project's own tsc reports: its tsconfig and its installs leave it undeclared.
const MISSING_GLOBAL_CODES = new Set([2580, 2581, 2582, 2591, 2592, 2593, 2688]);

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

/** Everything stands in: nothing is installed. */
const ALL_STAND_INS: AmbientParts = { jsx: true, node: true };

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

function toProblem(diagnostic: TS.Diagnostic, root: string, exact: boolean): VerifyProblem | null {
  const file = diagnostic.file;
  if (!file || (IGNORED_CODES.has(diagnostic.code) && !(exact && MISSING_GLOBAL_CODES.has(diagnostic.code)))) return null;
  // A message may quote a file name (TS2307 and others): the user's paths, without the root.
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').replace(/\n\s*/g, ' ').replaceAll(`${root}/`, '/');
  const problem: VerifyProblem = { path: file.fileName.slice(root.length + 1), check: 'types', message: `TS${diagnostic.code}: ${text}` };
  if (diagnostic.start !== undefined) problem.line = file.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
  return problem;
}

/** One project of a check: its files, its TS paths, and where they sit in the virtual file system. */
interface CheckedProject {
  files: Readonly<Record<string, string>>;
  tsPaths: readonly string[];
  /** The files the program starts from and reports on (the others are read when imported): all of tsPaths unless a tsconfig scopes them. */
  roots: readonly string[];
  /** '' alone; `/__wolfpack_p{i}__` when several projects share a program. */
  root: string;
  resolve: (specifier: string, importer: string) => string | null;
  sources: TS.SourceFile[];
  stubs: string;
}

/** A check against installed packages: where they are, how the compiler reaches them. */
interface Installed {
  packages: InstalledPackages;
  host: TS.ModuleResolutionHost;
  cache: TS.ModuleResolutionCache;
  options: TS.CompilerOptions;
  /** A package specifier's real declarations, as imported from `containingFile`. */
  resolve(specifier: string, containingFile: string, mode?: TS.ResolutionMode): TS.ResolvedModuleFull | undefined;
  /** The globals are a tsconfig's own `types` and `lib`: no stand-in for Node's, and a missing one is reported. */
  exact?: boolean;
}

function openInstalled(nodeModules: string): Installed | null {
  const packages = InstalledPackages.open(nodeModules);
  if (!packages) return null;
  const host = packages.resolutionHost();
  // tsc includes every installed @types package when a tsconfig names none.
  const options: TS.CompilerOptions = { ...BASE_OPTIONS(), types: packages.typesPackages() };
  const cache = ts.createModuleResolutionCache('/', (fileName) => fileName, options);
  const resolve = (specifier: string, containingFile: string, mode?: TS.ResolutionMode) => {
    const resolved = ts.resolveModuleName(specifier, containingFile, options, host, cache, undefined, mode).resolvedModule;
    return isTypedResolution(resolved) ? resolved : undefined;
  };
  return { packages, host, cache, options, resolve };
}

function prepare(files: Readonly<Record<string, string>>, tsPaths: readonly string[], root: string, installed?: Installed): CheckedProject {
  const tsFiles = new Set(tsPaths);
  const resolve = makeResolver(tsFiles, files);
  const sources = tsPaths.map((p) => projectFile(`${root}/${p}`, files[p] ?? ''));
  // packageStubs names importers by file name without the leading '/': drop the rest of the root.
  // Installed packages with types need no stand-in (an exact-name ambient module would hide them).
  const isLocal = (specifier: string, importer: string) =>
    resolve(specifier, importer.slice(root.length)) !== null || (installed !== undefined && installed.resolve(specifier, `/${importer}`) !== undefined);
  const stubs = packageStubs(sources, isLocal, { globalReact: !installed?.resolve('react', '/index.ts') });
  return { files, tsPaths, roots: tsPaths, root, resolve, sources, stubs };
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
 * With `installed` (one project only), packages resolve into its node_modules.
 */
function check(projects: readonly CheckedProject[], stubs: string, installed?: Installed): VerifyProblem[][] {
  const byFileName = new Map<string, { project: CheckedProject; path: string }>();
  for (const project of projects) for (const path of project.tsPaths) byFileName.set(`${project.root}/${path}`, { project, path });
  const packages = installed?.packages;
  const ambient = ambientFile(
    installed ? { jsx: !installed.resolve('react/jsx-runtime', '/index.tsx'), node: !installed.exact && !installed.options.types?.includes('node') } : ALL_STAND_INS,
  );
  const inNodeModules = (fileName: string) => fileName.startsWith(`${NODE_MODULES}/`);
  const host: TS.CompilerHost = {
    getSourceFile: (fileName, languageVersion) => {
      if (fileName === PACKAGE_STUB_FILE) return projectFile(fileName, stubs);
      const entry = byFileName.get(fileName);
      if (entry) return projectFile(fileName, entry.project.files[entry.path] ?? '');
      return sharedFile(fileName) ?? packages?.sourceFile(fileName, languageVersion);
    },
    getDefaultLibFileName: () => `${VIRTUAL_LIB_DIR}/lib.d.ts`,
    getDefaultLibLocation: () => VIRTUAL_LIB_DIR,
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => byFileName.has(fileName) || sharedFile(fileName) !== undefined || (packages?.fileExists(fileName) ?? false),
    readFile: (fileName) => {
      const entry = byFileName.get(fileName);
      return entry ? entry.project.files[entry.path] : (sharedFile(fileName)?.text ?? packages?.readFile(fileName));
    },
    directoryExists: (directory) => packages?.directoryExists(directory) ?? false,
    getDirectories: (directory) => packages?.getDirectories(directory) ?? [],
    realpath: (path) => path,
    resolveModuleNameLiterals: (literals, containingFile, _redirected, _options, containingSourceFile) =>
      literals.map((literal) => {
        const entry = byFileName.get(containingFile);
        const found = entry ? entry.project.resolve(literal.text, entry.path) : null;
        if (entry && found !== null) {
          return { resolvedModule: { resolvedFileName: `${entry.project.root}/${found}`, extension: extensionOf(found), isExternalLibraryImport: false } };
        }
        // With packages installed: a package the project imports, or anything a package imports.
        const packageOfProject = entry !== undefined && !literal.text.startsWith('.') && !literal.text.startsWith('/');
        if (!installed || !(packageOfProject || inNodeModules(containingFile))) return { resolvedModule: undefined };
        return { resolvedModule: installed.resolve(literal.text, containingFile, ts.getModeForUsageLocation(containingSourceFile, literal, installed.options)) };
      }),
    resolveTypeReferenceDirectiveReferences: (references, containingFile) =>
      references.map((reference) => {
        if (!installed) return { resolvedTypeReferenceDirective: undefined };
        const name = (typeof reference === 'string' ? reference : reference.fileName).toLowerCase();
        return ts.resolveTypeReferenceDirective(name, containingFile, installed.options, installed.host);
      }),
  };
  const options = installed?.options ?? BASE_OPTIONS();
  const rootNames = projects.flatMap((project) => project.roots.map((path) => `${project.root}/${path}`));
  const program = ts.createProgram({ rootNames: [...rootNames, ambient, PACKAGE_STUB_FILE], options, host });
  const checker = program.getTypeChecker();
  return projects.map((project) => {
    const problems: VerifyProblem[] = [];
    for (const path of project.roots) {
      const file = program.getSourceFile(`${project.root}/${path}`);
      if (!file) continue;
      for (const diagnostic of program.getSemanticDiagnostics(file)) {
        if (causedByStandIn(diagnostic, checker, isStandInFile)) continue;
        const problem = toProblem(diagnostic, project.root, installed?.exact === true);
        if (problem) problems.push(problem);
        if (problems.length >= MAX_TYPE_PROBLEMS) return problems;
      }
    }
    return problems;
  });
}

/** Results by a hash of the TS files and tsconfigs (and the node_modules checked against): the pipeline verifies the same files often. */
const results = new LRUCache<string, VerifyProblem[]>({ max: 200 });

function resultKey(files: Readonly<Record<string, string>>, nodeModules = ''): string {
  const hash = createHash('sha1').update(nodeModules).update('\u0000');
  for (const path of Object.keys(files).sort()) {
    if (!isTypeScriptPath(path) && !/(^|\/)(tsconfig|jsconfig)[^/]*\.json$/i.test(path)) continue;
    hash.update(path).update('\u0000').update(files[path] ?? '').update('\u0000');
  }
  return hash.digest('base64');
}

/**
 * Type errors in each project's .ts/.tsx files, at most MAX_TYPE_PROBLEMS per project, each with
 * its line: exactly what checking each project alone gives. Callers run it only when those files
 * parse (syntax errors make for noisy type errors). With `options.nodeModules` every project is
 * checked against the packages installed there (each in a program of its own).
 */
export function typeCheckMany(list: readonly Readonly<Record<string, string>>[], options: TypeCheckOptions = {}): VerifyProblem[][] {
  if (options.nodeModules !== undefined) return list.map((files) => typeCheck(files, options));
  const answers: (VerifyProblem[] | undefined)[] = list.map(() => undefined);
  // Projects still to check, by result key (the same files sent twice are checked once).
  const todo = new Map<string, { files: Readonly<Record<string, string>>; tsPaths: string[]; indexes: number[] }>();
  list.forEach((files, index) => {
    const tsPaths = Object.keys(files).filter(isTypeScriptPath).sort();
    if (tsPaths.length === 0) return void (answers[index] = []);
    const key = resultKey(files);
    const hit = results.get(key);
    if (hit) return void (answers[index] = hit);
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
  const answer = (i: number, problems: VerifyProblem[]) => {
    const [key, entry] = entries[i]!;
    results.set(key, problems);
    for (const index of entry.indexes) answers[index] = problems;
  };
  for (const [stubs, members] of groups) {
    if (members.length === 1) alone.push(members[0]!);
    else check(members.map((i) => shared[i]!), stubs).forEach((problems, k) => answer(members[k]!, problems));
  }
  if (entries.length === 1) alone.push(0);
  for (const i of alone) {
    const [, entry] = entries[i]!;
    const project = prepare(entry.files, entry.tsPaths, '');
    answer(i, check([project], project.stubs)[0]!);
  }
  return answers.map((problems) => (problems ?? []).map((p) => ({ ...p })));
}

/** The installed packages seen through one tsconfig: its `types` (tsc's default, every @types package, when it names none) and its `lib`. */
function scoped(installed: Installed, scope: Pick<TsconfigScope, 'types' | 'lib'>): Installed {
  const lib = scope.lib && ts.convertCompilerOptionsFromJson({ lib: scope.lib }, '/').options.lib;
  const options = { ...installed.options, ...(scope.types ? { types: scope.types } : {}), lib: lib && lib.length > 0 ? lib : LIBS };
  return { ...installed, options, exact: true };
}

/**
 * {@link typeCheckMany} of one project: against the packages installed in `options.nodeModules`
 * when that folder is there, else against stand-ins. Against installed packages, the files each
 * tsconfig covers are checked with its `types` and `lib` (tsconfig-scopes.ts), those none covers
 * with the lenient defaults.
 */
export function typeCheck(files: Readonly<Record<string, string>>, options: TypeCheckOptions = {}): VerifyProblem[] {
  const installed = options.nodeModules === undefined ? null : openInstalled(options.nodeModules);
  if (!installed) return typeCheckMany([files])[0]!;
  const tsPaths = Object.keys(files).filter(isTypeScriptPath).sort();
  if (tsPaths.length === 0) return [];
  const key = resultKey(files, installed.packages.folder);
  let problems = results.get(key);
  if (!problems) {
    const project = prepare(files, tsPaths, '', installed);
    const { scopes, uncovered } = tsconfigScopes(files, tsPaths);
    // Configs that declare the same globals share a program.
    const groups = new Map<string, { globals: Pick<TsconfigScope, 'types' | 'lib'>; roots: string[] }>();
    for (const scope of scopes) {
      const id = JSON.stringify([scope.types, scope.lib]);
      const group = groups.get(id) ?? groups.set(id, { globals: scope, roots: [] }).get(id)!;
      group.roots.push(...scope.files);
    }
    const runs = [...[...groups.values()].map((g) => ({ roots: g.roots, installed: scoped(installed, g.globals) })), ...(uncovered.length > 0 ? [{ roots: uncovered, installed }] : [])];
    problems = runs.flatMap((run) => check([{ ...project, roots: run.roots.sort() }], project.stubs, run.installed)[0]!).slice(0, MAX_TYPE_PROBLEMS);
    results.set(key, problems);
  }
  return problems.map((p) => ({ ...p }));
}
