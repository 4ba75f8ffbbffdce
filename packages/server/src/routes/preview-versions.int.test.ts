import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_COOKIE } from '@wolfpack/core/proof';
import { previewLinkReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const REFUSAL = 'This preview link is not valid or has expired. Open the preview again from Wolfpack.';

describe.each(testDatabases())('previews of a version on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let projectId: string;
  let origin: string;
  /** index.html of versions 1 and 2 (the demo engine writes the idea into the page). */
  const pages: string[] = [];

  async function build(client: TestClient, idea: string, into?: string): Promise<string> {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea, ...(into ? { projectId: into } : {}) }),
    });
    const last = events.at(-1)!.event;
    if (last.type !== 'complete') throw new Error(`run did not complete: ${JSON.stringify(last)}`);
    return last.projectId;
  }

  async function currentPage(): Promise<string> {
    const project = (await alice.get(`/api/projects/${projectId}`)).json.project as { fsIndex: Record<string, string> };
    return project.fsIndex['index.html']!;
  }

  /** The signed link /preview/{id}?version=… sends the owner to. */
  async function link(query = ''): Promise<string> {
    const res = await alice.get(`/preview/${projectId}${query}`);
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    alice = new TestClient(server.url);
    await alice.post('/api/auth/register', { username: 'alice', password: 'correct-horse' });
    projectId = await build(alice, 'Photo gallery');
    pages.push(await currentPage());
    await build(alice, 'Birdwatching log with sightings by season', projectId);
    pages.push(await currentPage());
    origin = `http://p-${projectId}.localhost:${new URL(server.url).port}`;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it("shows each version's own page, and a version's link stays on it after the project moves on", async () => {
    expect(pages[0]).not.toBe(pages[1]);
    const first = new PreviewClient();
    const firstPage = await first.open(await link('?version=1'));
    expect(firstPage.status).toBe(200);
    expect(firstPage.text).toBe(pages[0]);
    const second = new PreviewClient();
    expect((await second.open(await link('?version=2'))).text).toBe(pages[1]);
    const current = new PreviewClient();
    expect((await current.open(await link())).text).toBe(pages[1]);
    // A path of the preview carries on with the version.
    const deep = await new PreviewClient().request(await link('?version=1&path=%2Fapp.js'));
    expect(deep.headers.location).toBe('/app.js');

    await build(alice, 'Recipe box for weeknight dinners', projectId);
    const third = await currentPage();
    expect(third).not.toBe(pages[1]);
    expect((await first.request(`${origin}/`)).text).toBe(pages[0]);
    expect((await second.request(`${origin}/`)).text).toBe(pages[1]);
    // A link that names no version follows the project.
    expect((await current.request(`${origin}/`)).text).toBe(third);
    // A client-side route of version 1 gets version 1's page.
    const route = await first.request(`${origin}/albums/3`, { headers: { accept: 'text/html', 'sec-fetch-dest': 'document' } });
    expect(route.text).toBe(pages[0]);
    expect((await first.request(`${origin}/missing.css`)).status).toBe(404);
  });

  it('gives the API and the CLI the link of a version, and says which one', async () => {
    const res = await alice.get(`/api/projects/${projectId}/preview?version=1`);
    expect(res.status).toBe(200);
    const reply = previewLinkReply.parse(res.json);
    expect(reply.version).toBe(1);
    expect(reply.kind).toBe('static');
    expect(reply.url).toMatch(/token=\d+\.1\.[A-Za-z0-9_-]{43}/);
    expect((await new PreviewClient().open(reply.url)).text).toBe(pages[0]);
    const plain = previewLinkReply.parse((await alice.get(`/api/projects/${projectId}/preview`)).json);
    expect(plain.version).toBeUndefined();
    expect(plain.url).toMatch(/token=\d+\.[A-Za-z0-9_-]{43}(&|$)/);
  });

  it('says so when the version does not exist or is not a version number', async () => {
    const unknown = await alice.get(`/preview/${projectId}?version=99`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = unknown.text;
    expect(text).toContain('This project has no version 99: its versions are 1 to 3.');
    const api = await alice.get(`/api/projects/${projectId}/preview?version=99`);
    expect(api.status).toBe(404);
    expect(api.json.error).toContain('This project has no version 99');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const page = await alice.get(`/preview/${projectId}?version=${bad}`);
      expect(page.status).toBe(400);
      expect(page.text).toMatch(/A version is a whole number, 1 or more|No project has that many versions/);
      const reply = await alice.get(`/api/projects/${projectId}/preview?version=${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/A version is a whole number, 1 or more|No project has that many versions/);
    }
  });

  it('refuses a link or cookie whose version was changed or added', async () => {
    const location = await link('?version=1');
    const moved = location.replace(/(token=\d+)\.1\./, '$1.2.');
    expect(moved).not.toBe(location);
    const browser = new PreviewClient();
    const refused = await browser.request(moved);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain(REFUSAL);
    expect(refused.headers['set-cookie']).toBeUndefined();
    for (const forged of [location.replace(/(token=\d+)\.1\./, '$1.01.'), location.replace(/(token=\d+)\.1\./, '$1.x.'), location.replace(/(token=\d+)\.1\./, '$1.1.1.')]) {
      expect((await new PreviewClient().request(forged)).status).toBe(404);
    }
    // A link of the current version with a version slipped in.
    const plain = await link();
    expect((await new PreviewClient().request(plain.replace(/(token=\d+)\./, '$1.1.'))).status).toBe(404);

    // The cookie of version 1, its version changed by hand.
    const entered = await new PreviewClient().request(location);
    const cookie = entered.headers['set-cookie']!.find((c) => c.startsWith(`${PREVIEW_COOKIE}=`))!.split(';')[0]!;
    const ok = await new PreviewClient().request(`${origin}/`, { headers: { cookie } });
    expect(ok.text).toBe(pages[0]);
    const altered = await new PreviewClient().request(`${origin}/`, { headers: { cookie: cookie.replace(/=(\d+)\.1\./, '=$1.2.') } });
    expect(altered.status).toBe(404);
    expect(altered.text).toContain(REFUSAL);
  });

  it("does not let another user open a version of someone else's project", async () => {
    const mallory = new TestClient(server.url);
    await mallory.post('/api/auth/register', { username: 'mallory', password: 'correct-horse' });
    const page = await mallory.get(`/preview/${projectId}?version=1`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Photo gallery');
    expect((await mallory.get(`/api/projects/${projectId}/preview?version=1`)).status).toBe(404);
    // Whether the version exists is not told either.
    expect((await mallory.get(`/api/projects/${projectId}/preview?version=99`)).json.error).toBe('Project not found');
    const anonymous = await fetch(`${server.url}/preview/${projectId}?version=1`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });
});
