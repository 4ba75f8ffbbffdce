/**
 * Pages loaded in headless Chromium: uncaught exceptions, unhandled rejections, console errors
 * and failed loads of the project's own files are problems. Static pages are served from the
 * project's files; a bundled app's pages from its build (check-bundle.ts), with the build's source
 * maps turning its stack traces back into the project's files.
 *
 * Chromium itself runs inside the sandbox (Playwright is given a launcher that starts it under
 * bwrap, with no network at all), and every request the page makes is answered by Playwright's
 * router from the files in memory, at the made-up origin http://project.local. A page thus loads
 * over HTTP (ES modules work, unlike file://) without any server, and nothing it does can reach
 * the network: request interception alone would miss WebSockets, WebRTC and DNS prefetches, the
 * network namespace does not.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { checkHtml } from '../pipeline/verify-html.js';
import { checkResult, skipped, type CheckContext } from './check-context.js';
import { bestLocation, seconds, trimOutput } from './output.js';
import type { ExecCheck, ExecCheckName, ExecProblem } from './report.js';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import { siteFileFor } from './site-path.js';
import { descendantWithArg, RunQueueWait } from './process-tree.js';
import { withinStarvedDeadline } from './starved-deadline.js';

export const ORIGIN = 'http://project.local';
/** Load plus a moment for errors thrown by timers and DOMContentLoaded handlers. */
const SETTLE_MS = 500;
const PAGE_WALL_MS = 8000;
const LAUNCH_TIMEOUT_MS = 15_000;
/** Where Chromium is looked for, in order (Debian's binary first, its wrapper script next). */
export const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const CALLS = ['script', 'fetch', 'xhr', 'eventsource', 'websocket'];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--js-flags=--max-old-space-size=256'];
const TYPES: Record<string, string> = {
  html: 'text/html', htm: 'text/html', js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', json: 'application/json',
  svg: 'image/svg+xml', txt: 'text/plain', webmanifest: 'application/manifest+json', xml: 'application/xml', map: 'application/json',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', ico: 'image/x-icon',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', wasm: 'application/wasm', mp3: 'audio/mpeg', mp4: 'video/mp4',
};
const TEXT_TYPES = new Set(['html', 'htm', 'js', 'mjs', 'css', 'json', 'svg', 'txt', 'webmanifest', 'xml', 'map']);

export interface PageCheckOptions {
  /** Chromium's binary. `null` turns the page check off. @default the first of /usr/lib/chromium/chromium, /usr/bin/chromium, … */
  chromiumPath?: string | null;
}

/** What a page is served from and how its problems are placed in the project. */
export interface PageSite {
  /** A file of the site by its path (relative to the site's root), or undefined when there is none. */
  read(path: string): string | Uint8Array | undefined;
  /** The project's files: problems are placed on these. */
  paths: ReadonlySet<string>;
  /** A stack trace in the site's files, rewritten in the project's (a build's source maps). */
  mapStack?(text: string): string;
  /** A position in one of the site's files, in the project's; undefined when nothing says. */
  locate?(url: string, line: number, column: number): { path: string; line: number } | undefined;
  /** The element the app mounts into (`#root`); after the load, nothing in it is a problem. */
  mountSelector?: string;
  /**
   * Answers each request to the page's own origin itself (a running server, check-server.ts),
   * noting in `findings` what failed; `read` then only serves to place problems.
   */
  serve?(route: import('playwright-core').Route, findings: PageFindings): Promise<void>;
  /** How the page is opened, as problems say it. @default `open <page> in Chromium` */
  command?: string;
  /** Where the page is opened (a server's own, so that its absolute URLs are the page's). @default {@link ORIGIN} */
  origin?: string;
}

/** Own files the page refers to by URL, mapped back to a site path. */
export function sitePath(url: string, origin = ORIGIN): string | null {
  if (!url.startsWith(`${origin}/`)) return null;
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

// A page's stack names http://project.local/app.js:3:1; as /project/… the usual locator reads it.
const asSandboxPaths = (text: string, origin: string) => text.replaceAll(`${origin}/`, `${SANDBOX_PROJECT_DIR}/`);

/** Line of the `src`/`href` in `page` that names `missing`, when the page refers to it directly. */
export function referenceLine(html: string | undefined, page: string, missing: string): number | undefined {
  if (html === undefined) return undefined;
  const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
  const ref = checkHtml(html).references.find((r) => {
    const url = r.url.split(/[?#]/)[0]!;
    return (url.startsWith('/') ? url.slice(1) : new URL(url, `${ORIGIN}/${dir}`).pathname.slice(1)) === missing;
  });
  if (ref) return ref.line;
  const index = html.split('\n').findIndex((l) => l.includes(missing.split('/').pop()!));
  return index >= 0 ? index + 1 : undefined;
}

const asText = (body: string | Uint8Array | undefined) => (body === undefined || typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

export interface PageFindings {
  /** Own files the page asked for and the site lacks: a defect whatever else happened. */
  missing: ExecProblem[];
  /** Uncaught exceptions, unhandled rejections, console errors, and an app that mounted nothing. */
  errors: ExecProblem[];
  /** Site files the page loaded. */
  loaded: Set<string>;
  /** Scripts and calls the page could not get here: from the network, or from the project's own server (not running). */
  unreachable: string[];
}

/** Chromium in the sandbox, and how long its processes have waited for a CPU so far (undefined when they cannot be read). */
export interface SandboxedBrowser {
  browser: import('playwright-core').Browser;
  waited: () => number | undefined;
}

/** " (and N s more for the time …)" when a deadline gave back what the browser waited for a CPU. */
const givenBackClause = (givenBackMs: number) => (givenBackMs > 0 ? ` (and ${seconds(givenBackMs)} s more for the time the browser waited for a CPU on a busy machine)` : '');

/**
 * `tab.goto` until the page's load event, within `windowMs`, moved back by the time the browser
 * waited for a CPU (as a sandboxed command's deadline is): on a busy machine a correct page would
 * otherwise time out, and a problem would send the project to a repair it does not need.
 */
const gotoWithin = (tab: import('playwright-core').Page, url: string, windowMs: number, waited: SandboxedBrowser['waited']) =>
  withinStarvedDeadline(tab.goto(url, { waitUntil: 'load', timeout: 0 }), windowMs, waited, (given) => new Error(`page.goto: Timeout ${windowMs}ms exceeded${givenBackClause(given)}.`));

/** Loads one page of `site` and reports what went wrong. */
export async function loadPage({ browser, waited }: SandboxedBrowser, site: PageSite, page: string, wall: number, problemPage = page): Promise<PageFindings> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const findings: PageFindings = { missing: [], errors: [], loaded: new Set([page]), unreachable: [] };
  const command = site.command ?? `open ${page} in Chromium`;
  const origin = site.origin ?? ORIGIN;
  // Where a problem goes when nothing better is known: the page itself, as the project has it.
  const fallback = site.paths.has(problemPage) ? problemPage : page;
  const place = (stack: string) => {
    const mapped = site.mapStack ? site.mapStack(stack) : stack;
    return { text: mapped, location: bestLocation(asSandboxPaths(mapped, origin), site.paths, 'first') ?? { path: fallback } };
  };
  try {
    await context.route('**', async (route) => {
      const request = route.request();
      const path = sitePath(request.url(), origin);
      if (path === null) {
        if (CALLS.includes(request.resourceType())) findings.unreachable.push(request.url());
        await route.abort('blockedbyclient');
        return;
      }
      if (site.serve) {
        await site.serve(route, findings);
        return;
      }
      // The preview's own rules (site-path.ts): a page without its extension, a folder's index, a
      // client-side route's index.html, so what loads here is what the preview serves.
      const served = siteFileFor(decodeURIComponent(new URL(request.url()).pathname), (p) => site.read(p) !== undefined, request.isNavigationRequest());
      const body = served === undefined ? undefined : site.read(served);
      if (body === undefined && ['fetch', 'xhr', 'eventsource', 'websocket'].includes(request.resourceType())) {
        findings.unreachable.push(`/${path}`); // an API of the project's server, which is not running here
        await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
        return;
      }
      if (body === undefined) {
        const referrer = sitePath(request.headers().referer ?? '', origin) ?? page;
        const line = referenceLine(asText(site.read(referrer)), referrer, path);
        const where = site.paths.has(referrer) ? referrer : fallback;
        findings.missing.push({ path: where, ...(line && where === referrer ? { line } : {}), message: `loads ${path}, which is not in the project (404)`, command });
        await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
        return;
      }
      findings.loaded.add(served!);
      const ext = served!.split('.').pop()?.toLowerCase() ?? '';
      const type = TYPES[ext] ?? 'application/octet-stream';
      await route.fulfill({ status: 200, contentType: TEXT_TYPES.has(ext) ? `${type}; charset=utf-8` : type, body: typeof body === 'string' ? body : Buffer.from(body) });
    });
    const tab = await context.newPage();
    tab.on('pageerror', (error) => {
      const { text, location } = place(error.stack ?? `${error.name}: ${error.message}`);
      findings.errors.push({ ...location, message: `uncaught ${error.name}: ${error.message}`, command, output: trimOutput(text) });
    });
    tab.on('console', (message) => {
      if (message.type() !== 'error' || message.text().startsWith('Failed to load resource')) return;
      const where = message.location();
      const line = where.url && where.lineNumber >= 0 ? where.lineNumber + 1 : undefined;
      const mapped = line !== undefined ? site.locate?.(where.url, line, where.columnNumber + 1) : undefined;
      const path = mapped?.path ?? sitePath(where.url, origin) ?? page;
      // An error logged with its stack (React Router's error boundary, React's own reports) is
      // placed by its frames when the call site is a library's; StrictMode logs it twice.
      const { text, location } = place(message.text());
      const at = mapped ?? (location.line !== undefined ? location : { path: site.paths.has(path) ? path : fallback, ...(line && site.paths.has(path) ? { line } : {}) });
      const frame = text.search(/\n\s+at /);
      const said = frame < 0 ? text : text.slice(0, frame).replace(/^(%[sdifoOc]\s*)+/, '').replace(/\s+/g, ' ').trim();
      const error = { path: at.path, ...(at.line ? { line: at.line } : {}), message: `console error: ${said.slice(0, 300)}`, command, ...(frame < 0 ? {} : { output: trimOutput(text) }) };
      if (!findings.errors.some((e) => e.message === error.message && e.path === error.path && e.line === error.line)) findings.errors.push(error);
    });
    await gotoWithin(tab, `${origin}/${page}`, Math.max(1000, wall - SETTLE_MS), waited);
    await tab.waitForTimeout(SETTLE_MS);
    if (site.mountSelector !== undefined && findings.errors.length === 0) {
      // Runs in the page, where there is a DOM (core's own types have none).
      const empty = await tab.evaluate((selector) => {
        const root = (globalThis as unknown as { document: { querySelector(s: string): { childElementCount: number; textContent: string | null } | null } }).document.querySelector(selector);
        return root !== null && root.childElementCount === 0 && (root.textContent ?? '').trim() === '';
      }, site.mountSelector);
      if (empty) findings.errors.push({ path: fallback, message: `the app rendered nothing into ${site.mountSelector}: the page stays blank`, command });
    }
  } catch (error) {
    findings.errors.push({ path: fallback, message: `the page did not finish loading: ${(error as Error).message.split('\n')[0]}`, command });
  } finally {
    await context.close().catch(() => undefined);
  }
  return findings;
}

/** Chromium in the sandbox for `fn`, closed after it; or why it cannot start (every page is then skipped with it). */
export async function withSandboxedBrowser<T>(
  ctx: CheckContext,
  options: PageCheckOptions,
  fn: (browser: SandboxedBrowser, started: number) => Promise<T>,
): Promise<T | { unavailable: string }> {
  const chromiumPath = options.chromiumPath === undefined ? CHROMIUM_CANDIDATES.find((p) => existsSync(p)) : options.chromiumPath;
  if (!chromiumPath) return { unavailable: 'Chromium is not installed on this server (Debian: apt-get install chromium)' };
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    return { unavailable: 'playwright-core is not installed on this server' };
  }
  const launcher = ctx.sandbox.launcher(chromiumPath, { keepFds: [3, 4], limits: { processes: 1024, sandboxProcesses: 1024 }, addressSpaceUnlimited: true });
  const started = performance.now();
  const wall = ctx.budget.wallFor(LAUNCH_TIMEOUT_MS);
  if (wall === 0) return { unavailable: ctx.budget.spentReason() };
  let browser: import('playwright-core').Browser;
  // A switch Chromium ignores, to find its sandbox below this process (playwright-core
  // launches it from here) and read how long its processes waited for a CPU.
  const mark = `--wolfpack-browser=${randomUUID()}`;
  const waits = new RunQueueWait();
  let root: number | undefined;
  const waited = () => {
    root ??= descendantWithArg(process.pid, mark);
    return root === undefined ? undefined : waits.sample(root);
  };
  // Its start too is given back what it waited for a CPU: Playwright's own timeout is only the cap.
  const launching = playwright.chromium.launch({ executablePath: launcher, args: [...FLAGS, mark], timeout: 3 * wall, chromiumSandbox: false });
  try {
    browser = await withinStarvedDeadline(launching, wall, waited, (given) => new Error(`browserType.launch: Timeout ${wall}ms exceeded${givenBackClause(given)}.`));
  } catch (error) {
    void launching.then((late) => late.close()).catch(() => undefined);
    return { unavailable: `Chromium could not start in the sandbox (${(error as Error).message.split('\n')[0]})` };
  }
  try {
    return await fn({ browser, waited }, started);
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** One check of a loaded page: failed with its problems, skipped when what it needs is unreachable, else passed. */
export function pageCheck(name: ExecCheckName, found: PageFindings, base: Pick<ExecCheck, 'files' | 'command' | 'durationMs'>, passedSummary: string): ExecCheck {
  // With scripts or calls it needs unanswered, the page's own errors may only be a consequence.
  const errors = found.unreachable.length > 0 ? [] : found.errors;
  const problems = [...found.missing, ...errors];
  if (problems.length > 0) return checkResult(name, 'web', { ...base, status: 'failed', problems });
  if (found.errors.length > 0) {
    const reason = `the page needs ${found.unreachable.slice(0, 3).join(', ')}, which cannot be reached here (no network, no server running), so its errors cannot be told apart from that`;
    return checkResult(name, 'web', { ...base, status: 'skipped', reason });
  }
  return checkResult(name, 'web', { ...base, status: 'passed', summary: passedSummary });
}

/** Loads each static page in Chromium in the sandbox; one `page-load` check per page. */
export async function checkPages(ctx: CheckContext, pages: string[], options: PageCheckOptions = {}): Promise<ExecCheck[]> {
  const site: PageSite = { read: (path) => ctx.files[path], paths: ctx.paths };
  const result = await withSandboxedBrowser(ctx, options, async (browser, started) => {
    const checks: ExecCheck[] = [];
    for (const page of pages) {
      const pageWall = ctx.budget.wallFor(PAGE_WALL_MS);
      if (pageWall === 0) {
        checks.push(skipped('page-load', 'web', [page], ctx.budget.spentReason()));
        continue;
      }
      const pageStarted = performance.now();
      const found = await loadPage(browser, site, page, pageWall);
      const durationMs = Math.round(performance.now() - (checks.length === 0 ? started : pageStarted));
      const files = [...found.loaded].filter((f) => ctx.paths.has(f)).sort();
      checks.push(pageCheck('page-load', found, { files, command: `open ${page} in Chromium`, durationMs }, `loaded with ${files.length} of its own files and no errors`));
    }
    return checks;
  });
  return 'unavailable' in result ? pages.map((p) => skipped('page-load', 'web', [p], result.unavailable)) : result;
}

/** How long one page may take to load and settle. */
export function pageWall(ctx: CheckContext): number {
  return ctx.budget.wallFor(PAGE_WALL_MS);
}
