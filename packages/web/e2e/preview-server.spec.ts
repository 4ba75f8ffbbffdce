/**
 * "Open Preview" of an HTTP server project (issue 28), in a real browser: the node:http app starts
 * in the sandbox ("Starting the server…" meanwhile), its page has a form, the form is submitted
 * and the server's answer shown. The page runs in the preview's opaque origin: a script in it
 * cannot read Wolfpack's cookies or storage nor call Wolfpack's API with the user's session, and
 * the app never receives the session cookie the browser sends with the link.
 */
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, signUpViaApi } from './helpers';
import { ISOLATION_PROBE } from './preview-probe';

const sandboxed = needTool(await sandboxCheck(), 'the preview of an HTTP server (it runs in the sandbox)');

const SERVER = `const http = require('node:http');
const { parse } = require('node:querystring');
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const page = (body) => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Greeter</title></head><body>' + body + '</body></html>';
// What a hostile script would try from the page: Wolfpack's cookies, storage and API.
const PROBE = \`<script>
(async () => {
${ISOLATION_PROBE}
  // Its own server, under the link, it can call.
  try {
    const r = await fetch('greet', { method: 'POST', body: 'name=script' });
    out.own = 'status:' + r.status + ':' + (await r.text()).includes('Hello, script!');
  } catch (e) { out.own = 'blocked:' + e.name; }
  document.getElementById('out').textContent = JSON.stringify(out);
})();
</script>\`;
http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const cookie = '<p id="cookie-seen">' + escape(req.headers.cookie ?? 'none') + '</p>';
    if (req.method === 'POST' && req.url === '/greet') {
      res.end(page('<h1 id="answer">Hello, ' + escape(parse(body).name) + '!</h1>' + cookie));
      return;
    }
    res.end(page('<h1>Greeter</h1><form method="post" action="greet"><label>Name <input name="name"></label><button>Greet</button></form>' + cookie + '<pre id="out">running</pre>' + PROBE));
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

  it('starts the server, submits its form and shows its answer, all in the sandboxed origin', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('server');
    await signUpViaApi(page, username);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('wolfpack-secret', 'keep-out'));
    const projectId = await buildProjectViaApi(page, 'A greeter');
    // The run made a static site; the project becomes a node:http server.
    const sql = server.db.orm.em.getConnection();
    await sql.execute('delete from project_files where project_id = ?', [projectId]);
    await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, 'server.js', SERVER, SERVER.length]);
    await sql.execute('update projects set version = version + 1 where id = ?', [projectId]);

    await page.goto(`/preview/${projectId}`);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/preview/${projectId}/\\d+\\.[A-Za-z0-9_-]+/$`));
    // "Starting the server…" refreshes itself until the app answers.
    await page.getByRole('heading', { name: 'Greeter' }).waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\nThe preview showed: ${await page.locator('body').innerText().catch(() => '(nothing)')}`);
    });
    // The browser sent Wolfpack's session cookie with the link; the app never got it.
    expect(await page.locator('#cookie-seen').textContent()).toBe('none');

    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'running');
    const out = JSON.parse((await page.locator('#out').textContent())!) as Record<string, string>;
    expect(out['origin']).toBe('null');
    expect(out['cookie']).toBe('blocked:SecurityError');
    expect(out['storage']).toBe('blocked:SecurityError');
    expect(out['me']).not.toContain(username);
    expect(out['me'] === 'blocked:TypeError' || out['me']!.startsWith('status:401')).toBe(true);
    expect(out['logout'] === 'blocked:TypeError' || out['logout'] === 'status:403').toBe(true);
    expect(out['own']).toBe('status:200:true');

    await page.getByRole('textbox', { name: 'Name' }).fill('Ada <Lovelace>');
    await page.getByRole('button', { name: 'Greet' }).click();
    await page.locator('#answer').waitFor();
    expect(await page.locator('#answer').textContent()).toBe('Hello, Ada <Lovelace>!');
    expect(new URL(page.url()).pathname).toMatch(/\/greet$/);
    expect(await page.locator('#cookie-seen').textContent()).toBe('none');
    expect(await page.evaluate(() => self.origin)).toBe('null');

    // The user is still signed in: the forged logout did nothing.
    const me = await page.request.get(`${server.url}/api/auth/me`);
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe(username);
  }, 120_000);
});
