/**
 * The real declarations of a project's dependencies, for the type check: a node_modules folder
 * the execution gate installed (scripts off, outside the sandbox), seen by the compiler at
 * `/node_modules` beside the project's in-memory files. Packages' own `types`/`typings`/`exports`
 * types and `@types/*` resolve as `tsc` would find them in the project folder.
 *
 * Read-only and bounded: only declaration, TypeScript and package.json files are read, never a
 * file whose real path leaves the folder (a symlink out, a `types` of `../../etc/x`), never one
 * past {@link MAX_FILE_BYTES}. Parsed files are kept per path, modification time and size, so the
 * many checks of one run (and of runs with the same dependencies) parse a package once.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import type TS from 'typescript-checker';
import { LRUCache } from 'lru-cache';
import { ts } from './typescript-lazy.js';

/** Where the installed packages appear to the compiler. */
export const NODE_MODULES = '/node_modules';
/** A declaration file larger than this is not read (the largest real ones are a few hundred KB). */
export const MAX_FILE_BYTES = 8 << 20;
const READABLE = /(\.d\.[cm]?ts|\.[cm]?tsx?|(^|\/)package\.json)$/i;
const TS_EXTENSIONS = new Set(['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.d.mts', '.d.cts']);

/** Parsed declaration files by real path, with what they were parsed from. */
const parsed = new LRUCache<string, { mtimeMs: number; size: number; file: TS.SourceFile }>({ max: 5000 });

export class InstalledPackages {
  private readonly stats = new Map<string, ReturnType<typeof statSync> | null>();

  private constructor(
    /** Real path of the node_modules folder. */
    readonly folder: string,
  ) {}

  /** The installed packages in `nodeModules`, or null when there is no such folder. */
  static open(nodeModules: string): InstalledPackages | null {
    try {
      const folder = realpathSync(nodeModules);
      return statSync(folder).isDirectory() ? new InstalledPackages(folder) : null;
    } catch {
      return null;
    }
  }

  /** The host path behind a compiler path, or null outside `/node_modules` or outside the folder. */
  private hostPath(fileName: string): string | null {
    const normal = posix.normalize(fileName);
    if (normal !== NODE_MODULES && !normal.startsWith(`${NODE_MODULES}/`)) return null;
    return join(this.folder, normal.slice(NODE_MODULES.length));
  }

  /** Stat of a host path once its real path is known to be inside the folder (cached for this check). */
  private stat(host: string): ReturnType<typeof statSync> | null {
    if (this.stats.has(host)) return this.stats.get(host)!;
    let found: ReturnType<typeof statSync> | null = null;
    try {
      const real = realpathSync(host);
      if (real === this.folder || real.startsWith(this.folder + sep)) found = statSync(real);
    } catch {
      found = null;
    }
    this.stats.set(host, found);
    return found;
  }

  fileExists(fileName: string): boolean {
    const host = this.hostPath(fileName);
    return host !== null && READABLE.test(host) && (this.stat(host)?.isFile() ?? false);
  }

  readFile(fileName: string): string | undefined {
    const host = this.hostPath(fileName);
    if (host === null || !READABLE.test(host)) return undefined;
    const stat = this.stat(host);
    if (!stat?.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    try {
      return readFileSync(host, 'utf8');
    } catch {
      return undefined;
    }
  }

  directoryExists(directory: string): boolean {
    const host = this.hostPath(directory);
    return host !== null && (this.stat(host)?.isDirectory() ?? false);
  }

  getDirectories(directory: string): string[] {
    const host = this.hostPath(directory);
    if (host === null || !this.stat(host)?.isDirectory()) return [];
    try {
      return readdirSync(host, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  }

  /** The parsed file, shared with every earlier check that read the same file unchanged. */
  sourceFile(fileName: string, languageVersionOrOptions: TS.ScriptTarget | TS.CreateSourceFileOptions): TS.SourceFile | undefined {
    const host = this.hostPath(fileName);
    if (host === null || !READABLE.test(host)) return undefined;
    const stat = this.stat(host);
    if (!stat?.isFile()) return undefined;
    const real = realpathSync(host);
    const cached = parsed.get(real);
    if (cached && cached.mtimeMs === Number(stat.mtimeMs) && cached.size === Number(stat.size) && cached.file.fileName === fileName) return cached.file;
    const text = this.readFile(fileName);
    if (text === undefined) return undefined;
    const file = ts.createSourceFile(fileName, text, languageVersionOrOptions, false);
    parsed.set(real, { mtimeMs: Number(stat.mtimeMs), size: Number(stat.size), file });
    return file;
  }

  /** The `@types/*` packages installed, as `tsc` includes them by default (`node`, `react`, `scope__pkg`). */
  typesPackages(): string[] {
    return this.getDirectories(`${NODE_MODULES}/@types`)
      .filter((name) => this.fileExists(`${NODE_MODULES}/@types/${name}/package.json`) || this.fileExists(`${NODE_MODULES}/@types/${name}/index.d.ts`))
      .sort();
  }

  /** What module resolution needs of a host: the folder, read-only. */
  resolutionHost(): TS.ModuleResolutionHost {
    return {
      fileExists: (fileName) => this.fileExists(fileName),
      readFile: (fileName) => this.readFile(fileName),
      directoryExists: (directory) => this.directoryExists(directory),
      getDirectories: (directory) => this.getDirectories(directory),
      realpath: (path) => path,
      getCurrentDirectory: () => '/',
      useCaseSensitiveFileNames: true,
    };
  }
}

/** Is this a file the compiler reads types from (not a .js it would skip without allowJs)? */
export function isTypedResolution(resolved: TS.ResolvedModuleFull | undefined): resolved is TS.ResolvedModuleFull {
  return resolved !== undefined && TS_EXTENSIONS.has(resolved.extension);
}
