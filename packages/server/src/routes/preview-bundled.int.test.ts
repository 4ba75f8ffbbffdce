/**
 * The preview of a bundled app through the server, on its own origin: built in the sandbox on demand
 * ("Building preview…" meanwhile), served from the build, kept per project version on disk (a
 * restarted server serves it at once), rebuilt for a new version (a link of an earlier version
 * keeps that version's build), and a build that fails shows
 * its problem and the way to Repair again. The engine is a local OpenAI-compatible fake playing a
 * React + Vite app; Vite and React install from a local registry (packed from this workspace).
 */
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage, PipelineEvent } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { BUNDLED_CASES, needTool, replyForRequest, sandboxCheck, startFakeNpmRegistry, workspaceTree, type FakeNpmRegistry } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the previews of bundled apps (built in the sandbox)');
const app = BUNDLED_CASES.find((c) => c.id === 'correct-react-js')!;
const broken = BUNDLED_CASES.find((c) => c.id === 'build-error-missing-export')!;

/** The owner's browser, once in the preview. */
const browser = new PreviewClient();
const page = { headers: { accept: 'text/html', 'sec-fetch-dest': 'document' } };

/** Asks for `url` until the build is no longer under way; the pages it saw meanwhile. */
async function untilBuilt(url: string): Promise<{ res: { status: number; headers: Record<string, string | string[] | undefined> }; body: string; waited: string[] }> {
  const waited: string[] = [];
  for (;;) {
    const res = await browser.request(url, page);
    const body = res.text;
    if (!body.includes('<title>Building preview…</title>')) return { res, body, waited };
    waited.push(body);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the page itself refreshes every second
  }
}

describe.skipIf(!sandboxed).each(testDatabases())('previews of bundled apps on %s', (kind) => {
  let engine: OpenAIFakeServer;
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let server: TestServer;
  let env: Record<string, string>;
  let client: TestClient;
  let projectId: string;

  beforeAll(async () => {
    registry = await startFakeNpmRegistry({}, await workspaceTree(['vite@8', 'react@19', 'react-dom@19', '@vitejs/plugin-react@6']));
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-preview-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    engine = await startFakeOpenAIServer({
      fallback: (request) => {
        const reply = replyForRequest(app, (request.body as { messages: ChatMessage[] }).messages);
        return { kind: 'stream', deltas: [typeof reply === 'string' ? reply : 'I cannot answer that.'] };
      },
    });
    env = {
      // The run's own gate is not what this file tests: the preview builds whatever the run left.
      WOLFPACK_SANDBOX: 'on',
      // The project's build, a development build and the render: on a busy 2-core machine (the suites run
      // side by side) they can pass 20 s, and the verdict would then rightly be unproven. This file
      // is about the preview; the budget has tests of its own.
      WOLFPACK_PROOF_TIME_LIMIT_MS: '60000',
      WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
      npm_config_registry: registry.url,
      WOLFPACK_PROOF_CACHE_DIR: cacheDir,
    };
    server = await startTestServer(kind, { env });
    client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'vita', password: 'correct-horse' })).status).toBe(201);
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A tally of the things I need to buy' }),
    });
    const last = events.at(-1)!.event as PipelineEvent;
    if (last.type !== 'complete') throw new Error(`the run ended with ${JSON.stringify(last)}`);
    projectId = last.projectId;
  }, 180_000);
  afterAll(async () => {
    await server?.dispose();
    await engine?.close();
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  /** Opens the preview in the owner's browser; its origin's root. */
  const link = async () => {
    const res = await client.get(`/api/projects/${projectId}/preview`);
    expect(res.status).toBe(200);
    const { url, origin } = res.json as { url: string; origin: string };
    expect((await browser.request(url)).status).toBe(302);
    return `${origin}/`;
  };

  it('says "Building preview…" while the sandbox builds, then serves the built app, its assets and its routes', async () => {
    const url = await link();
    const { res, body, waited } = await untilBuilt(url);
    expect(waited.length).toBeGreaterThan(0);
    expect(waited[0]).toContain('<meta http-equiv="refresh" content="1">');
    expect(waited[0]).toMatch(/Installing the dependencies…|Building the app…|Waiting for another preview/);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // Its own origin, not a sandboxed one: storage and root-relative URLs work.
    expect(res.headers['content-security-policy']).toBeUndefined();
    // Vite's output, at the root of the preview's origin as on the app's own domain.
    const script = /<script type="module" crossorigin src="\/(assets\/[\w.-]+\.js)">/.exec(body)?.[1];
    expect(script, body).toBeDefined();
    const js = await browser.request(`${url}${script}`);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text).toContain('No items yet');
    // A path the app routes itself is its page (after a reload too); a missing asset is not.
    expect((await browser.request(`${url}lists/groceries`, page)).text).toBe(body);
    expect((await browser.request(`${url}assets/nope.js`)).status).toBe(404);
    // Kept on disk, one file per version.
    expect((await readdir(join(server.dataDir, 'preview-cache'))).filter((f) => f.endsWith('.tar'))).toHaveLength(1);
  }, 120_000);

  it('serves the kept build at once after a restart, and builds a new version anew', async () => {
    await server.close();
    server = await startTestServer(kind, { env, reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
    client = new TestClient(server.url);
    expect((await client.post('/api/auth/login', { username: 'vita', password: 'correct-horse' })).status).toBe(200);
    const first = await browser.request(await link(), page);
    expect(first.text).toMatch(/<script type="module" crossorigin src="\/assets\//);

    // A new version whose build fails: the page says so, names the problem, and leads to Repair again.
    const sql = server.db.orm.em.getConnection();
    await sql.execute(`update project_files set content = ? where project_id = ? and path = 'src/App.jsx'`, [broken.files['src/App.jsx'], projectId]);
    await sql.execute('update projects set version = version + 1 where id = ?', [projectId]);
    const { res, body } = await untilBuilt(await link());
    expect(res.status).toBe(200);
    expect(body).toContain('<title>The preview could not be built</title>');
    expect(body).toContain('<h2>src/App.jsx:2</h2>');
    expect(body).toContain('the vite build failed: [MISSING_EXPORT] &#34;formatCount&#34; is not exported by &#34;src/format.js&#34;.');
    expect(body).toContain(`<a href="${server.url}/projects/${projectId}" data-testid="preview-repair">Repair again</a>`);
    // Wolfpack's own page runs no script.
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  }, 120_000);

  it("serves an earlier version's own build to its link while the current one fails", async () => {
    const res = await client.get(`/api/projects/${projectId}/preview?version=1`);
    expect(res.status).toBe(200);
    const { url, origin } = res.json as { url: string; origin: string };
    const earlier = new PreviewClient();
    expect((await earlier.request(url)).status).toBe(302);
    // Version 1's files are the ones built first: their kept build answers at once.
    const body = (await earlier.request(`${origin}/`, page)).text;
    expect(body).toMatch(/<script type="module" crossorigin src="\/assets\//);
    expect((await browser.request(`${origin}/`, page)).text).toContain('<title>The preview could not be built</title>');
  }, 120_000);
});
