import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('previews on %s', (kind) => {
  let server: TestServer;
  let alice: TestClient;
  let projectId: string;
  /** The server's time while a test holds it still; undefined: the real time. */
  let now: Date | undefined;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now ?? new Date() });
    alice = new TestClient(server.url);
    await alice.post('/api/auth/register', { username: 'alice', password: 'correct-horse' });
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: alice.cookieHeader() },
      body: JSON.stringify({ idea: 'Photo gallery' }),
    });
    const last = events.at(-1)!.event;
    projectId = last.type === 'complete' ? last.projectId : '';
  });
  afterAll(async () => {
    await server.dispose();
  });

  async function link(): Promise<string> {
    const res = await alice.get(`/preview/${projectId}`);
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  }

  it('gives the owner a signed link whose files are served sandboxed, without cookies', async () => {
    const location = await link();
    expect(location).toMatch(new RegExp(`^/preview/${projectId}/\\d+\\.[A-Za-z0-9_-]{43}/$`));
    const page = await fetch(server.url + location);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox /);
    expect(csp).toContain('allow-scripts');
    expect(csp).not.toContain('allow-same-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const files = (await alice.get(`/api/projects/${projectId}`)).json.project as { fsIndex: Record<string, string> };
    expect(await page.text()).toBe(files.fsIndex['index.html']);
    const script = await fetch(`${server.url}${location}app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe(files.fsIndex['app.js']);
    expect((await fetch(`${server.url}${location}missing.css`)).status).toBe(404);
  });

  it('refuses altered, foreign and anonymous requests', async () => {
    const location = await link();
    const tampered = location.replace(/\.([A-Za-z0-9_-])/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect((await fetch(server.url + tampered)).status).toBe(404);
    const extended = location.replace(/\/(\d+)\./, (_m, n: string) => `/${Number(n) + 1000}.`);
    expect((await fetch(server.url + extended)).status).toBe(404);
    expect((await fetch(`${server.url}${location}..%2F..%2Fapi%2Fauth%2Fme`)).status).toBe(404);
    const anonymous = await fetch(`${server.url}/preview/${projectId}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Sign in to preview');
    const mallory = new TestClient(server.url);
    await mallory.post('/api/auth/register', { username: 'mallory', password: 'correct-horse' });
    expect((await mallory.get(`/preview/${projectId}`)).status).toBe(404);
  });

  it('serves a link for six hours, up to and including the instant it expires, and refuses it from the next millisecond', async () => {
    const refusal = { success: false, error: 'This preview link is not valid or has expired. Open the preview again from Wolfpack.', code: 'NOT_FOUND' };
    const issued = Date.parse('2026-11-20T09:00:00.000Z');
    now = new Date(issued);
    try {
      const location = await link();
      const expires = Number(/\/(\d+)\./.exec(location)![1]);
      expect(expires).toBe(issued + 6 * 3600_000);
      expect((await fetch(server.url + location)).status).toBe(200);

      now = new Date(expires);
      expect((await fetch(server.url + location)).status).toBe(200);

      now = new Date(expires + 1);
      const expired = await fetch(server.url + location);
      expect(expired.status).toBe(404);
      expect(await expired.json()).toEqual(refusal);
      expect((await fetch(`${server.url}${location}app.js`)).status).toBe(404);

      // The expiry is signed: moving it past the clock with the old signature does not revive the link.
      const moved = location.replace(`/${expires}.`, `/${expires + 3600_000}.`);
      expect(moved).not.toBe(location);
      const revived = await fetch(server.url + moved);
      expect(revived.status).toBe(404);
      expect(await revived.json()).toEqual(refusal);

      // Opening the preview again gives a link that works at the new time.
      const fresh = await link();
      expect(fresh).not.toBe(location);
      expect((await fetch(server.url + fresh)).status).toBe(200);
    } finally {
      now = undefined;
    }
  });

  it('shows a clear page when the project has no index.html', async () => {
    await server.db.orm.em.getConnection().execute(`update project_files set path = 'home.html' where project_id = ? and path = 'index.html'`, [projectId]);
    const res = await fetch(server.url + (await link()));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This project has no index.html');
    await server.db.orm.em.getConnection().execute(`update project_files set path = 'index.html' where project_id = ? and path = 'home.html'`, [projectId]);
  });
});
