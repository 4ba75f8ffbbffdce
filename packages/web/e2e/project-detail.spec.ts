/**
 * Project detail (/projects/{id}, spec core §2): the files as text with a per-file Copy, the Prompt
 * Evolution of an enhanced idea, the actions, and what a missing or someone else's project shows.
 * Runs on the shared server, whose demo engines enhance and build offline.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, pathOf, renderedAfterClockMove, saveShot, signUpViaApi, skipEnhanceTip, waitForToast } from './helpers';

const IDEA = 'A reading list that tracks books, notes and finished dates';

async function openSignedIn(page: Page, path = '/'): Promise<string> {
  const username = uniqueUsername('detail');
  await signUpViaApi(page, username);
  await page.goto(path);
  await skipEnhanceTip(page);
  return username;
}

describe('Project detail', () => {
  const browser = useBrowser();

  it('enhances, builds, and shows the files as text and the prompt evolution', async () => {
    const page = await browser.newPage();
    // The page's clock is Playwright's: it runs as usual until the Copy check stops it.
    await page.clock.install();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page);
    const prompt = page.getByTestId('prompt-input');
    await prompt.fill(IDEA);
    await page.getByTestId('enhance-button').click();
    await page.locator('[data-testid="enhance-status"][data-outcome="enhanced"]').waitFor({ timeout: 30_000 });
    const enhanced = await prompt.inputValue();
    expect(enhanced).toContain(IDEA);

    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    const projectId = await page.evaluate(() => localStorage.getItem('completedProjectId'));
    expect(projectId).toBeTruthy();
    await page.getByRole('button', { name: 'View Files' }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}`);

    // Title: the idea's first line as the heading, the rest of the idea below, the created date.
    await page.getByTestId('project-detail').waitFor();
    const [firstLine, ...rest] = enhanced.trim().split('\n');
    expect(await page.getByTestId('project-title').textContent()).toBe(firstLine);
    expect(await page.getByTestId('project-idea').textContent()).toBe(rest.join('\n').trim());
    expect(await page.getByTestId('project-created').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);

    // Files: every path listed, README opened first.
    const paths = await page.getByTestId('file-item').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));
    expect([...paths].sort()).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    await page.getByTestId('viewer-path').filter({ hasText: 'README.md' }).waitFor();
    await saveShot(page, 'project-detail-files', { fullPage: true });

    // An HTML file is shown as its text: the markup is visible, none of it is rendered.
    await page.locator('[data-testid="file-item"][data-path="index.html"]').click();
    await page.getByTestId('viewer-path').filter({ hasText: 'index.html' }).waitFor();
    expect(new URL(page.url()).searchParams.get('file')).toBe('index.html');
    // The file opens in the editor (CodeMirror), as text: the markup is visible, none of it is rendered.
    const content = page.locator('[data-testid="code-editor"][data-path="index.html"] .cm-content');
    await content.waitFor();
    const shown = (await page.locator('[data-testid="code-editor"] .cm-line').allTextContents()).join('\n');
    expect(shown.startsWith('<!doctype html>')).toBe(true);
    expect(shown).toContain('<script src="app.js"></script>');
    expect(await page.getByText('<!doctype html>').first().isVisible()).toBe(true);
    expect(await content.locator('script, main, form, link').count()).toBe(0);
    await saveShot(page, 'project-detail-html');

    // Copy: the file lands on the clipboard; 'Copied' shows for 2 s, counted on the page's clock,
    // which stands still here and moves only when the test moves it: exact whatever the load.
    const copy = page.getByTestId('copy-file');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await copy.click();
    // Writing to the clipboard is asynchronous: the indicator appears once it succeeded.
    await page.locator('[data-testid="copy-file"][data-state="copied"]').waitFor();
    expect(await copy.textContent()).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await saveShot(page, 'project-detail-copied');
    // Still shown 1 ms before its 2 s are up; gone once they are.
    await page.clock.runFor(1999);
    await renderedAfterClockMove(page);
    expect(await copy.getAttribute('data-state')).toBe('copied');
    await page.clock.runFor(1);
    await page.locator('[data-testid="copy-file"][data-state="idle"]').waitFor();
    expect(await copy.textContent()).toContain('Copy');
    await page.clock.resume();

    // Prompt Evolution: the original idea, 2 cycles of 4 engines, the final prompt.
    await page.getByTestId('tab-prompt-evolution').click();
    await page.getByTestId('prompt-evolution').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('prompt-evolution');
    expect((await page.getByTestId('evolution-original').locator('p').last().textContent())?.trim()).toBe(IDEA);
    const passes = page.getByTestId('evolution-pass');
    expect(await passes.count()).toBe(2);
    for (const index of [0, 1]) {
      expect(await passes.nth(index).locator('h3').textContent()).toBe(`Cycle ${index + 1}`);
      expect(await passes.nth(index).getByTestId('evolution-step').count()).toBe(4);
      const orders = await passes.nth(index).getByTestId('evolution-step').evaluateAll((els) => els.map((el) => el.getAttribute('data-engine-order')));
      expect(orders).toEqual(['1', '2', '3', '4']);
    }
    const durations = await page.getByTestId('evolution-step-duration').allTextContents();
    expect(durations).toHaveLength(8);
    for (const text of durations) expect(text.trim()).toMatch(/^\d+\.\ds$/);

    const firstStep = page.getByTestId('evolution-step').first();
    const toggle = firstStep.getByTestId('evolution-step-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await firstStep.getByTestId('evolution-step-detail').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await firstStep.getByTestId('step-input').textContent()).toContain(IDEA);
    expect(((await firstStep.getByTestId('step-output').textContent()) ?? '').trim().length).toBeGreaterThan(0);
    const secondPassStep = passes.nth(1).getByTestId('evolution-step').first();
    await secondPassStep.getByTestId('evolution-step-toggle').click();
    expect(await secondPassStep.getByTestId('step-input').textContent()).toContain('Proposals from the previous pass');

    const final = page.getByTestId('evolution-final');
    expect((await final.locator('p').last().textContent())?.trim()).toBe(enhanced.trim());
    await saveShot(page, 'project-detail-evolution', { fullPage: true });
    await toggle.click();
    expect(await firstStep.getByTestId('evolution-step-detail').count()).toBe(0);

    // Copy/Paste to Replit opens the publish dialog, whose Copy code puts the consolidated code on the clipboard.
    await page.getByTestId('copy-replit').click();
    await page.getByTestId('publish-dialog').waitFor();
    await page.getByTestId('publish-copy-code').click();
    expect((await waitForToast(page, 'The project code is on your clipboard. Paste it into Replit.')).title).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('FILE: index.html');
    // Copying instead of publishing closes the dialog.
    await page.getByTestId('publish-dialog').waitFor({ state: 'detached' });

    // Continue: back to the build screen with the idea and the continue-project id.
    await page.getByTestId('continue-project').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await waitForToast(page, 'Describe what to add or change; the next run builds on this project.')).title).toBe(
      'Continue Mode Enabled',
    );
    expect(await page.getByTestId('prompt-input').inputValue()).toBe(enhanced);
    expect(await page.evaluate(() => localStorage.getItem('continueProjectId'))).toBe(projectId);
    await page.getByTestId('continue-mode').waitFor();
    // The idea was handed over once: a reload does not bring it back.
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
  });

  it('downloads the ZIP as project-{8 characters}.zip, and says when the export fails', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const projectId = await buildProjectViaApi(page, 'A tiny pomodoro timer');
    await page.goto(`/projects/${projectId}`);
    await page.getByTestId('project-detail').waitFor();

    // The server's archive, saved under the spec's name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-zip').click()]);
    expect(download.suggestedFilename()).toBe(`project-${projectId.slice(0, 8)}.zip`);
    // The browser is the run's shared one, reached over a connection: the file is copied here.
    const saved = join(await mkdtemp(join(tmpdir(), 'wolfpack-download-')), download.suggestedFilename());
    await download.saveAs(saved);
    const bytes = await readFile(saved);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    for (const name of ['index.html', 'app.js', 'styles.css', 'README.md']) expect(bytes.includes(Buffer.from(name))).toBe(true);

    // When the export fails, the page says so.
    await page.route(`**/api/projects/${projectId}/export`, (route) =>
      route.fulfill({ status: 500, json: { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' } }),
    );
    await page.getByTestId('download-zip').click();
    const toast = await waitForToast(page, 'Export failed');
    expect(toast).toMatchObject({ title: 'Download Failed', variant: 'destructive' });
    await page.unroute(`**/api/projects/${projectId}/export`);

    // The viewer in dark mode, for the pictures.
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto(`/projects/${projectId}?file=app.js`);
    await page.getByTestId('viewer-path').filter({ hasText: 'app.js' }).waitFor();
    await saveShot(page, 'project-detail-dark');
  });

  it('opens a file above 200 KB in the editor, which draws only the lines in view', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const projectId = await buildProjectViaApi(page, 'A big data dump');
    // One very large generated file, added to the real reply.
    const big = `${'<div class="row">&lt;tr&gt; not markup</div>\n'.repeat(12_000)}`;
    await page.route(`**/api/projects/${projectId}`, async (route) => {
      const res = await route.fetch();
      const reply = (await res.json()) as { project: { fsIndex: Record<string, string> }; files: string[] };
      reply.project.fsIndex['data/big.html'] = big;
      reply.files = [...reply.files, 'data/big.html'].sort();
      await route.fulfill({ response: res, json: reply });
    });
    await page.goto(`/projects/${projectId}`);
    await page.getByTestId('folder-item').filter({ hasText: 'data' }).waitFor();
    await page.locator('[data-testid="file-item"][data-path="data/big.html"]').click();
    const content = page.locator('[data-testid="code-editor"][data-path="data/big.html"] .cm-content');
    await content.waitFor();
    // What keeps a huge file from freezing the page: only the lines in view are in the page,
    // checked by what was rendered rather than by how long it took. Its markup stays text.
    expect(await content.locator('.cm-line').count()).toBeLessThan(500);
    expect(await content.locator('div.row').count()).toBe(0);
    expect(await page.getByTestId('file-read-only').count()).toBe(0);
    await saveShot(page, 'project-detail-large-file');
  });

  it('says AI Enhance was not used for a project just built without it (not that it predates the feature)', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const projectId = await buildProjectViaApi(page, 'A plain shopping list');
    await page.goto(`/projects/${projectId}?tab=prompt-evolution`);
    const message = page.getByTestId('evolution-not-enhanced');
    await message.waitFor();
    expect(await message.textContent()).toBe('AI Enhance was not used for this project.');
    expect(await page.getByTestId('evolution-none').textContent()).not.toContain('predates');
    expect(await page.getByTestId('project-title').textContent()).toBe('A plain shopping list');
    // A one-line idea is only the heading.
    expect(await page.getByTestId('project-idea').count()).toBe(0);
    await saveShot(page, 'project-detail-not-enhanced');
  });

  it("shows 'Project not found' with a link home for an unknown id", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, `/projects/${randomUUID()}`);
    await page.getByRole('heading', { name: 'Project not found' }).waitFor();
    await saveShot(page, 'project-detail-not-found');
    await page.getByRole('link', { name: 'Go home' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/projects/not-a-uuid');
    await page.getByRole('heading', { name: 'Project not found' }).waitFor();
  });

  it("does not show one user's project to another", async () => {
    const owner = await browser.newPage();
    await openSignedIn(owner);
    const projectId = await buildProjectViaApi(owner, 'A private diary');
    await owner.goto(`/projects/${projectId}`);
    await owner.getByTestId('project-title').filter({ hasText: 'A private diary' }).waitFor();

    // A second user in a browser context of their own.
    const intruder = await browser.newPage();
    await openSignedIn(intruder, `/projects/${projectId}`);
    await intruder.getByRole('heading', { name: 'Project not found' }).waitFor();
    expect(await intruder.getByText('A private diary').count()).toBe(0);
    expect((await intruder.request.get(`/api/projects/${projectId}/prompt-history`)).status()).toBe(404);
    expect(pathOf(intruder)).toBe(`/projects/${projectId}`);

    // A visitor is asked to sign in.
    const visitor = await browser.newPage();
    await visitor.goto(`/projects/${projectId}`);
    await visitor.getByRole('heading', { name: 'Sign in to see this project' }).waitFor();
  });
});
