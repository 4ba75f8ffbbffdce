/**
 * The HTTP routes a generated server answers, read from its files alone (pure): Express, Koa
 * routers, Fastify, Hono, hapi and `node:http` in JavaScript and TypeScript, Next.js route
 * handlers, Flask and FastAPI in Python, and the `GET /path` (or `curl …`) lines of a README.
 * Mount prefixes are followed where the code says them plainly (`app.use('/api', notes)` with
 * `notes` a router of the same file or an imported file; `new Router({ prefix })`, Fastify's
 * `register(…, { prefix })`, Hono's `route`/`basePath`, blueprints' `url_prefix`).
 *
 * It reads text, not syntax trees: a route built at run time is missed, and that is fine for its
 * uses (the routes a project page lists, the ones Proven Code requests once after a start).
 */

export interface ServerRoute {
  /** GET, POST, PUT, PATCH or DELETE. */
  method: string;
  /** As the server matches it, mount prefix included: `/api/notes`, `/notes/:id`. */
  path: string;
  /** Where it was found (a README when only the README names it). */
  file: string;
  line?: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const JS_SOURCE = /\.(c|m)?(j|t)sx?$/;
const PY_SOURCE = /\.py$/;
const README = /(^|\/)readme(\.(md|markdown|txt|rst))?$/i;
const IGNORED = /(^|\/)(node_modules|dist|build|out|coverage|\.next|\.venv|venv|__pycache__)\//;
// Tests call routes (`request(app).get('/x')`), browser code calls APIs: neither defines one.
const TEST = /(\.(test|spec)\.[cm]?[jt]sx?$)|((^|\/)(test|tests|__tests__|e2e)\/)|((^|\/)test_[^/]*\.py$)|(_test\.py$)/;
const BROWSER_DIR = /(^|\/)(public|static|client|frontend|assets|www)\//;
// Receivers that are HTTP clients or maps, whose `.get('/x')` asks for a route rather than defining one.
const CLIENTS = new Set(['axios', 'http', 'https', 'got', 'ky', 'superagent', 'request', 'fetch', '$', 'jQuery', 'jquery', 'client', 'apiClient', 'supertest', 'agent', 'cache', 'map', 'params', 'searchParams', 'headers', 'cookies', 'localStorage', 'sessionStorage', 'requests', 'httpx', 'session']);
const CLIENT_IMPORT = /(?:from\s+|require\s*\(\s*)['"](?:react|react-dom|vue|svelte|preact|solid-js|@angular\/[\w-]+|axios)['"]/;
const SERVER_IMPORT = /(?:from\s+|require\s*\(\s*)['"](?:express|koa|@koa\/router|koa-router|fastify|hono|@hono\/[\w-]+|@hapi\/hapi|restify|polka|h3|connect|(?:node:)?https?)['"]/;

interface Found {
  method: string;
  path: string;
  /** The object the route is defined on (`router` of `router.get`), when there is one. */
  receiver: string | null;
  line: number;
}

interface Mount {
  /** The object mounted on (`app` of `app.use('/api', notes)`). */
  on: string;
  prefix: string;
  /** Identifiers and files mounted there. */
  targets: string[];
}

interface Parsed {
  routes: Found[];
  mounts: Mount[];
  /** Prefixes objects are made with (`new Router({ prefix: '/api' })`, `Blueprint(…, url_prefix='/api')`). */
  ownPrefix: Map<string, string>;
  /** Local names imported from other files of the project. */
  imports: Map<string, string>;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Comments blanked (line lengths kept) so that a commented-out route is not one. */
function withoutComments(text: string, python: boolean): string {
  if (python) return text.replace(/^[ \t]*#.*$/gm, (m) => ' '.repeat(m.length));
  return text.replace(/^[ \t]*\/\/.*$/gm, (m) => ' '.repeat(m.length)).replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, (m) => m.replace(/[^\n]/g, ' '));
}

/** A relative import of `from` resolved to a project file, or undefined. */
function resolveImport(paths: ReadonlySet<string>, from: string, spec: string, python: boolean): string | undefined {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
  if (python) {
    const dots = /^\.*/.exec(spec)![0].length;
    const up = dir.split('/').filter(Boolean);
    // Relative: from the file's package up (dots - 1) levels. Absolute: from the root, else from the
    // file's own folder (an app in backend/ run from there).
    const bases = dots > 0 ? [up.slice(0, Math.max(0, up.length - (dots - 1))).join('/')] : ['', dir];
    const module = spec.slice(dots).replaceAll('.', '/');
    for (const base of bases) {
      const stem = base && module ? `${base}/${module}` : base || module;
      const hit = [`${stem}.py`, `${stem}/__init__.py`].find((p) => paths.has(p));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (!spec.startsWith('.')) return undefined;
  const parts: string[] = dir ? dir.split('/') : [];
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const joined = parts.join('/');
  const stem = joined.replace(/\.(c|m)?js$/, '');
  const candidates = [joined, ...['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts', '.jsx', '.tsx'].flatMap((ext) => [stem + ext, `${joined}/index${ext}`])];
  return candidates.find((p) => paths.has(p));
}

function parseJs(file: string, text: string, paths: ReadonlySet<string>): Parsed {
  const parsed: Parsed = { routes: [], mounts: [], ownPrefix: new Map(), imports: new Map() };
  const source = withoutComments(text, false);
  const add = (method: string, path: string, receiver: string | null, index: number) => parsed.routes.push({ method: method.toUpperCase(), path, receiver, line: lineAt(source, index) });

  for (const m of source.matchAll(/import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))?\s*from\s*['"]([^'"]+)['"]/g)) {
    const target = resolveImport(paths, file, m[4]!, false);
    if (target === undefined) continue;
    const names = [m[1], m[3], ...(m[2] ?? '').split(',').map((n) => n.trim().split(/\s+as\s+/).pop())];
    for (const name of names) if (name) parsed.imports.set(name, target);
  }
  for (const m of source.matchAll(/(?:const|let|var)\s+(?:(\w+)|\{([^}]*)\})\s*=\s*require\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const target = resolveImport(paths, file, m[3]!, false);
    if (target === undefined) continue;
    for (const name of [m[1], ...(m[2] ?? '').split(',').map((n) => n.trim().split(/\s*:\s*/).pop())]) if (name) parsed.imports.set(name, target);
  }
  // Made with a prefix: Koa's router, Hono's basePath.
  for (const m of source.matchAll(/(\w+)\s*=\s*new\s+\w*Router\s*\(\s*\{[^}]*\bprefix\s*:\s*['"](\/[^'"]*)['"]/g)) parsed.ownPrefix.set(m[1]!, m[2]!);
  for (const m of source.matchAll(/(\w+)\s*=\s*new\s+Hono\s*(?:<[^>]*>)?\(\s*[^)]*\)\s*\.basePath\(\s*['"](\/[^'"]*)['"]/g)) parsed.ownPrefix.set(m[1]!, m[2]!);

  // app.get('/x', …), router.post(…), and the next links of a chain: .put('/y', …).
  const route = new RegExp(String.raw`(?:(?<![\w$])([A-Za-z_$][\w$]*)|\))\s*\.\s*(get|post|put|patch|delete|del)\s*(?:<[^>(]*>)?\(\s*(['"\`])(\/[^'"\`\s]*)\3`, 'g');
  for (const m of source.matchAll(route)) {
    const receiver = m[1] ?? null;
    if (receiver !== null && CLIENTS.has(receiver)) continue;
    add(m[2] === 'del' ? 'DELETE' : m[2]!, m[4]!, receiver, m.index);
  }
  // Express's app.route('/x').get(…).post(…): one path, the methods chained after it.
  for (const m of source.matchAll(/(\w+)\s*\.\s*route\s*\(\s*(['"`])(\/[^'"`\s]*)\2\s*\)((?:\s*\.\s*(?:get|post|put|patch|delete|all)\s*\((?:[^()]|\([^()]*\))*\))+)/g)) {
    for (const method of m[4]!.matchAll(/\.\s*(get|post|put|patch|delete)\s*\(/g)) add(method[1]!, m[3]!, m[1]!, m.index);
  }
  // Fastify's and hapi's route({ method, url | path }) and route([{ … }, …]).
  for (const m of source.matchAll(/\.\s*route\s*\(\s*[[{]/g)) {
    const body = source.slice(m.index, m.index + 4000);
    for (const entry of body.matchAll(/method\s*:\s*(\[[^\]]*\]|['"]\w+['"])/g)) {
      const around = body.slice(Math.max(0, entry.index - 300), entry.index + 300);
      const path = /(?:url|path)\s*:\s*(['"`])(\/[^'"`\s]*)\1/.exec(around)?.[2];
      if (path === undefined) continue;
      for (const method of entry[1]!.matchAll(/['"](\w+)['"]/g)) add(method[1]!, path, null, m.index + entry.index);
    }
  }
  // Route tables keyed by `'GET /health'`, as hand-written node:http routers often are.
  for (const m of source.matchAll(/(['"`])(GET|POST|PUT|PATCH|DELETE) (\/[^'"`\s]*)\1/g)) add(m[2]!, m[3]!, null, m.index);
  // node:http: `req.url === '/x'`, `pathname === '/x'`, `case '/x':`, in a file that makes a server.
  if (/\bcreateServer\s*\(/.test(source)) {
    const lines = source.split('\n');
    lines.forEach((text, i) => {
      const method = /method\s*===?\s*['"](GET|POST|PUT|PATCH|DELETE)['"]/.exec(text)?.[1] ?? 'GET';
      for (const m of text.matchAll(/(?:\burl|\bpathname|\bpath)\s*===?\s*(['"`])(\/[^'"`\s]*)\1|\bcase\s+(['"`])(\/[^'"`\s]*)\3\s*:/g)) {
        parsed.routes.push({ method, path: m[2] ?? m[4]!, receiver: null, line: i + 1 });
      }
    });
  }
  // Mounts: app.use('/api', [middleware,] notes), app.route('/api', notes) (Hono), register(notes, { prefix }).
  for (const m of source.matchAll(/(\w+)\s*\.\s*(?:use|route)\s*\(\s*(['"`])(\/[^'"`\s]*)\2\s*,([^;]*?)\)\s*(?:;|\n|$)/g)) {
    parsed.mounts.push({ on: m[1]!, prefix: m[3]!, targets: mountTargets(m[4]!, file, paths) });
  }
  for (const m of source.matchAll(/(\w+)\s*\.\s*register\s*\(([^;]*?)\{\s*prefix\s*:\s*['"](\/[^'"]*)['"]/g)) {
    parsed.mounts.push({ on: m[1]!, prefix: m[3]!, targets: mountTargets(m[2]!, file, paths) });
  }
  return parsed;
}

/** What a mount's arguments mount: identifiers, and files required or imported in place. */
function mountTargets(args: string, file: string, paths: ReadonlySet<string>): string[] {
  const inline = [...args.matchAll(/(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => resolveImport(paths, file, m[1]!, false)).filter((p) => p !== undefined);
  const names = [...args.replace(/['"][^'"]*['"]/g, '').matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!);
  return [...inline.map((p) => `file:${p}`), ...names];
}

function parsePython(file: string, text: string, paths: ReadonlySet<string>): Parsed {
  const parsed: Parsed = { routes: [], mounts: [], ownPrefix: new Map(), imports: new Map() };
  const source = withoutComments(text, true);
  for (const m of source.matchAll(/^[ \t]*from\s+([.\w]+)\s+import\s+([^\n(]+)/gm)) {
    const from = m[1]!;
    for (const part of m[2]!.split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (!name) continue;
      // `from routers import notes` names a module; `from routers.notes import router` a thing in one.
      const target = resolveImport(paths, file, from.endsWith('.') ? from + name : `${from}.${name}`, true) ?? resolveImport(paths, file, from, true);
      if (target !== undefined) parsed.imports.set(alias ?? name, target);
    }
  }
  for (const m of source.matchAll(/^[ \t]*import\s+([\w.]+)(?:\s+as\s+(\w+))?/gm)) {
    const target = resolveImport(paths, file, m[1]!, true);
    if (target !== undefined) parsed.imports.set(m[2] ?? m[1]!, target);
  }
  for (const m of source.matchAll(/(\w+)\s*=\s*(?:Blueprint|APIRouter)\s*\(([^)]*)\)/g)) {
    const prefix = /(?:url_)?prefix\s*=\s*['"](\/[^'"]*)['"]/.exec(m[2]!)?.[1];
    if (prefix !== undefined) parsed.ownPrefix.set(m[1]!, prefix);
  }
  for (const m of source.matchAll(/^[ \t]*@(\w+)\s*\.\s*(get|post|put|patch|delete)\s*\(\s*(['"])(\/[^'"]*)\3/gm)) {
    parsed.routes.push({ method: m[2]!.toUpperCase(), path: m[4]!, receiver: m[1]!, line: lineAt(source, m.index) });
  }
  for (const m of source.matchAll(/^[ \t]*@(\w+)\s*\.\s*route\s*\(\s*(['"])(\/[^'"]*)\2([^)]*)\)/gm)) {
    const listed = /methods\s*=\s*[[(]([^\])]*)[\])]/.exec(m[4]!)?.[1];
    const methods = listed ? [...listed.matchAll(/['"](\w+)['"]/g)].map((x) => x[1]!.toUpperCase()) : ['GET'];
    for (const method of methods) parsed.routes.push({ method, path: m[3]!, receiver: m[1]!, line: lineAt(source, m.index) });
  }
  for (const m of source.matchAll(/(\w+)\s*\.\s*(?:include_router|register_blueprint)\s*\(\s*([\w.]+)\s*,[^)]*?\b(?:url_)?prefix\s*=\s*['"](\/[^'"]*)['"]/g)) {
    const target = m[2]!.split('.')[0]!;
    parsed.mounts.push({ on: m[1]!, prefix: m[3]!, targets: [target] });
  }
  return parsed;
}

/** Next.js route handlers: app/api/notes/route.ts exporting GET and POST answers /api/notes. */
function nextRoutes(file: string, text: string): ServerRoute[] {
  const dir = /^(?:src\/)?app((?:\/[^/]+)*)\/route\.[cm]?[jt]s$/.exec(file)?.[1];
  if (dir === undefined) return [];
  const segments = dir.split('/').filter((s) => s !== '' && !/^\(.*\)$/.test(s) && !s.startsWith('@'));
  const path = `/${segments.map((s) => s.replace(/^\[\[?\.\.\.(\w+)\]?\]$/, '*$1').replace(/^\[(\w+)\]$/, ':$1')).join('/')}`;
  const routes: ServerRoute[] = [];
  for (const m of text.matchAll(/export\s+(?:async\s+)?(?:function\s+|const\s+)(GET|POST|PUT|PATCH|DELETE)\b|\bas\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) {
    routes.push({ method: (m[1] ?? m[2])!, path, file, line: lineAt(text, m.index) });
  }
  return routes;
}

/** `GET /health`, `POST http://localhost:3000/api/notes`, `curl localhost:3000/health` lines of a README. */
function readmeRoutes(file: string, text: string): ServerRoute[] {
  const routes: ServerRoute[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![A-Za-z])(GET|POST|PUT|PATCH|DELETE)(?![A-Za-z])[\s`*|:]+(?:https?:\/\/[^/\s`]+)?(\/[^\s`'"()|,;]*)/g)) {
      routes.push({ method: m[1]!, path: m[2]!, file, line: i + 1 });
    }
    for (const m of line.matchAll(/\bcurl\b([^|;&]*?)\s['"]?(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?(\/[^\s'"`]*)/g)) {
      const options = `${m[1]!} ${line.slice(m.index + m[0].length)}`;
      const named = /(?:-X|--request)\s*['"]?([A-Z]+)/.exec(options)?.[1];
      const method = named ?? (/\s(?:-d|--data[\w-]*|-F|--form|--json)\b/.test(options) ? 'POST' : 'GET');
      routes.push({ method, path: m[2]!, file, line: i + 1 });
    }
  });
  return routes;
}

/** A path as a server matches it: no query or fragment, no trailing sentence punctuation. */
function cleanPath(path: string): string {
  const bare = path.split(/[?#]/)[0]!.replace(/[.:]+$/, '');
  return bare === '' ? '/' : bare;
}

function joinPaths(...parts: string[]): string {
  const joined = parts.filter((p) => p !== '' && p !== '/').map((p) => `/${p.replace(/^\/+|\/+$/g, '')}`).join('');
  const last = parts.at(-1) ?? '';
  return joined === '' ? '/' : last.length > 1 && last.endsWith('/') ? `${joined}/` : joined;
}

/**
 * Every route the project's code or README names, once each (method and path), by file and line,
 * the code's before the README's. The paths include mount prefixes the code states plainly.
 */
export function findServerRoutes(files: Readonly<Record<string, string>>): ServerRoute[] {
  const paths = new Set(Object.keys(files));
  const sources = [...paths].filter((p) => !IGNORED.test(p) && !TEST.test(p)).sort();
  const parsed = new Map<string, Parsed>();
  const found: ServerRoute[] = [];
  for (const file of sources) {
    const text = files[file] ?? '';
    if (JS_SOURCE.test(file) && !file.endsWith('.d.ts')) {
      found.push(...nextRoutes(file, text));
      const browser = BROWSER_DIR.test(file) || (CLIENT_IMPORT.test(text) && !SERVER_IMPORT.test(text));
      if (!browser) parsed.set(file, parseJs(file, text, paths));
    } else if (PY_SOURCE.test(file)) {
      parsed.set(file, parsePython(file, text, paths));
    }
  }

  // The prefix a file's routes on `receiver` are mounted under, following mounts up to a few levels.
  const prefixOf = (file: string, receiver: string | null, depth: number): string => {
    const own = parsed.get(file);
    if (!own || depth > 6) return '';
    const made = receiver !== null ? (own.ownPrefix.get(receiver) ?? '') : '';
    const local = receiver !== null ? own.mounts.find((m) => m.targets.includes(receiver)) : undefined;
    if (local) return joinPaths(prefixOf(file, local.on, depth + 1), local.prefix, made);
    for (const [other, info] of parsed) {
      if (other === file) continue;
      const mount = info.mounts.find((m) => m.targets.some((t) => t === `file:${file}` || info.imports.get(t) === file));
      if (mount) return joinPaths(prefixOf(other, mount.on, depth + 1), mount.prefix, made);
    }
    return made;
  };
  for (const [file, info] of parsed) {
    for (const r of [...info.routes].sort((a, b) => a.line - b.line)) {
      found.push({ method: r.method, path: joinPaths(prefixOf(file, r.receiver, 0), cleanPath(r.path)), file, line: r.line });
    }
  }
  for (const file of sources.filter((p) => README.test(p))) found.push(...readmeRoutes(file, files[file] ?? '').map((r) => ({ ...r, path: cleanPath(r.path) })));

  const seen = new Set<string>();
  return found.filter((r) => {
    if (!(METHODS as readonly string[]).includes(r.method)) return false;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a route's path has parameters or wildcards (`/notes/:id`, `/files/*`, `/items/{id}`, `/u/<name>`). */
export function routeHasParameters(path: string): boolean {
  return /[:*{}<>[\]()]/.test(path);
}
