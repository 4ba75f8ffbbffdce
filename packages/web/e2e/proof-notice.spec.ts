/**
 * On a server that cannot run generated code, the build screen says once, above the
 * build, why verdicts will be "not proven" and the command that fixes it: not again with each run,
 * gone when dismissed until the page is loaded again. On a server with bubblewrap and Chromium it
 * says nothing. The shared e2e server runs with WOLFPACK_SANDBOX=off (harness.ts).
 */
import { enginesReply } from '@wolfpack/core';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

const sandboxed = needTool(await sandboxCheck(), 'the browser test that the build screen says nothing on a server with a sandbox');

/** The server's own sentence, as GET /api/engines gives it to the page's session. */
async function serverNotice(page: Page): Promise<string | null | undefined> {
  const res = await page.request.get('/api/engines');
  if (!res.ok()) throw new Error(`GET /api/engines: ${res.status()} ${await res.text()}`);
  return enginesReply.parse(await res.json()).proof?.notice;
}

/** Signed in on the build screen, once the engine list (and with it the server's word on Proven Code) has rendered. */
async function openBuildScreen(page: Page): Promise<void> {
  await signUpViaApi(page, uniqueUsername('proof'));
  await page.goto('/');
  await skipEnhanceTip(page);
  // The test servers run demo engines: their notice comes from the same reply.
  await page.getByTestId('demo-notice').waitFor();
}

describe('the Proven Code notice on the build screen', () => {
  const browser = useBrowser();
  let sandboxServer: TestServer | undefined;
  afterAll(async () => {
    await sandboxServer?.close();
  });

  it('without a sandbox: said once, with the fix; not again after a run; dismissed until the page loads again', async () => {
    const page = await browser.newPage();
    await openBuildScreen(page);
    const notice = page.getByTestId('proof-notice');
    expect(await notice.count()).toBe(1);
    const sentence = await serverNotice(page);
    expect(sentence).toMatch(/^Proven Code cannot run generated code on this server \(the sandbox is turned off with WOLFPACK_SANDBOX=off.*\), so verdicts are "not proven"\. Fix: .+$/);
    expect(await page.getByTestId('proof-notice-text').textContent()).toBe(sentence);
    expect(await notice.locator('code').textContent()).toMatch(/restart the server without WOLFPACK_SANDBOX=off$/);
    await saveShot(page, 'proof-notice');

    // A run ends "not proven" (the banner says so); the notice is not repeated for it.
    await page.getByTestId('prompt-input').fill('A unit converter');
    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('success-banner').getAttribute('data-verdict')).toBe('unproven');
    expect(await notice.count()).toBe(1);
    expect(await page.getByText('Proven Code cannot run generated code').count()).toBe(1);

    await page.getByRole('button', { name: 'Dismiss the Proven Code notice' }).click();
    await notice.waitFor({ state: 'detached' });
    // Another screen and back: still dismissed.
    await page.getByTestId('link-how-it-works').click();
    await page.waitForURL((url) => url.pathname === '/how-it-works');
    await page.goBack();
    await page.getByTestId('demo-notice').waitFor();
    expect(await notice.count()).toBe(0);
    // A new page load says it again: nothing changed on the server.
    await page.reload();
    await page.getByTestId('demo-notice').waitFor();
    expect(await notice.count()).toBe(1);
  });

  it.skipIf(!sandboxed)('with bubblewrap and Chromium: nothing is said', async () => {
    sandboxServer = await startTestServer({ env: { WOLFPACK_SANDBOX: 'on' } });
    const page = await browser.newPage({ baseUrl: sandboxServer.url });
    await openBuildScreen(page);
    const res = await page.request.get('/api/engines');
    const { proof } = enginesReply.parse(await res.json());
    expect(proof).toMatchObject({ sandbox: true });
    // The page check's Chromium is the one these tests drive: npm test installs it.
    expect(proof).toEqual({ sandbox: true, browser: true, notice: null });
    expect(await page.getByTestId('proof-notice').count()).toBe(0);
  });
});
