/**
 * Stack traces of a built site, mapped back to the project's sources through the build's source
 * maps: `http://project.local/assets/index-3f2a.js:1:4242` becomes `src/App.tsx:14:7`, so the
 * problem names the file a repair must change.
 */
import { posix } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';

export interface MappedPosition {
  /** Project-relative path (in a stack, also a package's: node_modules/react-dom/…). */
  path: string;
  line: number;
  column: number;
}

// `http://project.local/assets/index-3f2a.js:40:12`, with or without the surrounding parentheses.
const FRAME_URL = /(https?:\/\/[^\s()]+?\.m?js):(\d+):(\d+)/g;
// Sources as bundlers write them: relative to the map, or webpack's `webpack://name/./src/a.js`.
const WEBPACK_SOURCE = /^webpack:\/\/[^/]*\/(?:\.\/)?/;

/**
 * The path a map's source names, relative to the project; a package's as `node_modules/…` (the
 * bundler names it where the installed packages really are, outside the project folder), so a
 * stack reads `at invariant (node_modules/react-router/…:207:11)`. Undefined for anything else.
 */
function projectPathOf(source: string, mapDir: string, sourceRoot: string | undefined): string | undefined {
  if (WEBPACK_SOURCE.test(source)) return posix.normalize(source.replace(WEBPACK_SOURCE, ''));
  const absolute = posix.resolve(mapDir, sourceRoot ?? '', source.replace(/^file:\/\//, ''));
  if (absolute.startsWith(`${SANDBOX_PROJECT_DIR}/`)) return absolute.slice(SANDBOX_PROJECT_DIR.length + 1);
  const pkg = absolute.indexOf('/node_modules/');
  return pkg < 0 ? undefined : absolute.slice(pkg + 1);
}

export class SiteSourceMaps {
  private readonly maps = new Map<string, { map: TraceMap; dir: string } | null>();

  /**
   * @param site the built files by path (relative to the site's root)
   * @param origin the origin the site was served at, e.g. http://project.local
   * @param siteDir where the site was written inside the sandbox, so relative sources resolve
   */
  constructor(
    private readonly site: ReadonlyMap<string, Uint8Array>,
    private readonly origin: string,
    private readonly siteDir: string,
  ) {}

  private mapFor(path: string): { map: TraceMap; dir: string } | null {
    const cached = this.maps.get(path);
    if (cached !== undefined) return cached;
    let found: { map: TraceMap; dir: string } | null = null;
    const code = this.site.get(path);
    if (code !== undefined) {
      const tail = Buffer.from(code.subarray(Math.max(0, code.length - 500))).toString('utf8');
      const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(tail)?.[1];
      const mapPath = named && !named.startsWith('data:') ? posix.join(posix.dirname(path), named) : `${path}.map`;
      const raw = this.site.get(mapPath);
      if (raw !== undefined) {
        try {
          found = { map: new TraceMap(Buffer.from(raw).toString('utf8')), dir: posix.dirname(posix.join(this.siteDir, mapPath)) };
        } catch {
          found = null; // a map that does not parse maps nothing
        }
      }
    }
    this.maps.set(path, found);
    return found;
  }

  /** Where a position in a built file came from, in the project (never a package); `column` is 1-based, as browsers report it. */
  locate(url: string, line: number, column: number): MappedPosition | undefined {
    const at = this.position(url, line, column);
    return at === undefined || at.path.startsWith('node_modules/') ? undefined : at;
  }

  private position(url: string, line: number, column: number): MappedPosition | undefined {
    if (!url.startsWith(`${this.origin}/`)) return undefined;
    const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
    const entry = this.mapFor(path);
    if (!entry) return undefined;
    const original = originalPositionFor(entry.map, { line, column: Math.max(0, column - 1) });
    if (original.source === null || original.line === null) return undefined;
    const mapped = projectPathOf(original.source, entry.dir, entry.map.sourceRoot ?? undefined);
    return mapped === undefined ? undefined : { path: mapped, line: original.line, column: (original.column ?? 0) + 1 };
  }

  /** The text with every frame of a built file that a map explains replaced by its source position. */
  mapText(text: string): string {
    return text.replace(FRAME_URL, (whole, url: string, line: string, column: string) => {
      const at = this.position(url, Number(line), Number(column));
      return at ? `${at.path}:${at.line}:${at.column}` : whole;
    });
  }
}
