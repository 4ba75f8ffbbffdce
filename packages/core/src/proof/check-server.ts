/**
 * A Node HTTP server proven by use. Once its smoke start listened (check-node.ts), it is started
 * again with the preview relay beside it (preview-server.ts), the GET routes its code or README
 * names are asked once, and its pages are loaded in the sandboxed Chromium through it, opened at
 * http://localhost:PORT as its README would say: every request the page makes to that origin goes
 * to the server over the relay's socket, so root-relative URLs (`/styles.css`,
 * `fetch('/api/notes')`) reach the project's own server, as they do in a browser. Opening
 * `public/index.html` as a file would ask for `/styles.css` at the project's root and find nothing
 * there.
 *
 * The server still has no network (the relay's socket is all that reaches it) and Chromium stays
 * in a sandbox of its own; the host only passes HTTP between the two.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Route } from 'playwright-core';
import { plural, skipped, type CheckContext } from './check-context.js';
import { loadPage, pageCheck, pageWall, referenceLine, withSandboxedBrowser, type PageCheckOptions, type PageFindings, type PageSite } from './check-page.js';
import type { InstallOptions } from './node-deps.js';
import { startPreviewServer, type PreviewServer, type PreviewServerExit } from './preview-server.js';
import type { ExecCheck, ExecProblem } from './report.js';
import type { ServerPlan } from './server-plan.js';
import { ask, REQUEST_MS, sandboxGap, ServerOutput } from './server-exchange.js';
import { findServerRoutes, routeHasParameters, type ServerRoute } from './server-routes.js';

/** How long a server whose route closed the connection has to show that it crashed before it is stopped. */
const CRASH_GRACE_MS = 1500;

/** A page the server serves, and the URL it serves it at. */
export interface ServedPage {
  file: string;
  /** `/`, `/about.html`. */
  url: string;
}

export interface ServerProof {
  plan: ServerPlan;
  /** Pages loaded through the server (its other pages are not loaded: where it serves them is not known). */
  pages: ServedPage[];
  /** The start builds first (its listen window is longer by the build's). */
  buildFirst: boolean;
}

/** Folders a server's static middleware usually serves at its root. */
const STATIC_DIRS = ['public', 'static', 'www', 'client', 'frontend'];
const STATIC_DIR = new RegExp(`^(${STATIC_DIRS.join('|')})/`);
const MAX_ROUTES = 20;
/** Routes that would stop the server on purpose: asking them proves nothing and ends the rest. */
const STOPS = /\b(shutdown|exit|quit|kill|restart|stop)\b/i;
/** The second start listens at least this long before it is given up. */
const LISTEN_MS = 5000;
const BUILD_LISTEN_MS = 12_000;

/**
 * Which of `pages` the server serves, at which URL: its home page (an index, a static folder's
 * first) at `/`, and the other pages of that static folder at their paths in it. Other pages are
 * left out: whether a server sends a page of its root or views/ at all, and where, the files do
 * not say, and a guess answered 404 would fail correct code.
 */
export function servedPages(pages: readonly string[]): ServedPage[] {
  const isIndex = (p: string) => /(^|\/)index\.html?$/i.test(p);
  const home = pages.find((p) => STATIC_DIR.test(p) && isIndex(p) && p.split('/').length === 2) ?? pages.find((p) => !STATIC_DIR.test(p) && isIndex(p));
  if (home === undefined) return [];
  const served: ServedPage[] = [{ file: home, url: '/' }];
  const dir = STATIC_DIR.exec(home)?.[0];
  if (dir === undefined) return served;
  for (const file of pages) {
    if (file === home || !file.startsWith(dir)) continue;
    served.push({ file, url: `/${file.slice(dir.length).replace(/(^|\/)index\.html?$/i, '$1')}` });
  }
  return served;
}

// A server's code that sends files: static middleware, sendFile, or reading them itself (node:http).
const SENDS_FILES = /\b(?:static|serveStatic|sendFile|sendfile|createReadStream|readFile(?:Sync)?)\s*\(|['"](?:@fastify\/static|koa-static|serve-static|@hono\/node-server\/serve-static|sirv)['"]/;
const SERVER_SOURCE = /\.(c|m)?[jt]sx?$/;
const NOT_SERVER = /(^|\/)(node_modules|test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Whether the server's code sends files at all. One that does not (an API beside a page of its own,
 * opened as a file or from elsewhere) does not serve the project's pages: they stay static pages.
 */
export function servesFiles(files: Readonly<Record<string, string>>): boolean {
  return Object.keys(files).some((f) => SERVER_SOURCE.test(f) && !STATIC_DIR.test(f) && !NOT_SERVER.test(f) && SENDS_FILES.test(files[f] ?? ''));
}

/** The project file a URL of the server names, when it is one of its static files. */
function fileForUrl(ctx: CheckContext, proof: ServerProof, url: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.split(/[?#]/)[0]!);
  } catch {
    return undefined;
  }
  const page = proof.pages.find((p) => p.url === path);
  if (page) return page.file;
  // The served pages' folders first, then any static folder (a page sent from views/ with its CSS in public/).
  const dirs = new Set([...proof.pages.map((p) => STATIC_DIR.exec(p.file)?.[0] ?? ''), ...STATIC_DIRS.map((d) => `${d}/`), '']);
  return [...dirs].map((d) => d + path.replace(/^\/+/, '')).find((f) => ctx.paths.has(f));
}


const pageCommand = (proof: ServerProof, page: ServedPage) => `open ${page.url} in Chromium, served by ${proof.plan.display}`;

/** The line of a browser file of the project that names `path` (where the page's request comes from). */
function callSite(ctx: CheckContext, proof: ServerProof, path: string, fallback: string): { path: string; line?: number } {
  const quoted = new RegExp(`['"\`]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[?'"\`/]|\\$\\{)`);
  const browser = [...ctx.paths].filter((f) => /\.(m?js|html?)$/.test(f) && (STATIC_DIR.test(f) || proof.pages.some((p) => p.file === f))).sort();
  for (const file of browser) {
    const index = (ctx.files[file] ?? '').split('\n').findIndex((l) => quoted.test(l));
    if (index >= 0) return { path: file, line: index + 1 };
  }
  return { path: fallback };
}

/** A server started for the proof, and what its checks share. */
interface Running {
  ctx: CheckContext;
  proof: ServerProof;
  server: PreviewServer;
  output: ServerOutput;
  /** Every route the code or README names: a page's request answered 404 is told what there is. */
  routes: ServerRoute[];
}

/** `(the code names GET /api/notes, GET /health)`: what a request that found nothing could have asked. */
function knownRoutes(routes: ServerRoute[], method: string): string {
  const known = routes.filter((r) => r.method === method).map((r) => `${r.method} ${r.path}`);
  return known.length === 0 ? '' : ` (the code names ${known.slice(0, 6).join(', ')}${known.length > 6 ? ', …' : ''})`;
}

/**
 * Answers each request of the page from the server, noting what the page could not get; `failed`
 * collects the URLs it could not, whose echoes in the console are no second problem.
 */
function servedSite(run: Running, page: ServedPage, failed: Set<string>): PageSite {
  const { ctx, proof, server, output } = run;
  const command = pageCommand(proof, page);
  // The server's own address, as its README says to open it: absolute URLs the page makes to it
  // (`fetch('http://localhost:3000/api/notes')`) are then the page's own, as they are there.
  const origin = `http://localhost:${server.port}`;
  return {
    command,
    origin,
    read: (path) => {
      const file = fileForUrl(ctx, proof, `/${path}`);
      return file === undefined ? undefined : ctx.files[file];
    },
    paths: ctx.paths,
    // Stacks and console messages name URLs of the server; the project has those files under their folder.
    mapStack: (text) => text.replaceAll(new RegExp(`${origin.replaceAll('.', '\\.')}(/[^\\s:)?#]*)`, 'g'), (url, path: string) => {
      const file = fileForUrl(ctx, proof, path);
      return file === undefined ? url : `${origin}/${file}`;
    }),
    locate: (url, line) => {
      const file = url.startsWith(`${origin}/`) ? fileForUrl(ctx, proof, new URL(url).pathname) : undefined;
      return file === undefined ? undefined : { path: file, line };
    },
    serve: async (route: Route, findings: PageFindings) => {
      const request = route.request();
      const url = new URL(request.url());
      const target = url.pathname + url.search;
      const type = request.resourceType();
      const headers = await request.allHeaders();
      delete headers['accept-encoding'];
      const mark = output.mark();
      const answer = await ask(server, request.method(), target, headers, request.postDataBuffer());
      const said = `${request.method()} ${url.pathname}`;
      const call = ['fetch', 'xhr', 'eventsource'].includes(type);
      // What the sandbox lacks is no defect: the page's errors that follow are then only consequences.
      const note = (problem: ExecProblem) => {
        const gap = sandboxGap(problem.output);
        if (gap !== undefined) findings.unreachable.push(`${said} (${gap})`);
        else {
          findings.missing.push(problem);
          failed.add(url.href);
        }
      };
      const from = type === 'document' ? { path: page.file } : call ? callSite(ctx, proof, url.pathname, page.file) : referrerSite(ctx, proof, request.headers().referer, url.pathname, page.file);
      if ('failed' in answer) {
        if (answer.failed === 'closed') {
          const out = await output.since(mark);
          note({ ...from, message: `the page's request ${said} got no answer: the server closed the connection (${answer.detail})`, command, ...(out ? { output: out } : {}) });
        }
        // The page may be gone by now (closed at its deadline): its request then needs no answer.
        await route.abort(answer.failed === 'closed' ? 'connectionclosed' : 'timedout').catch(() => undefined);
        return;
      }
      const file = fileForUrl(ctx, proof, url.pathname);
      if (answer.status < 400 && file !== undefined) findings.loaded.add(file);
      // Chromium may ask for a favicon by itself; only one the page names is its own.
      const unasked = url.pathname === '/favicon.ico' && !(ctx.files[page.file] ?? '').includes('favicon');
      if ((answer.status === 404 && !unasked) || answer.status >= 500) {
        const out = answer.status >= 500 ? await output.since(mark, answer.body) : undefined;
        const message =
          type === 'document'
            ? `${said} answered ${answer.status}: the server does not serve the page ${page.file}`
            : call
              ? `the page's request ${said} answered ${answer.status}${answer.status === 404 ? knownRoutes(run.routes, request.method()) : ''}`
              : `loads ${url.pathname}, which the server answers with ${answer.status}${file === undefined ? '' : ` (the project has ${file})`}`;
        note({ ...from, message, command, ...(out ? { output: out } : {}) });
      }
      await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body }).catch(() => undefined);
    },
  };
}

/** Where a page's asset is referred to: the line of its referrer (the page or a stylesheet) that names it. */
function referrerSite(ctx: CheckContext, proof: ServerProof, referer: string | undefined, path: string, fallback: string): { path: string; line?: number } {
  const referrer = referer ? fileForUrl(ctx, proof, new URL(referer).pathname) : undefined;
  const at = referrer ?? fallback;
  const line = referenceLine(ctx.files[at], at.replace(STATIC_DIR, ''), path.replace(/^\//, ''));
  return { path: at, ...(line ? { line } : {}) };
}

/** Asks each plain GET route once: an error answer (5xx) or a closed connection is a problem. */
async function askRoutes(run: Running, routes: ServerRoute[], gone: () => boolean): Promise<{ problems: ExecProblem[]; answered: string[]; uncounted: string[]; files: Set<string>; closed: boolean }> {
  const { ctx, server, output } = run;
  const problems: ExecProblem[] = [];
  let closed = false;
  const answered: string[] = [];
  const uncounted: string[] = [];
  const files = new Set<string>();
  const fail = (route: ServerRoute, problem: ExecProblem) => {
    const gap = sandboxGap(problem.output);
    if (gap === undefined) problems.push(problem);
    else uncounted.push(`GET ${route.path} (${gap})`);
  };
  for (const route of routes) {
    if (gone() || ctx.budget.wallFor(REQUEST_MS) === 0) break;
    const mark = output.mark();
    const answer = await ask(server, 'GET', route.path, { accept: '*/*' }, null, true);
    const at = { path: route.file, ...(route.line ? { line: route.line } : {}) };
    const command = `GET ${route.path} on the started server (${run.proof.plan.display})`;
    files.add(route.file);
    if ('failed' in answer) {
      if (answer.failed === 'closed') {
        closed = true;
        const out = await output.since(mark);
        fail(route, { ...at, message: `GET ${route.path} closed the connection without an answer (${answer.detail})`, command, ...(out ? { output: out } : {}) });
      }
      continue;
    }
    if (answer.status >= 500) {
      const out = await output.since(mark, answer.body);
      fail(route, { ...at, message: `GET ${route.path} answered ${answer.status}`, command, ...(out ? { output: out } : {}) });
    } else answered.push(`GET ${route.path} ${answer.status}`);
  }
  return { problems, answered, uncounted, files, closed };
}

/**
 * The start check completed by use, and one `page-load` check per served page. `start` is the smoke
 * start's check and `listened` whether it listened; without that, the pages are skipped with why.
 */
export async function proveServer(
  ctx: CheckContext,
  proof: ServerProof,
  start: ExecCheck,
  listened: boolean,
  options: { install?: InstallOptions; page?: PageCheckOptions },
): Promise<ExecCheck[]> {
  const skipPages = (reason: string) => proof.pages.map((p) => skipped('page-load', 'web', [p.file], reason));
  if (!listened) {
    const reason =
      start.status === 'skipped' ? (start.reason ?? 'the server was not started') : start.status === 'failed' ? 'the server did not start, so its page could not be loaded' : 'the server did not listen on a port, so its page could not be loaded';
    return [start, ...skipPages(reason)];
  }
  const routes = findServerRoutes(ctx.files);
  const plain = routes.filter((r) => r.method === 'GET' && !routeHasParameters(r.path) && !STOPS.test(r.path)).slice(0, MAX_ROUTES);
  // Nothing to ask and nothing to load: a second start would prove nothing the first did not.
  if (plain.length === 0 && proof.pages.length === 0) return [start];
  const began = performance.now();
  const listenMs = Math.max(ctx.startMs, LISTEN_MS) + (proof.buildFirst ? BUILD_LISTEN_MS : 0);
  const lifetime = ctx.budget.wallFor(60_000);
  // Too little left to listen again and be asked: nothing can be said of its routes and pages.
  if (lifetime < listenMs) return [start, ...skipPages(ctx.budget.spentReason())];
  const output = new ServerOutput();
  const started = await startPreviewServer(ctx.files, proof.plan, {
    sandbox: ctx.sandbox,
    ...(options.install ? { install: options.install } : {}),
    startMs: listenMs,
    lifetimeMs: lifetime,
    onOutput: (chunk) => output.take(chunk),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  // It listened once: not listening again (a machine too busy, a start that is not repeatable) says
  // too little of the code to fail it, and leaves its routes and pages unproven.
  if (!started.ok) return [start, ...skipPages(`the server could not be started again to load its page: ${'unavailable' in started ? started.unavailable : started.problem.message}`)];
  const server = started.server;
  let exit: PreviewServerExit | undefined;
  void server.exited.then((e) => (exit = e));
  const run: Running = { ctx, proof, server, output, routes };
  const asked = await askRoutes(run, plain, () => exit !== undefined);
  const pages = await loadServedPages(run, options.page ?? {});
  // A route that closed the connection may have taken the server down: its exit, with the crash and
  // its output, is what a repair needs. On a busy machine that exit can come after the last answer,
  // and a stop sent first would call it "stopped", so it gets a moment to be seen.
  if (asked.closed && exit === undefined) await Promise.race([server.exited, delay(CRASH_GRACE_MS)]);
  const ended = await server.stop();
  const problems = [...start.problems, ...asked.problems];
  if (ended.reason === 'crashed') problems.push({ ...ended.problem, message: ended.problem.message.replace('while the preview was open', 'while its routes and pages were asked') });
  const durationMs = start.durationMs + Math.round(performance.now() - began);
  const list = (items: string[]) => `${items.slice(0, 4).join(', ')}${items.length > 4 ? ', …' : ''}`;
  const summary = [
    start.summary ?? 'started',
    ...(asked.answered.length > 0 ? [`${plural(asked.answered.length, 'route')} answered (${list(asked.answered)})`] : []),
    ...(asked.uncounted.length > 0 ? [`not counted, as the sandbox lacks what they need: ${list(asked.uncounted)}`] : []),
  ].join('; ');
  // The files that named the routes asked (a README's list of them included) were put to the test too.
  const files = [...new Set([...start.files, ...asked.files])];
  const checked = problems.length > 0 ? { ...start, files, status: 'failed' as const, problems, durationMs } : { ...start, files, durationMs, summary };
  return [checked, ...pages];
}

async function loadServedPages(run: Running, options: PageCheckOptions): Promise<ExecCheck[]> {
  const { ctx, proof } = run;
  if (proof.pages.length === 0) return [];
  const result = await withSandboxedBrowser(ctx, options, async (browser, launched) => {
    const checks: ExecCheck[] = [];
    for (const page of proof.pages) {
      const wall = pageWall(ctx);
      if (wall === 0) {
        checks.push(skipped('page-load', 'web', [page.file], ctx.budget.spentReason()));
        continue;
      }
      const pageStarted = performance.now();
      const failed = new Set<string>();
      const site = servedSite(run, page, failed);
      const found = await loadPage(browser, site, page.url.slice(1), wall, page.file);
      // "Refused to apply style from '…/style.css' because its MIME type ('text/html')…" follows a 404 already reported.
      found.errors = found.errors.filter((e) => ![...failed].some((url) => e.message.startsWith('console error:') && e.message.includes(url)));
      const files = [...new Set([page.file, ...found.loaded])].filter((f) => ctx.paths.has(f)).sort();
      const durationMs = Math.round(performance.now() - (checks.length === 0 ? launched : pageStarted));
      checks.push(pageCheck('page-load', found, { files, command: pageCommand(proof, page), durationMs }, `served by the project's server with ${files.length} of its own files and no errors`));
    }
    return checks;
  });
  return 'unavailable' in result ? proof.pages.map((p) => skipped('page-load', 'web', [p.file], result.unavailable)) : result;
}
