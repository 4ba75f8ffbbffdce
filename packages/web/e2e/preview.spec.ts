/**
 * "Open Preview" of a static site, in a real browser: the project runs at the root of an origin
 * of its own (p-<id>.localhost), where its storage works as on its own domain, and nothing of
 * Wolfpack's is in reach: not its cookies, its storage, its API with the user's session, nor
 * another project's storage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, signUpViaApi } from './helpers';
import { probeIsolation } from './preview-probe';

describe('Preview on its own origin', () => {
  const browser = useBrowser();
  let server: TestServer;
  let port: string;

  beforeAll(async () => {
    server = await startTestServer();
    port = new URL(server.url).port;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("previews a new user's first demo build working: what is added stays after a reload", async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('preview'));
    const projectId = await buildProjectViaApi(page, 'A habit tracker');

    // "Open Preview" on the project page opens the preview in a new tab.
    await page.goto(`/projects/${projectId}`);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('open-preview').click()]);
    await tab!.waitForLoadState('load');
    expect(new URL(tab!.url()).origin).toBe(`http://p-${projectId}.localhost:${port}`);
    expect(new URL(tab!.url()).pathname).toBe('/');

    await tab!.locator('#new-item').fill('Drink water');
    await tab!.locator('#add-form button[type="submit"]').click();
    await tab!.locator('#items li', { hasText: 'Drink water' }).waitFor();
    await tab!.reload();
    await tab!.locator('#items li', { hasText: 'Drink water' }).waitFor();
    expect(await tab!.locator('#empty').isHidden()).toBe(true);
  });

  it("keeps the preview's scripts away from Wolfpack's cookies, storage and API, and from another project's storage", async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('isolated');
    await signUpViaApi(page, username);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('wolfpack-secret', 'keep-out'));
    const first = await buildProjectViaApi(page, 'A page with a script');
    const second = await buildProjectViaApi(page, 'Another page');

    await page.goto(`/preview/${first}`);
    expect(new URL(page.url()).origin).toBe(`http://p-${first}.localhost:${port}`);
    const out = await probeIsolation(page, server.url);
    expect(out.origin).toBe(`http://p-${first}.localhost:${port}`);
    // Its own cookies only: the preview's access cookie is HttpOnly, Wolfpack's session is another site's.
    expect(out.cookie).toBe('read:');
    expect(out.storage).toBe('read:["probe"]');
    expect(out.me).toBe('blocked:TypeError');
    expect(out.logout).toBe('blocked:TypeError');
    await page.evaluate(() => localStorage.setItem('first-only', 'yes'));

    // Another project's preview has storage of its own.
    await page.goto(`/preview/${second}`);
    expect(new URL(page.url()).origin).toBe(`http://p-${second}.localhost:${port}`);
    expect(await page.evaluate(() => [localStorage.getItem('first-only'), localStorage.getItem('probe'), localStorage.getItem('wolfpack-secret')])).toEqual([null, null, null]);

    // No cookie tossed from the preview reached Wolfpack's host, and the forged logout did nothing.
    const names = (await page.context().cookies(server.url)).map((c) => c.name).sort();
    expect(names).toEqual(['wolfpack.sid', 'wolfpack.sid.sig']);
    const me = await page.request.get(`${server.url}/api/auth/me`);
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe(username);
    // And Wolfpack's own storage is as it was.
    await page.goto('/');
    expect(await page.evaluate(() => [localStorage.getItem('wolfpack-secret'), localStorage.getItem('probe')])).toEqual(['keep-out', null]);
  });

  it('ends an open preview when its links are revoked on the project page', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('revoke'));
    const projectId = await buildProjectViaApi(page, 'A recipe box');
    await page.goto(`/preview/${projectId}`);
    await page.locator('#new-item').waitFor();

    const owner = await page.context().newPage();
    await owner.goto(`${server.url}/projects/${projectId}`);
    await owner.getByTestId('revoke-preview-links').click();
    await owner.getByText('Preview links revoked').first().waitFor();

    await page.reload();
    expect(await page.locator('h1').textContent()).toBe('No preview');
    expect(await page.locator('body').innerText()).toContain('This preview link is not valid or has expired. Open the preview again from Wolfpack.');
    // Opening it again from Wolfpack lets the owner back in.
    await page.goto(`${server.url}/preview/${projectId}`);
    await page.locator('#new-item').waitFor();
  });
});
