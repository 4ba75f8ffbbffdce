/**
 * Which of a project's tsconfigs checks which TypeScript file, and with what global declarations:
 * the `types` and `lib` it names. The type check against installed packages uses exactly these,
 * as `tsc -b` does: a Vite app's browser code under `types: ["vite/client"]` has no `process`,
 * even when some package installed @types/node beside it.
 *
 * Read as tsc reads them, within reason: tsconfig.json at the root and the configs it references
 * (a solution-style root with `files: []` checks nothing itself), `files`, `include` and
 * `exclude` (directories, `*`, `**`, `?`), and `extends` of the project's own configs. A setting
 * inherited from a package's config (`@tsconfig/node20`) is not known here; neither is a file no
 * config covers: those keep the check's lenient defaults.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { dirname, joinPath } from './resolve-imports.js';

export interface TsconfigScope {
  /** The tsconfig, project-relative. */
  config: string;
  /** `compilerOptions.types` as written; undefined when no config of its chain names them (tsc then includes every installed @types package). */
  types: string[] | undefined;
  /** `compilerOptions.lib` as written (`["ES2022", "DOM"]`); undefined when none names it. */
  lib: string[] | undefined;
  /** The TypeScript files it checks. */
  files: string[];
}

interface RawConfig {
  compilerOptions?: { types?: unknown; lib?: unknown };
  files?: unknown;
  include?: unknown;
  exclude?: unknown;
  references?: unknown;
  extends?: unknown;
}

const MAX_CONFIGS = 20;
const DEFAULT_EXCLUDE = ['node_modules', 'bower_components', 'jspm_packages'];

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

function read(files: Readonly<Record<string, string>>, path: string): RawConfig | undefined {
  const text = files[path];
  if (text === undefined) return undefined;
  const value: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawConfig) : undefined;
}

/** A config path as a reference or `extends` names it: a folder means its tsconfig.json. */
function configPath(files: Readonly<Record<string, string>>, from: string, target: string): string | undefined {
  const joined = joinPath(dirname(from), target);
  if (joined === null) return undefined;
  for (const candidate of [joined, `${joined}.json`, `${joined}/tsconfig.json`]) if (files[candidate] !== undefined) return candidate;
  return undefined;
}

/** `types` and `lib` along the `extends` chain of the project's own configs; the nearest wins. */
function globalsOf(files: Readonly<Record<string, string>>, path: string, seen = new Set<string>()): Pick<TsconfigScope, 'types' | 'lib'> {
  const config = read(files, path);
  if (!config || seen.has(path)) return { types: undefined, lib: undefined };
  seen.add(path);
  const own = { types: strings(config.compilerOptions?.types), lib: strings(config.compilerOptions?.lib) };
  const base = typeof config.extends === 'string' ? configPath(files, path, config.extends) : undefined;
  const inherited = base ? globalsOf(files, base, seen) : { types: undefined, lib: undefined };
  return { types: own.types ?? inherited.types, lib: own.lib ?? inherited.lib };
}

/**
 * A tsconfig pattern (relative to `dir`) as a test of project paths. A plain name covers a folder's
 * files; a wildcard of `include` names files, one of `exclude` folders too (`src/legacy*` excludes
 * whatever is under such a folder).
 */
function matcher(dir: string, pattern: string, folders: boolean): (path: string) => boolean {
  const full = joinPath(dir === '.' ? '' : dir, pattern.replace(/^\.\//, '').replace(/\/$/, '')) ?? pattern;
  if (!/[*?]/.test(full)) return (path) => path === full || full === '' || path.startsWith(`${full}/`);
  const source = full
    .split('/')
    .map((part) => (part === '**' ? '(?:[^/]+/)*' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*').replaceAll('?', '[^/]')}/`))
    .join('');
  const re = new RegExp(`^${source.replace(/\/$/, '')}$`);
  return (path) => re.test(path) || (folders && path.split('/').some((_, i, parts) => i > 0 && re.test(parts.slice(0, i).join('/'))));
}

function covered(config: RawConfig, path: string, tsPaths: readonly string[]): string[] {
  const dir = dirname(path);
  const listed = strings(config.files) ?? [];
  const include = strings(config.include) ?? (config.files === undefined ? ['**/*'] : []);
  const exclude = (strings(config.exclude) ?? DEFAULT_EXCLUDE).map((p) => matcher(dir, p, true));
  const explicit = new Set(listed.map((f) => joinPath(dir === '.' ? '' : dir, f)));
  const included = include.map((p) => matcher(dir, p, false));
  return tsPaths.filter((p) => explicit.has(p) || (included.some((m) => m(p)) && !exclude.some((m) => m(p))));
}

/**
 * The scopes of the project's tsconfigs over `tsPaths` (each file in the first that covers it),
 * and the files none covers. No tsconfig.json at the root: no scope.
 */
export function tsconfigScopes(files: Readonly<Record<string, string>>, tsPaths: readonly string[]): { scopes: TsconfigScope[]; uncovered: string[] } {
  const scopes: TsconfigScope[] = [];
  const taken = new Set<string>();
  const queue = files['tsconfig.json'] === undefined ? [] : ['tsconfig.json'];
  const visited = new Set<string>();
  while (queue.length > 0 && visited.size < MAX_CONFIGS) {
    const path = queue.shift()!;
    if (visited.has(path)) continue;
    visited.add(path);
    const config = read(files, path);
    if (!config) continue;
    for (const reference of Array.isArray(config.references) ? config.references : []) {
      const target = typeof reference === 'object' && reference !== null ? (reference as { path?: unknown }).path : undefined;
      const found = typeof target === 'string' ? configPath(files, path, target) : undefined;
      if (found) queue.push(found);
    }
    const mine = covered(config, path, tsPaths).filter((p) => !taken.has(p));
    if (mine.length === 0) continue;
    for (const p of mine) taken.add(p);
    scopes.push({ config: path, ...globalsOf(files, path), files: mine });
  }
  return { scopes, uncovered: tsPaths.filter((p) => !taken.has(p)) };
}
