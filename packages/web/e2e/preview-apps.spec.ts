/**
 * Two app kinds in the preview, each at the root of its own origin in a real browser:
 * - a React Router app (Vite): a link navigates on the client, and a reload on that route still
 *   renders it (the preview answers the route with index.html, whose /assets/ scripts are at the root);
 * - an Express app with `express.static('public')`: its page, its stylesheet, and a note posted to
 *   its API that a reload still shows (the server's memory, not the page's).
 * The projects' files are put in place in the database rather than written by an engine: what is
 * under test is the preview, which builds or starts them in the sandbox on the first request.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORK_ENV } from '@wolfpack/core/proof';
import { expressNotes, needTool, sandboxCheck, startFakeNpmRegistry, viteRouterApp, workspaceTree, type FakeNpmRegistry } from '@wolfpack/core/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, signUpViaApi } from './helpers';

const sandboxed = needTool(await sandboxCheck(), 'the preview of a bundled app and of an Express app (built and run in the sandbox)');

/** Two routes, and a link from the first to the second. */
const routerApp: Record<string, string> = {
  ...viteRouterApp,
  'src/App.tsx': `import { Link, Route, Routes } from 'react-router';

function Home() {
  return (
    <>
      <h1>Books</h1>
      <Link to="/about">About</Link>
    </>
  );
}

function About() {
  return <h1>About this shelf</h1>;
}

export function App() {
  return (
    <main>
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="/about" element={<About />} />
      </Routes>
    </main>
  );
}
`,
};

/** The Express notes app, its page given a form that posts a note. */
const notesApp: Record<string, string> = {
  ...expressNotes,
  'public/index.html': expressNotes['public/index.html']!.replace(
    '<ul id="notes">',
    '<form id="add"><label>Note <input name="text"></label><button>Add</button></form>\n  <ul id="notes">',
  ),
  'public/app.js': `const list = document.getElementById('notes');

async function load() {
  const notes = await (await fetch('/api/notes')).json();
  list.replaceChildren(...notes.map((note) => Object.assign(document.createElement('li'), { textContent: note.text })));
}

document.getElementById('add').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = event.target.elements.text.value;
  await fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
  event.target.reset();
  await load();
});

load();
`,
};

/** A project of a fresh user whose files are `files` (a demo run made it; its files are replaced). */
async function projectOf(server: TestServer, page: Page, files: Record<string, string>): Promise<string> {
  await signUpViaApi(page, uniqueUsername('apps'));
  const projectId = await buildProjectViaApi(page, 'A notes app');
  const sql = server.db.orm.em.getConnection();
  await sql.execute('delete from project_files where project_id = ?', [projectId]);
  for (const [path, content] of Object.entries(files)) {
    await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, path, content, Buffer.byteLength(content)]);
  }
  // A new version: the preview builds (or starts) these files, not the run's.
  await sql.execute('update projects set version = version + 1 where id = ?', [projectId]);
  return projectId;
}

/** Waits for `locator` past the preview's "Building preview…" / "Starting the server…" pages. */
async function shown(page: Page, locator: Locator, timeout = 120_000): Promise<void> {
  await locator.waitFor({ timeout }).catch(async (error: unknown) => {
    throw new Error(`${(error as Error).message}\nThe preview showed: ${await page.locator('body').innerText().catch(() => '(nothing)')}`);
  });
}

const originOf = (server: TestServer, projectId: string) => `http://p-${projectId}.localhost:${new URL(server.url).port}`;

describe.skipIf(!sandboxed)('the preview of a React Router app', () => {
  const browser = useBrowser();
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let server: TestServer;

  beforeAll(async () => {
    registry = await startFakeNpmRegistry(
      {},
      await workspaceTree(['vite@8', 'react@19', 'react-dom@19', '@vitejs/plugin-react@6', 'typescript@5', '@types/react@19', '@types/react-dom@19', 'react-router@7']),
    );
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    server = await startTestServer({ env: { WOLFPACK_SANDBOX: 'on', npm_config_registry: registry.url, WOLFPACK_PROOF_CACHE_DIR: cacheDir } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('navigates to /about on the client, and a reload there renders About again', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const projectId = await projectOf(server, page, routerApp);
    const origin = originOf(server, projectId);

    await page.goto(`/preview/${projectId}`);
    expect(new URL(page.url()).origin).toBe(origin);
    await shown(page, page.getByRole('heading', { name: 'Books' }));
    expect(page.url()).toBe(`${origin}/`);

    // A mark on the window survives a client-side navigation and not a load.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('link', { name: 'About' }).click();
    await shown(page, page.getByRole('heading', { name: 'About this shelf' }), 10_000);
    expect(page.url()).toBe(`${origin}/about`);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);

    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    await shown(page, page.getByRole('heading', { name: 'About this shelf' }), 10_000);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(false);
    expect(page.url()).toBe(`${origin}/about`);
    // The build's scripts are named from the root, so /about's index.html finds them.
    const scripts = await page.locator('script[src]').evaluateAll((els) => els.map((el) => el.getAttribute('src')));
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src).toMatch(/^\/assets\/[\w.-]+\.js$/);
  }, 240_000);
});

describe.skipIf(!sandboxed)('the preview of an Express app', () => {
  const browser = useBrowser();
  let cacheDir: string;
  let server: TestServer;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    // express comes from the real npm registry (npm's default: no npm_config_registry is passed),
    // reached the way this machine reaches it: its proxy and CA settings go to the server, which
    // hands npm those alone.
    const network = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => NETWORK_ENV.test(e[0]) && e[1] !== undefined));
    server = await startTestServer({ env: { ...network, WOLFPACK_SANDBOX: 'on', WOLFPACK_PROOF_CACHE_DIR: cacheDir } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('shows its page with its stylesheet, and a note posted to its API is still there after a reload', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const projectId = await projectOf(server, page, notesApp);
    const origin = originOf(server, projectId);

    await page.goto(`/preview/${projectId}`);
    expect(new URL(page.url()).origin).toBe(origin);
    await shown(page, page.getByRole('heading', { name: 'Notes' }));
    expect(page.url()).toBe(`${origin}/`);
    const notes = page.locator('#notes li');
    await expect.poll(() => notes.allTextContents()).toEqual(['Buy milk', 'Call Ana']);
    // public/styles.css, asked for at the root and served by express.static (the page's load waits for it).
    await page.waitForLoadState('load');
    expect(await page.locator('body').evaluate((body) => getComputedStyle(body).margin)).toBe('32px');

    await page.getByRole('textbox', { name: 'Note' }).fill('Water the plants');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => notes.allTextContents()).toEqual(['Buy milk', 'Call Ana', 'Water the plants']);

    await page.reload();
    await shown(page, page.getByRole('heading', { name: 'Notes' }), 30_000);
    // The page asks the server for its notes after it shows; on a loaded machine that takes longer
    // than expect.poll's default 5 s.
    await expect.poll(() => notes.allTextContents(), { timeout: 30_000 }).toEqual(['Buy milk', 'Call Ana', 'Water the plants']);
    expect(new URL(page.url()).origin).toBe(origin);
  }, 240_000);
});
