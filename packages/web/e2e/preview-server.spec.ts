/**
 * "Open Preview" of a full-stack HTTP server project, in a real browser: the node:http app starts
 * in the sandbox ("Starting the server…" meanwhile) and is the preview's origin itself, so its page's
 * root-relative `/styles.css` and `fetch('/api/notes')` reach it, its own cookies work, a form
 * posts to it, and client-side routes survive a reload. It never receives Wolfpack's cookies, and
 * a script in its page cannot use Wolfpack's session.
 */
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, signUpViaApi } from './helpers';
import { probeIsolation } from './preview-probe';

const sandboxed = needTool(await sandboxCheck(), 'the preview of an HTTP server (it runs in the sandbox)');

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title><link rel="stylesheet" href="/styles.css"></head>
<body><h1>Notes</h1><form id="add"><label>Note <input name="text"></label><button>Add</button></form><ul id="notes"></ul><p id="route"></p>
<script>
const show = async () => {
  const notes = await (await fetch('/api/notes')).json();
  document.getElementById('notes').innerHTML = notes.map((n) => '<li>' + n.text.replace(/[<&]/g, '') + '</li>').join('');
};
document.getElementById('add').addEventListener('submit', async (event) => {
  event.preventDefault();
  await fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: event.target.text.value }) });
  event.target.reset();
  await show();
});
document.getElementById('route').textContent = 'route ' + location.pathname;
show();
</script></body></html>`;

const SERVER = `const http = require('node:http');
const notes = [];
const PAGE = ${JSON.stringify(PAGE)};
http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const visits = Number(/(?:^|; )visits=(\\d+)/.exec(req.headers.cookie || '')?.[1] || 0) + 1;
    res.setHeader('set-cookie', 'visits=' + visits + '; Path=/; HttpOnly');
    if (req.url === '/styles.css') {
      res.setHeader('content-type', 'text/css');
      return res.end('h1 { color: rgb(1, 2, 3); }');
    }
    if (req.url === '/api/notes' && req.method === 'POST') {
      notes.push({ text: JSON.parse(body).text });
      res.statusCode = 201;
      return res.end();
    }
    if (req.url === '/api/notes') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify(notes));
    }
    if (req.url === '/api/cookies') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ cookie: req.headers.cookie || '', visits }));
    }
    // Every other path is the page: its routes are the browser's.
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(PAGE);
  });
}).listen(process.env.PORT, process.env.HOST);
`;

describe.skipIf(!sandboxed)('Open Preview of an HTTP server', () => {
  const browser = useBrowser();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { WOLFPACK_SANDBOX: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the app as its own origin: its page, styles and API, its cookies, its routes after a reload', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('server');
    await signUpViaApi(page, username);
    const projectId = await buildProjectViaApi(page, 'A notes app');
    // The run made a static site; the project becomes a node:http server with a page.
    const sql = server.db.orm.em.getConnection();
    await sql.execute('delete from project_files where project_id = ?', [projectId]);
    await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, 'server.js', SERVER, SERVER.length]);
    await sql.execute('update projects set version = version + 1 where id = ?', [projectId]);

    const origin = `http://p-${projectId}.localhost:${new URL(server.url).port}`;
    // The project page names the routes in its code, the GET ones as links into the preview.
    await page.goto(`/projects/${projectId}`);
    const routes = page.getByTestId('preview-routes');
    await routes.waitFor();
    expect(await routes.locator('li').allTextContents()).toEqual(['GET /styles.css', 'POST /api/notes', 'GET /api/notes', 'GET /api/cookies']);
    expect(await routes.getByRole('link', { name: 'GET /api/notes' }).getAttribute('href')).toBe(`/preview/${projectId}?path=%2Fapi%2Fnotes`);
    expect(await routes.getByText('POST /api/notes').evaluate((el) => el.tagName)).toBe('SPAN');

    await page.goto(`/preview/${projectId}`);
    expect(new URL(page.url()).origin).toBe(origin);
    // "Starting the server…" refreshes itself until the app answers.
    await page.getByRole('heading', { name: 'Notes' }).waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\nThe preview showed: ${await page.locator('body').innerText().catch(() => '(nothing)')}`);
    });
    // Its root-relative stylesheet came from its own server (the heading shows before the sheet
    // arrives on a busy machine: the page's load waits for it).
    await page.waitForLoadState('load');
    expect(await page.locator('h1').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(1, 2, 3)');

    await page.getByRole('textbox', { name: 'Note' }).fill('Buy milk');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.locator('#notes li', { hasText: 'Buy milk' }).waitFor();

    // A client-side route, reloaded: the server answers it, the note is still there (in its memory).
    await page.goto(`${origin}/notes/1`);
    await page.locator('#notes li', { hasText: 'Buy milk' }).waitFor();
    expect(await page.locator('#route').textContent()).toBe('route /notes/1');

    // Its own cookie came back to it; Wolfpack's never did, nor the preview's access cookie.
    const seen = (await page.evaluate(async () => (await fetch('/api/cookies')).json())) as { cookie: string; visits: number };
    expect(seen.visits).toBeGreaterThan(2);
    expect(seen.cookie).toMatch(/^visits=\d+$/);

    const out = await probeIsolation(page, server.url);
    expect(out.origin).toBe(origin);
    expect(out.cookie).toBe('read:');
    expect(out.me).toBe('blocked:TypeError');
    expect(out.logout).toBe('blocked:TypeError');
    const me = await page.request.get(`${server.url}/api/auth/me`);
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe(username);
    expect((await page.context().cookies(server.url)).map((c) => c.name).sort()).toEqual(['wolfpack.sid', 'wolfpack.sid.sig']);
  });
});
