/**
 * Module resolution over the generated files only (no file system): relative and root-absolute
 * specifiers, tsconfig `paths`/`baseUrl`, and the package a bare specifier belongs to. Mirrors
 * what Vite/TypeScript would find closely enough that "unresolved here" means "broken there".
 */
import { isBuiltin } from 'node:module';
import { parse as parseJsonc } from 'jsonc-parser';

/** Extensions tried for an extensionless specifier, in the order bundlers try them. */
export const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.json', '.css'];

// A TypeScript project imports `./a.js` and means `./a.ts` (NodeNext) or `./a.tsx`.
const TS_FOR_JS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

export function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at === -1 ? '' : path.slice(0, at);
}

/** Joins and normalises; null when the result would leave the project root. */
export function joinPath(base: string, relative: string): string | null {
  const out: string[] = base === '' ? [] : base.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** The generated file a path names, trying extensions, `/index.*` and TS-for-JS swaps. */
export function resolveFile(candidate: string, files: ReadonlySet<string>): string | null {
  if (candidate !== '' && files.has(candidate)) return candidate;
  for (const ext of RESOLVE_EXTENSIONS) if (files.has(candidate + ext)) return candidate + ext;
  for (const ext of RESOLVE_EXTENSIONS) {
    const index = candidate === '' ? `index${ext}` : `${candidate}/index${ext}`;
    if (files.has(index)) return index;
  }
  const jsExt = /\.(js|jsx|mjs|cjs)$/.exec(candidate)?.[0];
  if (jsExt !== undefined) {
    const stem = candidate.slice(0, -jsExt.length);
    for (const ext of TS_FOR_JS[jsExt] ?? []) if (files.has(stem + ext)) return stem + ext;
  }
  return null;
}

/** Drops a Vite-style query (`./a.svg?raw`) before resolving. */
export function stripQuery(specifier: string): string {
  return specifier.replace(/[?#].*$/, '');
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;

export type SpecifierKind =
  | { type: 'relative' }
  | { type: 'root' }
  | { type: 'package'; name: string }
  | { type: 'ignored' }
  | { type: 'invalid' };

/** Classifies an import specifier; packages get their name (`@a/b/c` -> `@a/b`). */
export function classifySpecifier(specifier: string): SpecifierKind {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    return { type: 'relative' };
  }
  if (specifier.startsWith('//')) return { type: 'ignored' };
  if (specifier.startsWith('/')) return { type: 'root' };
  // node:, http(s):, data:, npm:, jsr:, virtual: modules, and `#subpath` imports are not files or
  // package.json dependencies.
  if (SCHEME.test(specifier) || specifier.startsWith('#')) return { type: 'ignored' };
  if (isBuiltin(specifier)) return { type: 'ignored' };
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  return PACKAGE_NAME.test(name) ? { type: 'package', name } : { type: 'invalid' };
}

export interface PathAlias {
  /** `@/*` */
  pattern: string;
  /** Project-relative targets with `*`, e.g. `src/*`. */
  targets: string[];
  /** The tsconfig that declares it, for messages. */
  source: string;
}

export interface TsconfigResolution {
  aliases: PathAlias[];
  /** Project-relative `baseUrl` directories, where bare specifiers may also resolve. */
  baseUrls: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects `paths` and `baseUrl` from every tsconfig/jsconfig among the files. */
export function readTsconfigs(files: Readonly<Record<string, string>>): TsconfigResolution {
  const aliases: PathAlias[] = [];
  const baseUrls: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    if (!/(^|\/)(tsconfig|jsconfig)[^/]*\.json$/i.test(path)) continue;
    const config: unknown = parseJsonc(content, [], { allowTrailingComma: true });
    const options = isRecord(config) && isRecord(config['compilerOptions']) ? config['compilerOptions'] : undefined;
    if (!options) continue;
    const dir = dirname(path);
    const baseUrl = typeof options['baseUrl'] === 'string' ? joinPath(dir, options['baseUrl']) : null;
    if (baseUrl !== null) baseUrls.push(baseUrl);
    const paths = options['paths'];
    if (!isRecord(paths)) continue;
    for (const [pattern, value] of Object.entries(paths)) {
      if (!Array.isArray(value)) continue;
      const targets = value
        .filter((t): t is string => typeof t === 'string')
        .map((t) => joinPath(baseUrl ?? dir, t))
        .filter((t): t is string => t !== null);
      aliases.push({ pattern, targets, source: path });
    }
  }
  return { aliases, baseUrls };
}

/** Does `specifier` match a tsconfig `paths` pattern? Returns the candidate files to try. */
export function aliasCandidates(specifier: string, aliases: readonly PathAlias[]): { alias: PathAlias; candidates: string[] } | null {
  for (const alias of aliases) {
    const star = alias.pattern.indexOf('*');
    let captured: string | null = null;
    if (star === -1) captured = alias.pattern === specifier ? '' : null;
    else {
      const prefix = alias.pattern.slice(0, star);
      const suffix = alias.pattern.slice(star + 1);
      if (specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length) {
        captured = specifier.slice(prefix.length, specifier.length - suffix.length);
      }
    }
    if (captured === null) continue;
    const value = captured;
    return { alias, candidates: alias.targets.map((t) => t.replace('*', value)) };
  }
  return null;
}
