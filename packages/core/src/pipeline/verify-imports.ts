/**
 * Import checks across the whole project: every local import must name a generated file, every
 * package import must be declared by the package.json that governs the importing file.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import {
  aliasCandidates,
  classifySpecifier,
  dirname,
  joinPath,
  readTsconfigs,
  resolveFile,
  stripQuery,
  type TsconfigResolution,
} from './resolve-imports.js';

export interface ImportProblem {
  path: string;
  check: 'imports' | 'package-json';
  message: string;
  line?: number;
}

interface Manifest {
  path: string;
  dir: string;
  name: string | undefined;
  declared: Set<string>;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

function readManifest(path: string, content: string): Manifest {
  const value: unknown = parseJsonc(content, [], { allowTrailingComma: true });
  const declared = new Set<string>();
  let name: string | undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record['name'] === 'string') name = record['name'];
    for (const field of DEPENDENCY_FIELDS) {
      const deps = record[field];
      if (typeof deps === 'object' && deps !== null) for (const dep of Object.keys(deps)) declared.add(dep);
    }
  }
  return { path, dir: dirname(path), name, declared };
}

/** The first line that mentions the specifier in quotes, for pointing the engine at it. */
function lineOf(content: string, specifier: string): number | undefined {
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.includes(`'${specifier}'`) || line.includes(`"${specifier}"`) || line.includes(`\`${specifier}\``) || line.includes(`(${specifier})`)) {
      return i + 1;
    }
  }
  return undefined;
}

function tried(candidate: string): string {
  return candidate === '' ? 'index.*' : `${candidate}, ${candidate}.{ts,tsx,js,jsx,…} or ${candidate}/index.*`;
}

export class ImportChecker {
  private readonly files: Set<string>;
  private readonly manifests: Manifest[];
  private readonly tsconfig: TsconfigResolution;
  private readonly workspaceNames: Set<string>;
  /** Undeclared package -> manifest path -> importing files. */
  private readonly missing = new Map<string, Map<string, string[]>>();
  readonly problems: ImportProblem[] = [];

  constructor(files: Readonly<Record<string, string>>) {
    this.files = new Set(Object.keys(files));
    this.manifests = Object.entries(files)
      .filter(([path]) => path === 'package.json' || path.endsWith('/package.json'))
      .map(([path, content]) => readManifest(path, content))
      // Deepest first, so the nearest package.json governs a file.
      .sort((a, b) => b.dir.length - a.dir.length);
    this.workspaceNames = new Set(this.manifests.flatMap((m) => (m.name === undefined ? [] : [m.name])));
    this.tsconfig = readTsconfigs(files);
  }

  /**
   * Imports resolve case-sensitively on Linux (and in every deployment), so `./Utils` for
   * `utils.ts` works on a Mac and fails in production: name the file the model meant.
   */
  private caseHint(candidate: string): string {
    const lower = new Set([...this.files].map((f) => f.toLowerCase()));
    if (resolveFile(candidate.toLowerCase(), lower) === null) return '';
    const match = [...this.files].find((f) => resolveFile(candidate.toLowerCase(), new Set([f.toLowerCase()])) !== null);
    return match === undefined ? '' : `; ${match} differs only in letter case, and imports are case-sensitive`;
  }

  private manifestsFor(path: string): Manifest[] {
    return this.manifests.filter((m) => m.dir === '' || path.startsWith(`${m.dir}/`));
  }

  /** Root of the package a file belongs to: where Vite serves `/` from. */
  private packageRoot(path: string): string {
    return this.manifestsFor(path)[0]?.dir ?? '';
  }

  private report(path: string, content: string, specifier: string, message: string): void {
    const problem: ImportProblem = { path, check: 'imports', message };
    const line = lineOf(content, specifier);
    if (line !== undefined) problem.line = line;
    this.problems.push(problem);
  }

  /**
   * Checks one import of `path`. In CSS `@import "theme.css"` is relative if such a file exists
   * and `@import "tailwindcss"` is a package; in HTML every URL without a leading "/" is relative.
   */
  check(path: string, content: string, rawSpecifier: string, mode: 'module' | 'css' | 'html' = 'module'): void {
    const specifier = stripQuery(rawSpecifier);
    if (specifier === '') return;
    const kind = mode === 'html' && !specifier.startsWith('/') ? ({ type: 'relative' } as const) : classifySpecifier(specifier);
    const dir = dirname(path);

    if (kind.type === 'ignored') return;
    if (kind.type === 'relative') {
      const candidate = joinPath(dir, specifier);
      if (candidate === null) {
        this.report(path, content, rawSpecifier, `'${rawSpecifier}' points outside the project`);
      } else if (resolveFile(candidate, this.files) === null) {
        this.report(path, content, rawSpecifier, `'${rawSpecifier}' does not match any generated file (looked for ${tried(candidate)})${this.caseHint(candidate)}`);
      }
      return;
    }
    if (kind.type === 'root') {
      // Vite serves `/x` from the project root and from public/.
      const root = this.packageRoot(path);
      const inRoot = joinPath(root, specifier.slice(1)) ?? '';
      const inPublic = joinPath(root, `public/${specifier.slice(1)}`) ?? '';
      if (resolveFile(inRoot, this.files) === null && resolveFile(inPublic, this.files) === null) {
        this.report(path, content, rawSpecifier, `'${rawSpecifier}' does not match any generated file (looked for ${inRoot} and ${inPublic})`);
      }
      return;
    }
    if (mode === 'css') {
      const relative = joinPath(dir, specifier);
      if (relative !== null && resolveFile(relative, this.files) !== null) return;
      if (!specifier.includes('/') && /\.css$/i.test(specifier)) {
        this.report(path, content, rawSpecifier, `'${rawSpecifier}' does not match any generated file (looked for ${relative ?? specifier})`);
        return;
      }
    }

    const alias = aliasCandidates(specifier, this.tsconfig.aliases);
    if (alias) {
      if (!alias.candidates.some((c) => resolveFile(c, this.files) !== null)) {
        const targets = alias.alias.targets.join(', ');
        this.report(path, content, rawSpecifier, `'${rawSpecifier}' does not match any generated file (alias ${alias.alias.pattern} -> ${targets} in ${alias.alias.source})`);
      }
      return;
    }
    for (const base of this.tsconfig.baseUrls) {
      const candidate = joinPath(base, specifier);
      if (candidate !== null && resolveFile(candidate, this.files) !== null) return;
    }

    if (kind.type === 'invalid') {
      // `@/x` and `~/x` with a bundler alias (vite.config resolve.alias) that we do not evaluate:
      // accept them when they name a file under src/, the universal convention.
      const rest = specifier.replace(/^[@~]\//, '');
      const root = this.packageRoot(path);
      if (rest !== specifier && [`src/${rest}`, rest].some((c) => resolveFile(joinPath(root, c) ?? '', this.files) !== null)) return;
      this.report(path, content, rawSpecifier, `'${rawSpecifier}' is neither a relative path nor a package name, and no tsconfig "paths" entry maps it`);
      return;
    }

    const { name } = kind;
    if (this.workspaceNames.has(name)) return;
    const governing = this.manifestsFor(path);
    if (governing.some((m) => m.declared.has(name))) return;
    const manifestPath = governing[0]?.path ?? 'package.json';
    const byManifest = this.missing.get(name) ?? new Map<string, string[]>();
    byManifest.set(manifestPath, [...(byManifest.get(manifestPath) ?? []), path]);
    this.missing.set(name, byManifest);
  }

  /** One problem per undeclared package and package.json, naming the files that import it. */
  undeclaredPackages(): ImportProblem[] {
    const problems: ImportProblem[] = [];
    for (const [name, byManifest] of this.missing) {
      for (const [manifestPath, importers] of byManifest) {
        const exists = this.files.has(manifestPath);
        const where = importers.length === 1 ? importers[0] : `${importers[0]} and ${importers.length - 1} more file(s)`;
        problems.push({
          path: manifestPath,
          check: 'package-json',
          message: exists
            ? `'${name}' is imported (in ${where}) but not declared in dependencies or devDependencies`
            : `'${name}' is imported (in ${where}) but the project has no package.json to declare it`,
        });
      }
    }
    return problems;
  }
}
