/**
 * The preview of a generated project is untrusted code: in a real browser, a script in it must
 * not read Wolfpack's cookies or storage, nor call Wolfpack's API with the user's session.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir, uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, signUpViaApi } from './helpers';
import { ISOLATION_PROBE } from './preview-probe';

const HOSTILE_PAGE = `<!doctype html>
<html><body><pre id="out">running</pre><script>
(async () => {
${ISOLATION_PROBE}
  document.getElementById('out').textContent = JSON.stringify(out);
})();
</script></body></html>`;

describe('Preview isolation', () => {
  const browser = useBrowser();
  let server: { url: string; db: { orm: { em: { getConnection(): { execute(sql: string, params?: unknown[]): Promise<unknown> } } } }; close(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    const { startServer } = await import('@wolfpack/server');
    dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-preview-'));
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDir: distDir, quiet: true, env: {} });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps a generated script away from the user's cookies, storage and API", async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('preview');
    await signUpViaApi(page, username);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('wolfpack-secret', 'keep-out'));
    const projectId = await buildProjectViaApi(page, 'A page with a script');
    await server.db.orm.em
      .getConnection()
      .execute(`update project_files set content = ?, size = ? where project_id = ? and path = 'index.html'`, [HOSTILE_PAGE, HOSTILE_PAGE.length, projectId]);

    await page.goto(`/preview/${projectId}`);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/preview/${projectId}/\\d+\\.[A-Za-z0-9_-]+/$`));
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'running');
    const out = JSON.parse((await page.locator('#out').textContent())!) as { origin: string; cookie: string; storage: string; me: string; logout: string };
    expect(out.origin).toBe('null');
    expect(out.cookie).toBe('blocked:SecurityError');
    expect(out.storage).toBe('blocked:SecurityError');
    expect(out.me).not.toContain(username);
    expect(out.me === 'blocked:TypeError' || out.me.startsWith('status:401')).toBe(true);
    expect(out.logout === 'blocked:TypeError' || out.logout === 'status:403').toBe(true);

    // The user is still signed in: the forged logout did nothing.
    const me = await page.request.get(`${server.url}/api/auth/me`);
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe(username);
  });
});
