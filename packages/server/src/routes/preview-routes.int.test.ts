import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_COOKIE } from '@wolfpack/core/proof';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const REFUSAL = 'This preview link is not valid or has expired. Open the preview again from Wolfpack.';

describe.each(testDatabases())('previews on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let projectId: string;
  let port: string;
  /** The server's time while a test holds it still; undefined: the real time. */
  let now: Date | undefined;

  async function build(client: TestClient, idea: string): Promise<string> {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea }),
    });
    const last = events.at(-1)!.event;
    return last.type === 'complete' ? last.projectId : '';
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now ?? new Date() });
    port = new URL(server.url).port;
    alice = new TestClient(server.url);
    await alice.post('/api/auth/register', { username: 'alice', password: 'correct-horse' });
    projectId = await build(alice, 'Photo gallery');
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** The signed link /preview/{id} sends the signed-in owner to. */
  async function link(path = ''): Promise<string> {
    const res = await alice.get(`/preview/${projectId}${path}`);
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  }

  it("sends the owner to the project's own origin, where its files are served at the root", async () => {
    const location = await link();
    expect(location).toMatch(new RegExp(`^http://p-${projectId}\\.localhost:${port}/__wolfpack__/enter\\?token=\\d+\\.[A-Za-z0-9_-]{43}&app=http%3A%2F%2F127\\.0\\.0\\.1%3A${port}$`));
    const browser = new PreviewClient();
    const entered = await browser.request(location);
    expect(entered.status).toBe(302);
    expect(entered.headers.location).toBe('/');
    const cookie = entered.headers['set-cookie']!.find((c) => c.startsWith(`${PREVIEW_COOKIE}=`))!;
    // For this host alone, out of scripts' reach.
    expect(cookie).toMatch(/; path=\//i);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    expect(cookie).not.toMatch(/domain=/i);

    const origin = `http://p-${projectId}.localhost:${port}`;
    const files = (await alice.get(`/api/projects/${projectId}`)).json.project as { fsIndex: Record<string, string> };
    const page = await browser.request(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // No sandbox CSP: the page has its origin's storage and cookies.
    expect(page.headers['content-security-policy']).toBeUndefined();
    expect(page.text).toBe(files.fsIndex['index.html']);
    const script = await browser.request(`${origin}/app.js`);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.text).toBe(files.fsIndex['app.js']);
    expect((await browser.request(`${origin}/missing.css`)).status).toBe(404);
    // A client-side route survives a reload: a navigation to it gets the site's index.html.
    const route = await browser.request(`${origin}/albums/3`, { headers: { accept: 'text/html', 'sec-fetch-dest': 'document' } });
    expect(route.status).toBe(200);
    expect(route.text).toBe(files.fsIndex['index.html']);
  });

  it("serves nothing of Wolfpack's on a preview origin, and nothing of the project on Wolfpack's", async () => {
    const browser = new PreviewClient();
    const origin = `http://p-${projectId}.localhost:${port}`;
    await browser.request(await link());
    // The API's path on the preview origin is the project's (a static site has no such file), even with the session.
    const me = await browser.request(`${origin}/api/auth/me`, { headers: { cookie: `${alice.cookieHeader()}; ${browser.cookieHeader(new URL(origin).host)}` } });
    expect(me.status).toBe(404);
    expect(me.text).not.toContain('alice');
    expect(me.text).toContain('The project has no file api/auth/me');
    expect((await browser.request(`${origin}/__wolfpack__/anything`)).status).toBe(404);
    // Old links are sent on to the preview origin, with the path they named.
    const old = await fetch(`${server.url}/preview/${projectId}/1.x/albums/3?sort=new`, { redirect: 'manual' });
    expect(old.status).toBe(302);
    expect(old.headers.get('location')).toBe(`http://p-${projectId}.localhost:${port}/__wolfpack__/enter?token=1.x&path=%2Falbums%2F3%3Fsort%3Dnew&app=http%3A%2F%2F127.0.0.1%3A${port}`);
    // What a path climbing out of an old link reaches is no project's preview.
    const climbed = await fetch(`${server.url}/preview/${projectId}/1.x/albums/../../../api/auth/me`, { redirect: 'manual' });
    expect(climbed.status).toBe(404);
    // A link into a route of the preview goes to that path, never off the preview's origin.
    const deep = await link('?path=%2Falbums%2F3');
    expect((await new PreviewClient().request(deep)).headers.location).toBe('/albums/3');
    const away = await link('?path=%2F%2Fevil.example%2F');
    expect((await new PreviewClient().request(away)).headers.location).toBe('/');
  });

  it('refuses altered, foreign, anonymous and cookieless requests', async () => {
    const location = await link();
    const tampered = location.replace(/(token=\d+)\.([A-Za-z0-9_-])/, (_m, head: string, c: string) => `${head}.${c === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(location);
    const browser = new PreviewClient();
    const refused = await browser.request(tampered);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain(REFUSAL);
    expect(refused.headers['set-cookie']).toBeUndefined();
    const extended = location.replace(/token=(\d+)\./, (_m, n: string) => `token=${Number(n) + 1000}.`);
    expect((await browser.request(extended)).status).toBe(404);
    // Without the cookie, nothing of the project.
    expect((await browser.request(`http://p-${projectId}.localhost:${port}/`)).status).toBe(404);
    // Another project's token does not open this one's origin.
    const other = await build(alice, 'Recipe box');
    const otherLink = (await alice.get(`/preview/${other}`)).headers.get('location')!;
    const swapped = otherLink.replace(other, projectId);
    expect((await browser.request(swapped)).status).toBe(404);
    const anonymous = await fetch(`${server.url}/preview/${projectId}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Sign in to preview');
    const mallory = new TestClient(server.url);
    await mallory.post('/api/auth/register', { username: 'mallory', password: 'correct-horse' });
    expect((await mallory.get(`/preview/${projectId}`)).status).toBe(404);
    expect((await mallory.get(`/api/projects/${projectId}/preview`)).status).toBe(404);
    expect((await mallory.post(`/api/projects/${projectId}/preview/revoke`, {})).status).toBe(404);
  });

  it('serves a link for six hours, up to and including the instant it expires, and refuses it from the next millisecond', async () => {
    const issued = Date.parse('2026-11-20T09:00:00.000Z');
    now = new Date(issued);
    try {
      const location = await link();
      const expires = Number(/token=(\d+)\./.exec(location)![1]);
      expect(expires).toBe(issued + 6 * 3600_000);
      const browser = new PreviewClient();
      expect((await browser.open(location)).status).toBe(200);
      const origin = `http://p-${projectId}.localhost:${port}`;

      now = new Date(expires);
      expect((await browser.request(`${origin}/`)).status).toBe(200);

      now = new Date(expires + 1);
      const expired = await browser.request(`${origin}/`);
      expect(expired.status).toBe(404);
      expect(expired.text).toContain(REFUSAL);
      expect((await browser.request(`${origin}/app.js`)).status).toBe(404);
      // The expiry is signed: moving it with the old signature does not revive the link.
      const moved = location.replace(`token=${expires}.`, `token=${expires + 3600_000}.`);
      expect((await browser.request(moved)).status).toBe(404);

      // Opening the preview again gives a link that works at the new time.
      const fresh = await link();
      expect(fresh).not.toBe(location);
      expect((await browser.open(fresh)).status).toBe(200);
    } finally {
      now = undefined;
    }
  });

  it('ends every link and cookie at once when the owner revokes them, and when the owner signs out everywhere', async () => {
    const origin = `http://p-${projectId}.localhost:${port}`;
    const browser = new PreviewClient();
    const before = await link();
    expect((await browser.open(before)).status).toBe(200);
    expect((await alice.post(`/api/projects/${projectId}/preview/revoke`, {})).status).toBe(200);
    expect((await browser.request(`${origin}/`)).status).toBe(404);
    expect((await new PreviewClient().request(before)).status).toBe(404);
    // A new link works again.
    expect((await browser.open(await link())).status).toBe(200);

    const bob = new TestClient(server.url);
    await bob.post('/api/auth/register', { username: 'bob', password: 'correct-horse' });
    const bobProject = await build(bob, 'Notes');
    const bobLink = (await bob.get(`/preview/${bobProject}`)).headers.get('location')!;
    const bobBrowser = new PreviewClient();
    expect((await bobBrowser.open(bobLink)).status).toBe(200);
    const token = await bob.post('/api/auth/tokens', { username: 'bob', password: 'correct-horse', name: 'laptop' });
    expect((await bob.post('/api/account/sign-out-everywhere', {})).status).toBe(200);
    expect((await bobBrowser.request(`http://p-${bobProject}.localhost:${port}/`)).status).toBe(404);
    expect((await bob.get('/api/auth/me')).status).toBe(401);
    const api = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${(token.json as { token: string }).token}` } });
    expect(api.status).toBe(401);
    // Alice's previews are untouched.
    expect((await browser.request(`${origin}/`)).status).toBe(200);

    // Closing an account ends its previews with it.
    const carol = new TestClient(server.url);
    await carol.post('/api/auth/register', { username: 'carol', password: 'correct-horse' });
    const carolProject = await build(carol, 'Diary');
    const carolBrowser = new PreviewClient();
    expect((await carolBrowser.open((await carol.get(`/preview/${carolProject}`)).headers.get('location')!)).status).toBe(200);
    expect((await carol.request('DELETE', '/api/account')).status).toBe(200);
    expect((await carolBrowser.request(`http://p-${carolProject}.localhost:${port}/`)).status).toBe(404);
  });

  it("describes the preview for the project page and gives the CLI the preview origin's link", async () => {
    const res = await alice.get(`/api/projects/${projectId}/preview`);
    expect(res.status).toBe(200);
    const body = res.json as { url: string; origin: string; kind: string; routes: unknown[]; notice?: string };
    expect(body.origin).toBe(`http://p-${projectId}.localhost:${port}`);
    expect(body.url.startsWith(`${body.origin}/__wolfpack__/enter?token=`)).toBe(true);
    expect(body.kind).toBe('static');
    expect(body.routes).toEqual([]);
    expect(body.notice).toBeUndefined();
    expect((await new PreviewClient().open(body.url)).status).toBe(200);
    // Reached by another name than localhost, with no preview domain: the reply says what to set.
    const lan = await new PreviewClient().request(`http://192.0.2.7:${port}/api/projects/${projectId}/preview`, { headers: { cookie: alice.cookieHeader() } });
    const far = JSON.parse(lan.text) as { notice?: string };
    expect(far.notice ?? '').toContain('WOLFPACK_PREVIEW_HOST');
  });

  it('shows a clear page when the project has no index.html', async () => {
    await server.db.orm.em.getConnection().execute(`update project_files set path = 'home.html' where project_id = ? and path = 'index.html'`, [projectId]);
    await server.db.orm.em.getConnection().execute(`update projects set version = version + 1 where id = ?`, [projectId]);
    const res = await new PreviewClient().open(await link());
    expect(res.status).toBe(404);
    expect(res.text).toContain('This project has no index.html');
    await server.db.orm.em.getConnection().execute(`update project_files set path = 'index.html' where project_id = ? and path = 'home.html'`, [projectId]);
    await server.db.orm.em.getConnection().execute(`update projects set version = version + 1 where id = ?`, [projectId]);
  });
});
