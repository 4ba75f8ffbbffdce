/**
 * Browser-test harness: the real server (in this process, on a free port, with a fresh PGlite
 * database in a temp dir) serving the real production build, driven by a real Chromium.
 *
 * The global setup (global-setup.ts) builds the web app once and starts one server and one
 * Chromium for the whole run; each spec file connects to that browser and gives every test a
 * fresh context (cookies, localStorage, cache), so tests never see each other's sign-ins.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { Database } from '@wolfpack/server';
import { PageTrail } from './page-trail';

/** packages/web */
export const webRoot = resolve(import.meta.dirname, '..');
export const distDir = join(webRoot, 'dist');

/**
 * Where screenshots for humans go (not compared by tests): WOLFPACK_E2E_SHOTS=/tmp/wolfpack-shots
 * to look at the screens. Unset (npm test), none are taken: a hundred PNG encodings are CPU the
 * suite's checks need.
 */
export const screenshotDir: string | undefined = process.env.WOLFPACK_E2E_SHOTS || undefined;

/**
 * Debian's chromium-headless-shell (npm test installs it): the same Blink and V8 as the chromium
 * package, without the full browser's machinery, as Playwright runs headless Chromium by default.
 * The same spec files took half the browser CPU with it, and a third less time (docs/PERFORMANCE.md,
 * The test suite). The full browser where the shell is missing, or with WOLFPACK_CHROMIUM.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM_PATH = process.env.WOLFPACK_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the server started by the global setup, e.g. http://127.0.0.1:41234 */
    wolfpackBaseUrl: string;
    /** The one Chromium of the run (global setup), which every spec file connects to. */
    chromiumEndpoint: string;
    /** A data dir with a migrated PGlite database; test servers start from a copy of it. */
    pgliteTemplateDir: string;
  }
}

/**
 * Runs `vite build` into dist/ unless WOLFPACK_E2E_SKIP_BUILD=1 (then an existing build is used,
 * and its absence is an error that says what to do).
 */
export async function buildWebOnce(): Promise<void> {
  if (process.env.WOLFPACK_E2E_SKIP_BUILD === '1') {
    if (!existsSync(join(distDir, 'index.html'))) {
      throw new Error(
        'WOLFPACK_E2E_SKIP_BUILD=1 but packages/web/dist has no index.html. Run `pnpm --filter @wolfpack/web build` first.',
      );
    }
    return;
  }
  const vite = join(webRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest sets NODE_ENV=test, and Vite keeps an inherited NODE_ENV: without this the tests would
  // build (and leave in dist) development React instead of what users get.
  await promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: webRoot,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A running server with a throwaway data dir. */
export interface TestServer {
  url: string;
  /** Where its database and secrets live. */
  dataDir: string;
  /** The server's open database, for tests that set up what no screen can (a low balance). */
  db: Database;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment variables of the server (nothing else from this process's environment). */
  env?: Record<string, string>;
  /** Use this data dir and keep it on close (to restart a server on the same database). */
  dataDir?: string;
  /** The migrated database to copy into a data dir that has none. @default the global setup's */
  templateDir?: string;
}

/**
 * Starts @wolfpack/server on a free port with a temp data dir and the built web app. The
 * environment is not passed through, so a DATABASE_URL meant for something else is not used;
 * WOLFPACK_E2E_DATABASE_URL selects a PostgreSQL database on purpose.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Imported lazily: only the global setup needs the server (and its database driver).
  const { startServer, pgliteDir } = await import('@wolfpack/server');
  const { copyPgliteTemplate, TEST_PASSWORD_COST } = await import('@wolfpack/server/testing');
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'wolfpack-e2e-')));
  const databaseUrl = process.env.WOLFPACK_E2E_DATABASE_URL;
  // A copy of one migrated database, not a new PGlite cluster (~3 s and ~1 GB each).
  if (!databaseUrl && !existsSync(pgliteDir(dataDir))) await copyPgliteTemplate(options.templateDir ?? inject('pgliteTemplateDir'), dataDir);
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    webDir: distDir,
    quiet: true,
    // Sign-ups are not what these tests measure: hash at the tests' cost (see TEST_PASSWORD_COST).
    passwordCost: TEST_PASSWORD_COST,
    // Generated code runs in the sandbox only in the specs about it (a page check takes seconds).
    // Every spec signs its users up from 127.0.0.1, past any per-address bound a real server keeps.
    env: { WOLFPACK_SANDBOX: 'off', WOLFPACK_SIGNUPS_PER_HOUR: '100000', ...options.env },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  return {
    url: server.url,
    dataDir,
    db: server.db,
    async close() {
      await server.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The run's one Chromium, started by the global setup: spec files connect to it instead of each
 * starting their own (a launch costs a second or two of CPU). Every test still gets a fresh
 * context: its own cookies, storage and cache.
 */
export function launchSharedBrowser(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * How long closing a test's context may take. Chromium can acknowledge a close that races a
 * navigation's commit and never carry it out (crbug.com/536385539), and Playwright then waits
 * without end: one hung page would hold its file for the whole hook timeout.
 */
const CLOSE_WITHIN_MS = 20_000;

/** Whether `work` settled (either way) within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = work.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, sleep(ms, false, { ref: false })]);
}

/** What a spec file gets from {@link useBrowser}. */
export interface BrowserFixture {
  /** The shared server's base URL. */
  readonly baseUrl: string;
  /**
   * A fresh context and page for the current test (closed after it). `baseUrl` points the page
   * at another server (one the spec file started itself).
   */
  newPage(options?: { baseUrl?: string }): Promise<Page>;
}

/**
 * Registers hooks for a spec file: one browser per file, one context per {@link newPage} call,
 * everything closed afterwards. The page's errors are printed as they come; when a test fails,
 * so is its page's trail (navigations, requests, the ones still open).
 */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  const opened: Array<{ context: BrowserContext; trail: PageTrail }> = [];
  const baseUrl = inject('wolfpackBaseUrl');

  beforeAll(async () => {
    browser = await chromium.connect(inject('chromiumEndpoint'));
  });
  afterEach(async ({ task }) => {
    const failed = task.result?.state === 'fail';
    await Promise.all(
      opened.splice(0).map(async ({ context, trail }) => {
        if (failed) console.error(`[browser] what the page did, up to the failure:\n${trail.describe()}`);
        if (!(await settlesWithin(context.close(), CLOSE_WITHIN_MS))) {
          console.error(`[browser] a context did not close within ${CLOSE_WITHIN_MS / 1000} s; it goes when this file disconnects`);
        }
      }),
    );
  });
  afterAll(async () => {
    if (browser && !(await settlesWithin(browser.close(), CLOSE_WITHIN_MS))) {
      console.error(`[browser] the connection did not close within ${CLOSE_WITHIN_MS / 1000} s`);
    }
  });

  return {
    baseUrl,
    async newPage(options = {}) {
      if (!browser) throw new Error('The browser is not running; call newPage() inside a test.');
      const context = await browser.newContext({
        baseURL: options.baseUrl ?? baseUrl,
        viewport: { width: 1280, height: 800 },
        // As a user who asked for less motion, which the app honours (index.css): no spinner,
        // pulse or sheen keeps Chromium drawing frames while a test waits, which took about a
        // third of its CPU. home.spec.ts shows the motion the other users get.
        reducedMotion: 'reduce',
      });
      const page = await context.newPage().catch(async (error: unknown) => {
        await context.close();
        throw error;
      });
      opened.push({ context, trail: new PageTrail(page) });
      page.on('pageerror', (error) => console.error('[page error]', error.message));
      return page;
    },
  };
}

let counter = 0;
/** A username no other test uses (letters, digits and hyphens, within the length limits). */
export function uniqueUsername(prefix = 'wolf'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}-${counter}`;
}
