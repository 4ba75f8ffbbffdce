/**
 * Syntax errors and import specifiers of one JS/TS/CSS module, from esbuild. esbuild's parser is
 * the one Vite and tsx use, so "parses here" means "loads there"; asking its bundler for a
 * metafile with every import marked external lists imports, `require()` and dynamic `import()`
 * without our own regexes tripping over strings and comments.
 */
import { createHash } from 'node:crypto';
import { buildSync, type BuildFailure, type Loader, type Message } from 'esbuild';

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

function build(path: string, content: string, loader: Loader): ModuleScan {
  try {
    const result = buildSync({
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
    });
    const imports: ModuleImport[] = [];
    for (const input of Object.values(result.metafile.inputs)) {
      for (const entry of input.imports) {
        const kind = KIND_BY_ESBUILD[entry.kind];
        if (kind !== undefined) imports.push({ specifier: entry.path, kind });
      }
    }
    const errors = loader === 'css' ? toErrors(result.warnings.filter((w) => CSS_WARNINGS_THAT_BREAK.has(w.id))) : [];
    return { errors, imports };
  } catch (error) {
    if (isBuildFailure(error)) return { errors: toErrors(error.errors), imports: [] };
    throw error;
  }
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
  const key = `${path}\u0000${createHash('sha1').update(content).digest('base64')}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  let scan = build(path, content, loader);
  if (scan.errors.length > 0 && loader === 'js') {
    const asJsx = build(path, content, 'jsx');
    if (asJsx.errors.length === 0) scan = asJsx;
  }
  cache.set(key, scan);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return scan;
}

/** Least-recently-used results of scanModule (a Map keeps insertion order). */
const cache = new Map<string, ModuleScan>();
const CACHE_ENTRIES = 4000;
