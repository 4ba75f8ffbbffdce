/**
 * Syntax errors and import specifiers of one JS/TS/CSS module, from esbuild. esbuild's parser is
 * the one Vite and tsx use, so "parses here" means "loads there"; asking its bundler for a
 * metafile with every import marked external lists imports, `require()` and dynamic `import()`
 * without our own regexes tripping over strings and comments.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { build as buildAsync, buildSync, type BuildFailure, type BuildOptions, type BuildResult, type Loader, type Message } from 'esbuild';

export type ModuleImportKind = 'import' | 'require' | 'dynamic-import' | 'css-import';

export interface ModuleImport {
  specifier: string;
  kind: ModuleImportKind;
}

export interface ModuleError {
  message: string;
  line?: number;
}

export interface ModuleScan {
  errors: ModuleError[];
  imports: ModuleImport[];
}

const LOADER_BY_EXTENSION: Record<string, Loader> = {
  ts: 'ts',
  mts: 'ts',
  cts: 'ts',
  tsx: 'tsx',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  css: 'css',
};

/** The esbuild loader for a path, or null when esbuild cannot check that kind of file. */
export function loaderFor(path: string): Loader | null {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? null : (LOADER_BY_EXTENSION[ext] ?? null);
}

const KIND_BY_ESBUILD: Record<string, ModuleImportKind | undefined> = {
  'import-statement': 'import',
  'require-call': 'require',
  'require-resolve': 'require',
  'dynamic-import': 'dynamic-import',
  'import-rule': 'css-import',
  // `url()` tokens in CSS point at images and fonts the project cannot generate; not checked.
};

function toErrors(messages: readonly Message[]): ModuleError[] {
  return messages.map((m) => {
    const error: ModuleError = { message: m.text };
    if (m.location) error.line = m.location.line;
    return error;
  });
}

// CSS parsers recover from errors, so esbuild only warns; these warnings still mean the browser
// drops rules the author wrote.
const CSS_WARNINGS_THAT_BREAK = new Set(['css-syntax-error', 'js-comment-in-css', 'invalid-@import']);

function isBuildFailure(error: unknown): error is BuildFailure {
  return typeof error === 'object' && error !== null && Array.isArray((error as BuildFailure).errors);
}

function buildOptions(path: string, content: string, loader: Loader) {
  return {
    stdin: {
      contents: content,
      loader,
      sourcefile: path,
      // A directory that does not exist: esbuild then has no tsconfig.json or package.json of
      // this machine to pick up, so the result depends on the content alone.
      resolveDir: '/wolfpack-virtual-project',
    },
    bundle: true,
    write: false,
    metafile: true,
    external: ['*'],
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    // Keep value imports that are only used as types, as tsc with verbatimModuleSyntax would.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  } satisfies BuildOptions;
}

type ScanResult = BuildResult<ReturnType<typeof buildOptions>>;

function toScan(result: ScanResult, loader: Loader): ModuleScan {
  const imports: ModuleImport[] = [];
  for (const input of Object.values(result.metafile.inputs)) {
    for (const entry of input.imports) {
      const kind = KIND_BY_ESBUILD[entry.kind];
      if (kind !== undefined) imports.push({ specifier: entry.path, kind });
    }
  }
  const errors = loader === 'css' ? toErrors(result.warnings.filter((w) => CSS_WARNINGS_THAT_BREAK.has(w.id))) : [];
  return { errors, imports };
}

function failed(error: unknown): ModuleScan {
  if (isBuildFailure(error)) return { errors: toErrors(error.errors), imports: [] };
  throw error;
}

function build(path: string, content: string, loader: Loader): ModuleScan {
  try {
    return toScan(buildSync(buildOptions(path, content, loader)), loader);
  } catch (error) {
    return failed(error);
  }
}

async function buildInService(path: string, content: string, loader: Loader): Promise<ModuleScan> {
  try {
    return toScan(await buildAsync(buildOptions(path, content, loader)), loader);
  } catch (error) {
    return failed(error);
  }
}

/** A `.js` file that does not parse is tried again as JSX (Create React App and webpack setups allow it). */
function retryAsJsx(loader: Loader, scan: ModuleScan): boolean {
  return loader === 'js' && scan.errors.length > 0;
}

/** The JSX reading when it parses, else the plain one (its errors are the ones to report). */
function orJsx(plain: ModuleScan, asJsx: ModuleScan): ModuleScan {
  return asJsx.errors.length === 0 ? asJsx : plain;
}

function cacheKey(path: string, content: string): string {
  return `${path}\u0000${createHash('sha1').update(content).digest('base64')}`;
}

function remember(key: string, scan: ModuleScan): void {
  cache.set(key, scan);
}

/**
 * Scans these files in esbuild's service, all at once, and remembers the results for
 * {@link scanModule}. The synchronous scan blocks the thread for a round trip to esbuild per file
 * (a few milliseconds each when Building's files arrive together, all of it on the run's critical
 * path, and in the server every other user's request waits too); here the files are parsed in
 * parallel while the thread stays free. Same options, same cache: the results are identical.
 */
export async function prescanModules(files: Iterable<{ path: string; content: string }>): Promise<void> {
  const pending: Array<Promise<void>> = [];
  for (const { path, content } of files) {
    const loader = loaderFor(path);
    if (loader === null) continue;
    const key = cacheKey(path, content);
    if (cache.has(key)) continue;
    pending.push(
      (async () => {
        const scan = await buildInService(path, content, loader);
        remember(key, retryAsJsx(loader, scan) ? orJsx(scan, await buildInService(path, content, 'jsx')) : scan);
      })(),
    );
  }
  await Promise.all(pending);
}

/**
 * Parses a module and lists what it imports. Returns null for files esbuild does not read.
 * A `.js` file with JSX is accepted (Create React App and webpack setups allow it).
 */
export function scanModule(path: string, content: string): ModuleScan | null {
  const loader = loaderFor(path);
  if (loader === null) return null;
  // The pipeline verifies the same files again and again (Checking, each Polishing trial, Proven
  // Code) and each esbuild call costs about a millisecond: remember results per path and content.
  const key = cacheKey(path, content);
  const cached = cache.get(key);
  if (cached) return cached;
  const first = build(path, content, loader);
  const scan = retryAsJsx(loader, first) ? orJsx(first, build(path, content, 'jsx')) : first;
  remember(key, scan);
  return scan;
}

/** Least-recently-used results of scanModule. */
const cache = new LRUCache<string, ModuleScan>({ max: 4000 });
