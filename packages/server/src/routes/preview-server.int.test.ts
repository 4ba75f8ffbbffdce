/**
 * The preview of an HTTP server project through the server: started in the sandbox by the first
 * request to its preview origin ("Starting the server…" meanwhile), reached there with any path,
 * method, body and query, never with Wolfpack's cookies, credentials or environment; its answers
 * as it gives them, its own cookies kept to its host; stopped when idle (never while it
 * answers), at most WOLFPACK_PREVIEW_SERVERS at once with the least recently used stopped first,
 * all stopped when the server closes; a server that crashes shows its output and Repair again.
 * Koa is the real one, installed from a local registry packed from this workspace.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findSandbox } from '@wolfpack/core/proof';
import { needTool, sandboxCheck, startFakeNpmRegistry, workspaceTree, type FakeNpmRegistry, type ToolCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Project, ProjectFile } from '../entities/index.js';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { oneTestDatabase, startTestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the previews of HTTP servers (run in the sandbox)');

/** Whether the sandbox's own Python can import Flask (the Flask preview needs it; nothing installs it). */
async function flaskCheck(): Promise<ToolCheck> {
  const found = await findSandbox({ env: {} });
  if (!('sandbox' in found) || found.sandbox.python === null) return { tool: 'flask', available: false, reason: 'there is no Python in the sandbox' };
  const empty = await mkdtemp(join(tmpdir(), 'wolfpack-flask-check-'));
  await chmod(empty, 0o755);
  const result = await found.sandbox.run(empty, { argv: ['python3', '-c', 'import flask'], limits: { wallMs: 10_000 } });
  await rm(empty, { recursive: true, force: true });
  return result.exitCode === 0
    ? { tool: 'flask', available: true }
    : { tool: 'flask', available: false, reason: `the sandbox's Python (${found.sandbox.python}) cannot import flask, and Proven Code's own tests rely on that (a Flask app is reported as needing a package this server cannot install); Debian: apt-get install python3-flask` };
}
// Not a tool npm test installs (see above): said, never failed on.
const flask = sandboxed && needTool(await flaskCheck(), 'the preview of a Flask app', {});

/** A node:http app that answers with what it was given; argv[2] tags its process, to find it in /proc. */
const ECHO = `const http = require('node:http');
const tag = process.argv[2];
http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.url === '/slow') {
      res.write('first ');
      setTimeout(() => res.end('last'), 2500);
      return;
    }
    if (req.url === '/crash') throw new Error('crashed on purpose by ' + tag);
    res.setHeader('content-type', 'application/json');
    res.setHeader('set-cookie', 'wolfpack.sid=from-the-app; Path=/');
    res.setHeader('content-security-policy', 'sandbox allow-scripts allow-same-origin');
    res.setHeader('clear-site-data', '"cookies"');
    res.end(JSON.stringify({ tag, method: req.method, url: req.url, headers: req.headers, env: process.env, body }));
  });
}).listen(process.env.PORT, process.env.HOST);
`;
const echoApp = (tag: string) => ({ 'package.json': JSON.stringify({ name: 'echo', scripts: { start: `node echo.js ${tag}` } }), 'echo.js': ECHO });

const KOA_APP = {
  'package.json': JSON.stringify({ name: 'koa-app', scripts: { start: 'node app.js' }, dependencies: { koa: '^3.0.0' } }),
  'app.js': `const Koa = require('koa');
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/go') return ctx.redirect('/done');
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  ctx.cookies.set('koa.sid', 'abc');
  ctx.body = { framework: 'koa', method: ctx.method, path: ctx.path, query: ctx.query, body: Buffer.concat(chunks).toString(), cookie: ctx.get('cookie') || null, authorization: ctx.get('authorization') || null, prefix: ctx.get('x-forwarded-prefix') };
});
app.listen(Number(process.env.PORT), process.env.HOST);
`,
};

/** Python's own server (no package to install): the Python start and relay, Flask or not. */
const PYTHON_APP = {
  'server.py': `import json, os
from http.server import BaseHTTPRequestHandler, HTTPServer

class Echo(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('content-length', 0))).decode()
        answer = json.dumps({'runtime': 'python', 'path': self.path, 'body': body, 'cookie': self.headers.get('cookie')}).encode()
        self.send_response(200)
        self.send_header('content-type', 'application/json')
        self.end_headers()
        self.wfile.write(answer)

if __name__ == '__main__':
    HTTPServer(('127.0.0.1', int(os.environ['PORT'])), Echo).serve_forever()
`,
};

const FLASK_APP = {
  'requirements.txt': 'flask\n',
  'app.py': "from flask import Flask, request\napp = Flask(__name__)\n\n@app.post('/hello')\ndef hello():\n    return {'framework': 'flask', 'name': request.form['name']}\n",
};

const CRASHING_APP = {
  'server.js': "const http = require('node:http');\nconsole.log('<b>loading the config</b>');\nconst config = JSON.parse('{\"port\": }');\nhttp.createServer(() => {}).listen(config.port);\n",
};

/** Pids of the processes whose argv holds `tag` as one argument: the apps started with it. */
function processesWith(tag: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(tag);
    } catch {
      return false; // gone since the listing
    }
  });
}

type PreviewInit = { method?: string; headers?: Record<string, string>; body?: string };
type PreviewFetch = (url: string, init?: PreviewInit) => Promise<Response>;

/** fetch, as the owner's browser once in the preview (its cookie sent, no redirect followed). */
function previewFetch(browser: PreviewClient): PreviewFetch {
  return async (url, init) => {
    const reply = await browser.request(url, init);
    const headers = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    return new Response([204, 304].includes(reply.status) ? null : reply.text, { status: reply.status, headers });
  };
}

/** Asks until the server no longer says it is starting; the last answer. */
async function untilStarted(fetch: PreviewFetch, url: string, init?: PreviewInit): Promise<{ res: Response; body: string }> {
  for (;;) {
    const res = await fetch(url, init);
    const body = await res.text();
    if (!body.includes('<title>Starting the server…</title>')) return { res, body };
    expect(body).toContain('<meta http-equiv="refresh" content="1">');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the page itself refreshes every second
  }
}

describe.skipIf(!sandboxed).each(oneTestDatabase())('previews of HTTP servers on %s', (kind) => {
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    registry = await startFakeNpmRegistry({}, await workspaceTree(['koa@3']));
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-preview-server-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    baseEnv = {
      WOLFPACK_SANDBOX: 'on',
      npm_config_registry: registry.url,
      WOLFPACK_PROOF_CACHE_DIR: cacheDir,
      // Secrets of the server's, to prove they never reach an app.
      STRIPE_SECRET_KEY: 'sk_test_never_in_a_preview',
      WOLFPACK_ADMIN_SECRET: 'admin-secret-never-in-a-preview',
    };
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  /** A server with a signed-in owner, and a way to give them projects of any files. */
  async function serve(env: Record<string, string> = {}) {
    const server = await startTestServer(kind, { env: { ...baseEnv, ...env } });
    const owner = new TestClient(server.url);
    const username = `owner-${randomUUID().slice(0, 8)}`;
    expect((await owner.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [user] = (await server.db.orm.em.getConnection().execute('select id from users where username = ?', [username])) as { id: string }[];
    const userId = user!.id;
    const project = async (files: Record<string, string>) => {
      const em = server.db.orm.em.fork();
      const id = randomUUID();
      const now = new Date();
      const bytes = Object.values(files).reduce((n, c) => n + Buffer.byteLength(c), 0);
      em.create(Project, { id, userId, idea: 'A server to preview', fileCount: Object.keys(files).length, totalBytes: bytes, version: 1, createdAt: now, updatedAt: now });
      await em.flush(); // the files refer to it
      for (const [path, content] of Object.entries(files)) em.create(ProjectFile, { projectId: id, path, content, size: Buffer.byteLength(content) });
      await em.flush();
      return id;
    };
    const browser = new PreviewClient();
    /** Opens the project's preview in the owner's browser; its origin's root. */
    const link = async (projectId: string) => {
      const res = await owner.get(`/api/projects/${projectId}/preview`);
      expect(res.status).toBe(200);
      const { url, origin } = res.json as { url: string; origin: string };
      expect((await browser.request(url)).status).toBe(302);
      return `${origin}/`;
    };
    return { server, owner, project, link, browser, fetch: previewFetch(browser) };
  }

  /** A server of its own for a describe block's tests: started before them, disposed after. */
  function served(env: Record<string, string>): Awaited<ReturnType<typeof serve>> {
    const held = {} as Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      Object.assign(held, await serve(env));
    }, 60_000);
    afterAll(() => held.server?.dispose());
    return held;
  }

  describe('one server', () => {
    const s = served({ WOLFPACK_PREVIEW_SERVERS: '2' });

    it('starts a node:http app on the first request, then passes any method, body and query to it, without the cookies, credentials or environment of Wolfpack', async () => {
      const tag = `echo-${randomUUID()}`;
      const url = await s.link(await s.project(echoApp(tag)));
      const first = await s.fetch(url);
      expect(first.status).toBe(200);
      expect(await first.text()).toContain('<title>Starting the server…</title>');
      await untilStarted(s.fetch, url);
      expect(processesWith(tag)).toHaveLength(1);

      const host = new URL(url).host;
      const res = await s.fetch(`${url}submit?x=1&y=two%20words`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          // The preview origin's own cookies and credentials are the app's; the access cookie is not.
          cookie: `${s.browser.cookieHeader(host)}; theme=dark`,
          authorization: 'Basic YWRhOnNlY3JldA==',
          'x-admin-secret': 'admin-secret-never-in-a-preview',
        },
        body: 'name=Ada&note=%3Cb%3E',
      });
      expect(res.status).toBe(200);
      const seen = (await res.json()) as { tag: string; method: string; url: string; headers: Record<string, string>; env: Record<string, string>; body: string };
      expect(seen).toMatchObject({ tag, method: 'POST', url: '/submit?x=1&y=two%20words', body: 'name=Ada&note=%3Cb%3E' });
      expect(s.browser.cookieHeader(host)).toContain('__wolfpack_preview=');
      // Its own cookies only (the one it set on its first answer, named like Wolfpack's, is its own).
      expect(seen.headers['cookie']).toBe('wolfpack.sid=from-the-app; theme=dark');
      expect(seen.headers['cookie']).not.toContain(/wolfpack\.sid=([^;]+)/.exec(s.owner.cookieHeader())![1]);
      expect(seen.headers['authorization']).toBe('Basic YWRhOnNlY3JldA==');
      expect(seen.headers).not.toHaveProperty('x-admin-secret');
      expect(seen.headers['host']).toBe(host);
      expect(seen.headers).not.toHaveProperty('x-forwarded-prefix');
      expect(Object.keys(seen.env).sort()).toEqual(['HOME', 'HOST', 'LANG', 'LOGNAME', 'NODE_ENV', 'NODE_OPTIONS', 'NO_COLOR', 'OLDPWD', 'PATH', 'PORT', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'SHLVL', 'TMPDIR', 'USER']);
      expect(JSON.stringify(seen.env)).not.toMatch(/sk_test_never|admin-secret-never|npm_config|WOLFPACK/);

      // On its own origin its answer is its own: its CSP, its cookies (for its host alone).
      expect(res.headers.get('content-security-policy')).toBe('sandbox allow-scripts allow-same-origin');
      expect(res.headers.getSetCookie()).toEqual(['wolfpack.sid=from-the-app; Path=/']);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('private, no-store');

      // A forged link lets nothing in, and without the cookie nothing reaches the app, whatever the method.
      const api = (await s.owner.get(`/api/projects/${new URL(url).hostname.slice(2, 38)}/preview`)).json as { url: string };
      const forged = api.url.replace(/(token=\d+)\.([A-Za-z0-9_-])/, (_m, head: string, c: string) => `${head}.${c === 'A' ? 'B' : 'A'}`);
      expect(forged).not.toBe(api.url);
      const stranger = previewFetch(new PreviewClient());
      expect((await stranger(forged)).status).toBe(404);
      for (const method of ['GET', 'POST']) expect((await stranger(`${url}submit`, { method, ...(method === 'POST' ? { body: 'x' } : {}) })).status, method).toBe(404);
    }, 60_000);

    it("keeps one user's server from another: without the owner's link nothing reaches it, nor starts it", async () => {
      const tag = `private-${randomUUID()}`;
      const projectId = await s.project(echoApp(tag));
      const other = new TestClient(s.server.url);
      const name = `other-${randomUUID().slice(0, 8)}`;
      expect((await other.post('/api/auth/register', { username: name, password: 'correct-horse' })).status).toBe(201);
      // No link for them, by the API or by the page that redirects to one.
      expect((await other.get(`/api/projects/${projectId}/preview`)).status).toBe(404);
      expect((await other.get(`/preview/${projectId}`)).status).toBe(404);
      // The link of a project of their own, pointed at this one: signed for another project, so refused.
      const [them] = (await s.server.db.orm.em.getConnection().execute('select id from users where username = ?', [name])) as { id: string }[];
      const theirs = randomUUID();
      const now = new Date();
      const em = s.server.db.orm.em.fork();
      em.create(Project, { id: theirs, userId: them!.id, idea: 'Their own', fileCount: 0, totalBytes: 0, version: 1, createdAt: now, updatedAt: now });
      await em.flush();
      const theirLink = ((await other.get(`/api/projects/${theirs}/preview`)).json as { url: string }).url;
      const swapped = theirLink.replace(theirs, projectId);
      const theirBrowser = new PreviewClient();
      expect((await theirBrowser.request(swapped)).status).toBe(404);
      for (const method of ['GET', 'POST']) {
        const res = await previewFetch(theirBrowser)(`${new URL(swapped).origin}/anything`, { method, ...(method === 'POST' ? { body: 'x' } : {}) });
        expect(res.status, method).toBe(404);
        expect(await res.text()).not.toContain(tag);
      }
      expect(processesWith(tag)).toEqual([]);
      // The owner's link is what opens it (to whoever holds it, as with every preview link).
      const { body } = await untilStarted(s.fetch, await s.link(projectId));
      expect((JSON.parse(body) as { tag: string }).tag).toBe(tag);
    }, 60_000);

    it('runs a real Koa app installed from the registry: its redirects stay on its origin, its cookies on its host', async () => {
      const url = await s.link(await s.project(KOA_APP));
      const { res, body } = await untilStarted(s.fetch, `${url}items?tag=a&tag=b`, { method: 'PUT', body: 'raw body' });
      expect(res.status, body).toBe(200);
      expect(JSON.parse(body)).toEqual({ framework: 'koa', method: 'PUT', path: '/items', query: { tag: ['a', 'b'] }, body: 'raw body', cookie: null, authorization: null, prefix: '' });
      expect(res.headers.getSetCookie()).toEqual(['koa.sid=abc; path=/; httponly']);
      const redirect = await s.fetch(`${url}go`);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('/done');
    }, 120_000);

    it("runs a Python server with Python's own http.server", async () => {
      const url = await s.link(await s.project(PYTHON_APP));
      const { res, body } = await untilStarted(s.fetch, `${url}echo?q=1`, { method: 'POST', body: 'from the browser' });
      expect(res.status, body).toBe(200);
      expect(JSON.parse(body)).toEqual({ runtime: 'python', path: '/echo?q=1', body: 'from the browser', cookie: null });
    }, 60_000);

    it.skipIf(!flask)('runs a Flask app', async () => {
      const url = await s.link(await s.project(FLASK_APP));
      const { res, body } = await untilStarted(s.fetch, `${url}hello`, { method: 'POST', body: 'name=Ada', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status, body).toBe(200);
      expect(JSON.parse(body)).toEqual({ framework: 'flask', name: 'Ada' });
    }, 60_000);

    it('runs at most two at once, and stops the least recently used to start another', async () => {
      const tags = ['a', 'b', 'c'].map((name) => `lru-${name}-${randomUUID()}`);
      const [a, b, c] = await Promise.all(tags.map(async (tag) => s.link(await s.project(echoApp(tag)))));
      await untilStarted(s.fetch, a!);
      await untilStarted(s.fetch, b!);
      expect(processesWith(tags[0]!)).toHaveLength(1);
      expect(processesWith(tags[1]!)).toHaveLength(1);
      // a is used again, so b is now the least recently used.
      expect(((await (await s.fetch(`${a}again`)).json()) as { tag: string }).tag).toBe(tags[0]);
      expect(await (await s.fetch(c!)).text()).toContain('<title>Starting the server…</title>');
      await vi.waitFor(() => expect(processesWith(tags[1]!)).toEqual([]), { timeout: 10_000, interval: 100 });
      await untilStarted(s.fetch, c!);
      expect(processesWith(tags[0]!)).toHaveLength(1);
      expect(processesWith(tags[2]!)).toHaveLength(1);
      // a answers at once: it was kept.
      expect(((await (await s.fetch(`${a}still`)).json()) as { tag: string }).tag).toBe(tags[0]);
    }, 60_000);

    it('gives each project its own server, even when another has the same files (its state is its users\')', async () => {
      const tag = `twin-${randomUUID()}`;
      const [first, second] = await Promise.all([0, 1].map(async () => s.link(await s.project(echoApp(tag)))));
      await untilStarted(s.fetch, first!);
      await untilStarted(s.fetch, second!);
      expect(processesWith(tag)).toHaveLength(2);
    }, 60_000);

    it('shows a server that crashed at its start, with its output (escaped) and the way to Repair again', async () => {
      const projectId = await s.project(CRASHING_APP);
      const { res, body } = await untilStarted(s.fetch, await s.link(projectId));
      expect(res.status).toBe(200);
      expect(body).toContain('<title>The server did not start</title>');
      expect(body).toContain('<h2>server.js:3</h2>');
      expect(body).toMatch(/the server stopped before it listened on a port: SyntaxError: Unexpected token/);
      expect(body).toContain('&#60;b&#62;loading the config&#60;/b&#62;');
      expect(body).not.toContain('<b>loading');
      expect(body).toContain(`<a href="${s.server.url}/projects/${projectId}" data-testid="preview-repair">Repair again</a>`);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }, 60_000);

    it('shows a server that crashed while in use, and starts it anew when its owner opens the preview again', async () => {
      const tag = `crash-${randomUUID()}`;
      const projectId = await s.project(echoApp(tag));
      const url = await s.link(projectId);
      await untilStarted(s.fetch, url);
      const crash = await s.fetch(`${url}crash`);
      const page = await crash.text();
      expect(page).toContain('<title>The server stopped</title>');
      expect(page).toContain('<h2>echo.js:12</h2>');
      expect(page).toContain(`Error: crashed on purpose by ${tag}`);
      expect(page).toContain('data-testid="preview-repair"');
      // It stays so for this link…
      expect(await (await s.fetch(url)).text()).toContain('<title>The server stopped</title>');
      // …until the owner opens the preview again from Wolfpack.
      const again = await s.link(projectId);
      expect(await (await s.fetch(again)).text()).toContain('<title>Starting the server…</title>');
      const { body } = await untilStarted(s.fetch, again);
      expect((JSON.parse(body) as { tag: string }).tag).toBe(tag);
    }, 60_000);
  });

  describe('an owner who revokes the links or signs out everywhere', () => {
    // Room for the owner's three at once: none is stopped before the revocation stops it.
    const s = served({ WOLFPACK_PREVIEW_SERVERS_PER_USER: '3' });

    it("stops the project's server when its links are revoked, and every server of the owner who signs out everywhere", async () => {
      const [one, two, three] = ['one', 'two', 'three'].map((name) => `revoked-${name}-${randomUUID()}`);
      const first = await s.project(echoApp(one!));
      for (const [tag, id] of [[one!, first], [two!, await s.project(echoApp(two!))], [three!, await s.project(echoApp(three!))]] as const) {
        await untilStarted(s.fetch, await s.link(id));
        expect(processesWith(tag)).toHaveLength(1);
      }
      expect(processesWith(one!)).toHaveLength(1);
      expect((await s.owner.post(`/api/projects/${first}/preview/revoke`, {})).status).toBe(200);
      await vi.waitFor(() => expect(processesWith(one!)).toEqual([]), { timeout: 10_000, interval: 100 });
      expect(processesWith(two!)).toHaveLength(1);
      expect((await s.owner.post('/api/account/sign-out-everywhere', {})).status).toBe(200);
      await vi.waitFor(() => expect([...processesWith(two!), ...processesWith(three!)]).toEqual([]), { timeout: 10_000, interval: 100 });
    }, 90_000);
  });

  describe('a server that cannot run generated code', () => {
    const s = served({ WOLFPACK_SANDBOX: 'off' });

    it('says why the app cannot be previewed on this server', async () => {
      const tag = `nosandbox-${randomUUID()}`;
      const { res, body } = await untilStarted(s.fetch, await s.link(await s.project(echoApp(tag))));
      expect(res.status).toBe(503);
      expect(body).toContain('<title>No preview for this app here</title>');
      expect(body).toContain('This app is an HTTP server, and it cannot be run on this server: no sandbox on this server');
      expect(body).toContain('WOLFPACK_SANDBOX=off');
      expect(processesWith(tag)).toEqual([]);
    }, 60_000);
  });

  describe('a server with a short idle time', () => {
    const s = served({ WOLFPACK_PREVIEW_IDLE_MINUTES: '0.02' }); // 1.2 s

    it('keeps a server that is answering, stops it once idle, and starts it again on the next request', async () => {
      const tag = `idle-${randomUUID()}`;
      const url = await s.link(await s.project(echoApp(tag)));
      await untilStarted(s.fetch, url);
      // Its answer takes longer than the idle time: it is in use all along, and is not stopped.
      expect(await (await s.fetch(`${url}slow`)).text()).toBe('first last');
      await vi.waitFor(() => expect(processesWith(tag)).toEqual([]), { timeout: 15_000, interval: 100 });
      expect(await (await s.fetch(url)).text()).toContain('<title>Starting the server…</title>');
      await untilStarted(s.fetch, url);
      expect(processesWith(tag)).toHaveLength(1);
    }, 60_000);

    it('stops every preview server when the Wolfpack server closes', async () => {
      const tag = `close-${randomUUID()}`;
      await untilStarted(s.fetch, await s.link(await s.project(echoApp(tag))));
      expect(processesWith(tag)).toHaveLength(1);
      await s.server.close();
      await vi.waitFor(() => expect(processesWith(tag)).toEqual([]), { timeout: 5000, interval: 50 });
    }, 60_000);
  });
});
