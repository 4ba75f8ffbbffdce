/**
 * Static pages loaded in headless Chromium: uncaught exceptions, console errors and failed loads
 * of the project's own files are problems.
 *
 * Chromium itself runs inside the sandbox (Playwright is given a launcher that starts it under
 * bwrap, with no network at all), and every request the page makes is answered by Playwright's
 * router from the project's files in memory, at the made-up origin http://project.local. A page
 * thus loads over HTTP (ES modules work, unlike file://) without any server, and nothing it does
 * can reach the network: request interception alone would miss WebSockets, WebRTC and DNS
 * prefetches, the network namespace does not.
 */
import { existsSync } from 'node:fs';
import { checkHtml } from '../pipeline/verify-html.js';
import { checkResult, skipped, type CheckContext } from './check-context.js';
import { bestLocation, trimOutput } from './output.js';
import type { ExecCheck, ExecProblem } from './report.js';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';

const ORIGIN = 'http://project.local';
/** Load plus a moment for errors thrown by timers and DOMContentLoaded handlers. */
const SETTLE_MS = 500;
const PAGE_WALL_MS = 8000;
const LAUNCH_TIMEOUT_MS = 15_000;
const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const CALLS = ['script', 'fetch', 'xhr', 'eventsource', 'websocket'];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--js-flags=--max-old-space-size=256'];
const TYPES: Record<string, string> = {
  html: 'text/html', htm: 'text/html', js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', json: 'application/json',
  svg: 'image/svg+xml', txt: 'text/plain', webmanifest: 'application/manifest+json', xml: 'application/xml', map: 'application/json',
};

export interface PageCheckOptions {
  /** Chromium's binary. `null` turns the page check off. @default the first of /usr/lib/chromium/chromium, /usr/bin/chromium, … */
  chromiumPath?: string | null;
}

/** Own files the page refers to by URL, mapped back to a project path. */
function projectPath(url: string): string | null {
  if (!url.startsWith(`${ORIGIN}/`)) return null;
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

// A page's stack names http://project.local/app.js:3:1; as /project/… the usual locator reads it.
const asSandboxPaths = (text: string) => text.replaceAll(`${ORIGIN}/`, `${SANDBOX_PROJECT_DIR}/`);

/** Line of the `src`/`href` in `page` that names `missing`, when the page refers to it directly. */
function referenceLine(files: Readonly<Record<string, string>>, page: string, missing: string): number | undefined {
  const html = files[page];
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

interface PageFindings {
  /** Own files the page asked for and the project lacks: a defect whatever else happened. */
  missing: ExecProblem[];
  /** Uncaught exceptions and console errors. */
  errors: ExecProblem[];
  loaded: Set<string>;
  /** Scripts and calls the page could not get here: from the network, or from the project's own server (not running). */
  unreachable: string[];
}

async function loadPage(browser: import('playwright-core').Browser, ctx: CheckContext, page: string, wall: number): Promise<PageFindings> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const findings: PageFindings = { missing: [], errors: [], loaded: new Set([page]), unreachable: [] };
  const command = `open ${page} in Chromium`;
  try {
    await context.route('**', async (route) => {
      const request = route.request();
      const path = projectPath(request.url());
      if (path === null) {
        if (CALLS.includes(request.resourceType())) findings.unreachable.push(request.url());
        await route.abort('blockedbyclient');
        return;
      }
      const body = ctx.files[path];
      if (body === undefined && ['fetch', 'xhr', 'eventsource', 'websocket'].includes(request.resourceType())) {
        findings.unreachable.push(`/${path}`); // an API of the project's server, which is not running here
        await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
        return;
      }
      if (body === undefined) {
        const referrer = projectPath(request.headers().referer ?? '') ?? page;
        const line = referenceLine(ctx.files, referrer, path);
        findings.missing.push({ path: referrer, ...(line ? { line } : {}), message: `loads ${path}, which is not in the project (404)`, command });
        await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
        return;
      }
      findings.loaded.add(path);
      const ext = path.split('.').pop()?.toLowerCase() ?? '';
      await route.fulfill({ status: 200, contentType: `${TYPES[ext] ?? 'application/octet-stream'}; charset=utf-8`, body });
    });
    const tab = await context.newPage();
    tab.on('pageerror', (error) => {
      const stack = asSandboxPaths(error.stack ?? `${error.name}: ${error.message}`);
      const location = bestLocation(stack, ctx.paths, 'first') ?? { path: page };
      findings.errors.push({ ...location, message: `uncaught ${error.name}: ${error.message}`, command, output: trimOutput(stack) });
    });
    tab.on('console', (message) => {
      if (message.type() !== 'error' || message.text().startsWith('Failed to load resource')) return;
      const where = message.location();
      const path = projectPath(where.url) ?? page;
      const line = where.url && where.lineNumber >= 0 ? where.lineNumber + 1 : undefined;
      findings.errors.push({ path: ctx.paths.has(path) ? path : page, ...(line ? { line } : {}), message: `console error: ${message.text().slice(0, 300)}`, command });
    });
    await tab.goto(`${ORIGIN}/${page}`, { waitUntil: 'load', timeout: Math.max(1000, wall - SETTLE_MS) });
    await tab.waitForTimeout(SETTLE_MS);
  } catch (error) {
    findings.errors.push({ path: page, message: `the page did not finish loading: ${(error as Error).message.split('\n')[0]}`, command });
  } finally {
    await context.close().catch(() => undefined);
  }
  return findings;
}

/** Loads each page in Chromium in the sandbox; one `page-load` check per page. */
export async function checkPages(ctx: CheckContext, pages: string[], options: PageCheckOptions = {}): Promise<ExecCheck[]> {
  const chromiumPath = options.chromiumPath === undefined ? CHROMIUM_CANDIDATES.find((p) => existsSync(p)) : options.chromiumPath;
  if (!chromiumPath) return pages.map((p) => skipped('page-load', 'web', [p], 'Chromium is not installed on this server (Debian: apt-get install chromium)'));
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    return pages.map((p) => skipped('page-load', 'web', [p], 'playwright-core is not installed on this server'));
  }
  const launcher = ctx.sandbox.launcher(chromiumPath, { keepFds: [3, 4], limits: { processes: 1024 }, addressSpaceUnlimited: true });
  const started = performance.now();
  const wall = ctx.budget.wallFor(LAUNCH_TIMEOUT_MS);
  if (wall === 0) return pages.map((p) => skipped('page-load', 'web', [p], ctx.budget.spentReason()));
  let browser: import('playwright-core').Browser;
  try {
    browser = await playwright.chromium.launch({ executablePath: launcher, args: FLAGS, timeout: wall, chromiumSandbox: false });
  } catch (error) {
    const reason = `Chromium could not start in the sandbox (${(error as Error).message.split('\n')[0]})`;
    return pages.map((p) => skipped('page-load', 'web', [p], reason));
  }
  const checks: ExecCheck[] = [];
  try {
    for (const page of pages) {
      const pageWall = ctx.budget.wallFor(PAGE_WALL_MS);
      if (pageWall === 0) {
        checks.push(skipped('page-load', 'web', [page], ctx.budget.spentReason()));
        continue;
      }
      const pageStarted = performance.now();
      const found = await loadPage(browser, ctx, page, pageWall);
      const durationMs = Math.round(performance.now() - (checks.length === 0 ? started : pageStarted));
      const files = [...found.loaded].filter((f) => ctx.paths.has(f)).sort();
      const base = { files, command: `open ${page} in Chromium`, durationMs };
      // With scripts or calls it needs unanswered, the page's own errors may only be a consequence.
      const errors = found.unreachable.length > 0 ? [] : found.errors;
      const problems = [...found.missing, ...errors];
      if (problems.length > 0) {
        checks.push(checkResult('page-load', 'web', { ...base, status: 'failed', problems }));
      } else if (found.errors.length > 0) {
        const reason = `the page needs ${found.unreachable.slice(0, 3).join(', ')}, which cannot be reached here (no network, no server running), so its errors cannot be told apart from that`;
        checks.push(checkResult('page-load', 'web', { ...base, status: 'skipped', reason }));
      } else {
        checks.push(checkResult('page-load', 'web', { ...base, status: 'passed', summary: `loaded with ${files.length} of its own files and no errors` }));
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
  }
  return checks;
}
