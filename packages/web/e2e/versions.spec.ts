/**
 * The Versions tab in a real browser: a project built, then continued into a version that breaks
 * its page; the list says what made each version, the diff shows the broken line in CodeMirror,
 * Restore (asked first) brings version 1's files back as version 3, the Files tab and the preview
 * show them again, and a restore on a project that moved on meanwhile is refused with the
 * server's sentence and a Reload.
 *
 * The engine is a local OpenAI-compatible fake answering like the demo engines, except that while
 * `mode.broken` is set every index.html it writes has a heading no one wants.
 */
import { versionsReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer, type RecordedRequest } from '@wolfpack/core/engines/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { openToast, saveShot, signUpViaApi, waitForToast } from './helpers';

const IDEA = 'A habit tracker with daily streaks';
const BROKEN = 'BROKEN HEADING v2';
const messagesOf = (request: RecordedRequest) => (request.body as { messages: ChatMessage[] }).messages;

/** Runs a build (or, with `projectId`, a continue) through the API and waits for its end. */
async function runViaApi(page: Page, idea: string, projectId?: string): Promise<string> {
  const res = await page.request.post('/api/wolfpack/stream', {
    data: { idea, modelOrder: [], cycles: 1, ...(projectId ? { projectId } : {}) },
    timeout: 90_000,
  });
  if (!res.ok()) throw new Error(`run: ${res.status()} ${await res.text()}`);
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6)) as { type: string; projectId?: string; error?: string };
    if (event.type === 'complete' && event.projectId) return event.projectId;
    if (event.type === 'error') throw new Error(`run failed: ${event.error}`);
  }
  throw new Error('The run ended without a complete event.');
}

async function versionsOf(page: Page, projectId: string) {
  return versionsReply.parse(await (await page.request.get(`/api/projects/${projectId}/versions`)).json());
}

/** Waits that cover a page load or CodeMirror's first download on a loaded machine. */
const SLOW = 90_000;

const row = (page: Page, n: number) => page.locator(`[data-testid="version-row"][data-version="${n}"]`);
/** The choice of a version goes through the address, so the detail follows a click after a render: wait for it. */
const detailShows = (page: Page, n: number) => page.locator(`[data-testid="version-detail"][data-version="${n}"]`).waitFor({ timeout: SLOW });

describe('Versions tab', () => {
  const browser = useBrowser();
  const mode = { broken: false };
  let engine: OpenAIFakeServer;
  let server: TestServer;

  beforeAll(async () => {
    engine = await startFakeOpenAIServer({
      fallback: (request) => {
        let text = demoReply(messagesOf(request));
        if (mode.broken) text = text.replaceAll('<h1>', `<h1>${BROKEN} `);
        return { kind: 'stream', deltas: [text] };
      },
    });
    server = await startTestServer({
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  /** A project at version 2, whose index.html heading the continue broke. */
  async function brokenProject(page: Page): Promise<string> {
    await signUpViaApi(page, uniqueUsername('versions'));
    mode.broken = false;
    const projectId = await runViaApi(page, IDEA);
    mode.broken = true;
    try {
      await runViaApi(page, 'Make the heading louder', projectId);
    } finally {
      mode.broken = false;
    }
    return projectId;
  }

  it('shows what version 2 changed, restores version 1 as version 3, and the files and preview are version 1’s again', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const projectId = await brokenProject(page);
    const before = await versionsOf(page, projectId);
    expect(before.current).toBe(2);

    await page.goto(`/projects/${projectId}?tab=versions`);
    await row(page, 2).waitFor({ timeout: SLOW });
    expect(await page.getByTestId('version-number').allTextContents()).toEqual(['Version 2', 'Version 1']);
    expect(await page.getByTestId('version-label').allTextContents()).toEqual(['Continue: Make the heading louder', 'Build']);
    expect(await row(page, 2).getByTestId('version-current').textContent()).toBe('Current');
    expect(await row(page, 1).getByTestId('version-current').count()).toBe(0);
    expect(await row(page, 1).getByTestId('version-counts').textContent()).toMatch(/^\+\d+ ~0 \u22120$/);
    expect(await row(page, 2).getByTestId('version-counts').textContent()).toMatch(/^\+0 ~[1-9]\d* \u22120$/);
    for (const n of [1, 2]) expect(await row(page, n).getByTestId('version-verdict').textContent()).toMatch(/^(Passed|Failed|Not proven|Not checked)$/);

    // The current version opens first: its change against version 1, the broken heading visible in CodeMirror.
    const detail = page.getByTestId('version-detail');
    expect(await detail.getAttribute('data-version')).toBe('2');
    expect(await detail.getByTestId('version-restore').count()).toBe(0);
    const indexDiff = page.locator('[data-testid="version-diff-file"][data-path="index.html"]');
    await indexDiff.waitFor({ timeout: SLOW });
    expect(await indexDiff.getAttribute('data-status')).toBe('changed');
    expect(await page.getByTestId('version-diff-heading').textContent()).toBe('Version 2 against version 1');
    const inserted = indexDiff.locator('.cm-changedLine', { hasText: BROKEN });
    await inserted.first().waitFor({ timeout: SLOW });
    // What it replaced is shown deleted above it, as text.
    const replaced = indexDiff.locator('.cm-deletedChunk', { hasText: '<h1>' }).first();
    expect(await replaced.textContent()).not.toContain(BROKEN);
    await saveShot(page, 'versions-diff');

    // Version 1 against the current files: what a restore would undo.
    await row(page, 1).click({ timeout: SLOW });
    await detailShows(page, 1);
    await page.getByTestId('compare-current').click();
    await page.locator('[data-testid="version-diff"][data-from="2"][data-to="1"]').waitFor({ timeout: SLOW });
    await indexDiff.locator('.cm-deletedChunk', { hasText: BROKEN }).first().waitFor({ timeout: SLOW });
    expect(await page.getByTestId('version-preview').getAttribute('href')).toBe(`/preview/${projectId}?version=1`);
    // The address keeps the choice: a reload shows the same comparison.
    expect(new URL(page.url()).searchParams.get('version')).toBe('1');
    await page.reload();
    await page.locator('[data-testid="version-diff"][data-from="2"][data-to="1"]').waitFor({ timeout: SLOW });
    expect(await page.getByTestId('compare-current').getAttribute('aria-pressed')).toBe('true');

    // Restore asks first; Cancel changes nothing.
    await page.getByTestId('version-restore').click();
    const dialog = page.getByTestId('restore-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Restore version 1?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await versionsOf(page, projectId)).current).toBe(2);

    await page.getByTestId('version-restore').click();
    await dialog.getByTestId('confirm-delete').click();
    const toast = await waitForToast(page, 'Restored version 1 as version 3');
    expect(toast.title).toBe('Version restored');
    await row(page, 3).waitFor({ timeout: SLOW });
    expect(await row(page, 3).getByTestId('version-label').textContent()).toBe('Restored from version 1');
    expect(await row(page, 3).getByTestId('version-current').textContent()).toBe('Current');
    expect(await row(page, 2).getByTestId('version-current').count()).toBe(0);
    // The new version is shown: what the restore changed.
    await detailShows(page, 3);
    await page.locator('[data-testid="version-diff"][data-from="2"][data-to="3"]').waitFor({ timeout: SLOW });
    await saveShot(page, 'versions-restored');

    // The Files tab shows version 1's page again (the project was read again, no reload).
    await page.getByTestId('tab-files').click();
    const files = page.getByRole('tabpanel');
    await files.getByText('index.html').first().click({ timeout: SLOW });
    await files.getByText('<h1>', { exact: false }).first().waitFor({ timeout: SLOW });
    expect(await files.textContent()).not.toContain(BROKEN);

    // The preview of version 3 (and of version 1) is the restored page, and version 2's is still the broken one.
    for (const [n, broken] of [[3, false], [1, false], [2, true]] as const) {
      await page.goto(`/preview/${projectId}?version=${n}`);
      const heading = await page.locator('h1').first().textContent();
      expect(heading?.includes(BROKEN), `version ${n}'s heading: ${heading}`).toBe(broken);
    }
  }, 400_000);

  it('opens the preview of the selected version in a new tab; the diff follows the dark theme, and reads as a patch without its viewer', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const projectId = await brokenProject(page);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto(`/projects/${projectId}?tab=versions`);
    const editor = page.locator('[data-testid="version-diff-file"][data-path="index.html"] .cm-editor');
    await editor.waitFor({ timeout: SLOW });
    // One Dark's background, not CodeMirror's light default.
    expect(await editor.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(40, 44, 52)');
    await saveShot(page, 'versions-dark');

    await row(page, 1).click({ timeout: SLOW });
    await detailShows(page, 1);
    const [tab] = await Promise.all([page.context().waitForEvent('page', { timeout: SLOW }), page.getByTestId('version-preview').click()]);
    await tab!.waitForLoadState('load');
    expect(new URL(tab!.url()).hostname).toBe(`p-${projectId}.localhost`);
    expect(await tab!.locator('h1').first().textContent()).not.toContain(BROKEN);

    // The viewer's code cannot be downloaded (a deploy replaced it): the server's patch stands in, as text.
    const offline = await browser.newPage({ baseUrl: server.url });
    await offline.context().addCookies(await page.context().cookies());
    await offline.route(/\/assets\/file-diff-view-[^/]+\.js$/, (route) => route.abort());
    await offline.goto(`/projects/${projectId}?tab=versions`);
    const patch = offline.locator('[data-testid="version-diff-file"][data-path="index.html"] [data-testid="version-diff-patch"]');
    await patch.waitFor({ timeout: SLOW });
    const text = (await patch.locator('pre').textContent()) ?? '';
    expect(text).toContain('--- a/index.html');
    expect(text).toContain(`+`);
    expect(text).toContain(BROKEN);
    expect(await patch.locator('pre *').count()).toBe(0);
  }, 400_000);

  it('refuses a restore on a project that moved on, with the server’s sentence and a Reload that shows the newer version', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const projectId = await brokenProject(page);
    await page.goto(`/projects/${projectId}?tab=versions`);
    await row(page, 1).click({ timeout: SLOW });
    await detailShows(page, 1);

    // Another tab restores meanwhile: the project is at version 3 while this page still thinks 2.
    const other = await page.request.post(`/api/projects/${projectId}/versions/1/restore`, { data: { expectedVersion: 2 } });
    expect(other.status()).toBe(201);

    await page.getByTestId('version-restore').click();
    await page.getByTestId('restore-dialog').getByTestId('confirm-delete').click();
    const refused = openToast(page).filter({ hasText: 'Restore failed' });
    await refused.waitFor();
    expect(await refused.getAttribute('data-variant')).toBe('destructive');
    const sentence = (await refused.getByTestId('toast-description').textContent()) ?? '';
    expect(sentence.length).toBeGreaterThan(0);
    expect(sentence).not.toMatch(/^\d{3}:/);
    expect((await versionsOf(page, projectId)).current).toBe(3);
    await saveShot(page, 'versions-conflict');

    await refused.getByRole('button', { name: 'Reload' }).click();
    await row(page, 3).waitFor({ timeout: SLOW });
    expect(await row(page, 3).getByTestId('version-current').textContent()).toBe('Current');
  }, 400_000);

  it('lists nothing of another user’s project', async () => {
    const owner = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(owner, uniqueUsername('owner'));
    const projectId = await runViaApi(owner, IDEA);
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('stranger'));
    await page.goto(`/projects/${projectId}?tab=versions`);
    await page.getByTestId('project-not-found').waitFor();
    expect(await page.getByTestId('version-row').count()).toBe(0);
  }, 300_000);
});
