/**
 * Proven Code on screen: a project built through the build screen carries its
 * verification record; the project page's Proven Code tab shows it, check by check, and Re-check
 * runs every check again on the server and shows the new record. The shared e2e server runs with
 * the sandbox off (WOLFPACK_SANDBOX=off, see harness.ts: a page check takes seconds), so the
 * record here is honestly "Not proven"; the spec accepts a sandboxed "Passed" too. The sandboxed
 * path through the server is proven by packages/server's proven-code.int.test.ts.
 */
import { verificationReply, type VerificationRecord } from '@wolfpack/core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

const IDEA = 'A pomodoro timer with a task list';

async function buildThroughHome(page: Page): Promise<string> {
  await signUpViaApi(page, uniqueUsername('proven'));
  await page.goto('/');
  await skipEnhanceTip(page);
  await page.getByTestId('prompt-input').fill(IDEA);
  await page.getByTestId('start-button').click();
  await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
  const projectId = await page.evaluate(() => localStorage.getItem('completedProjectId'));
  if (!projectId) throw new Error('The run completed without a project id.');
  return projectId;
}

/** The record the server keeps, read with the page's session. */
async function storedRecord(page: Page, projectId: string): Promise<VerificationRecord | null> {
  const res = await page.request.get(`/api/projects/${projectId}/verification`);
  if (!res.ok()) throw new Error(`GET verification: ${res.status()} ${await res.text()}`);
  return verificationReply.parse(await res.json()).verification;
}

const VERDICT_LABEL = { passed: 'Passed', failed: 'Failed', unproven: 'Not proven' } as const;

describe('Proven Code', () => {
  const browser = useBrowser();

  it('builds, shows the record in the Proven Code tab, and re-checks it', async () => {
    const page = await browser.newPage();
    const projectId = await buildThroughHome(page);
    const record = await storedRecord(page, projectId);
    expect(record).not.toBeNull();
    const built = record!;

    // The banner tells the same verdict the project keeps; only passed reads "ready" with a tick.
    const banner = page.getByTestId('success-banner');
    expect(await banner.getAttribute('data-verdict')).toBe(built.verdict);
    const title = (await page.getByTestId('success-title').textContent()) ?? '';
    if (built.verdict === 'passed') expect(title).toBe('Your project is ready');
    else expect(title).not.toBe('Your project is ready');
    await saveShot(page, 'proven-code-banner');

    await page.getByRole('button', { name: 'View Files' }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}`);
    await page.getByTestId('tab-proven-code').click();
    const panel = page.getByTestId('proven-code');
    await panel.waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('proven-code');
    expect(await panel.getAttribute('data-verdict')).toBe(built.verdict);
    expect(await page.getByTestId('proven-verdict').textContent()).toBe(VERDICT_LABEL[built.verdict]);
    expect(await page.getByTestId('proven-sentence').textContent()).toBe(built.proven);
    expect(await page.getByTestId('proven-check').count()).toBe(built.checks.length);
    expect(await page.getByTestId('check-name').allTextContents()).toEqual(built.checks.map((c) => c.check));
    expect(await page.getByTestId('check-status').allTextContents()).toEqual(
      built.checks.map((c) => ({ passed: 'Passed', failed: 'Failed', skipped: 'Skipped' })[c.status]),
    );
    // A static demo page: where the sandbox works its page load really ran; elsewhere it says why not.
    const pageLoad = built.checks.find((c) => c.check === 'page-load');
    expect(pageLoad).toBeDefined();
    if (built.executed) {
      expect(built.verdict).toBe('passed');
      expect(pageLoad!.status).toBe('passed');
    } else {
      expect(built.verdict).toBe('unproven');
      expect(await page.getByTestId('not-proven-sentence').textContent()).toContain('not executed');
    }

    // The files a check covered unfold on demand.
    const firstFiles = page.getByTestId('check-files').first();
    expect(await firstFiles.getByTestId('check-file').first().isVisible()).toBe(false);
    await firstFiles.locator('summary').click();
    expect(await firstFiles.getByTestId('check-file').first().isVisible()).toBe(true);
    await saveShot(page, 'proven-code-tab', { fullPage: true });

    // Re-check: the button says it is working until the server answers with a new record. The
    // request is held until the page has been seen waiting, however fast the server is.
    const before = await page.getByTestId('proven-checked-at').locator('time').getAttribute('datetime');
    let release = () => {};
    const seenWaiting = new Promise<void>((resolve) => (release = resolve));
    const recheckUrl = `**/api/projects/${projectId}/verification`;
    await page.route(recheckUrl, async (route) => {
      if (route.request().method() === 'POST') await seenWaiting;
      await route.continue();
    });
    const answered = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === `/api/projects/${projectId}/verification`,
      { timeout: 45_000 },
    );
    await page.getByTestId('recheck-button').click();
    await page.getByTestId('recheck-progress').waitFor();
    expect(await page.getByTestId('recheck-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('recheck-button').textContent()).toBe('Re-checking…');
    await saveShot(page, 'proven-code-rechecking');
    release();
    const response = await answered;
    expect(response.status(), await response.text()).toBe(200);
    const reply = verificationReply.parse(await response.json()).verification!;
    await page.unroute(recheckUrl);
    expect(reply.createdAt).not.toBe(before);

    await page.getByTestId('recheck-progress').waitFor({ state: 'detached' });
    expect(await page.getByTestId('recheck-button').textContent()).toBe('Re-check');
    expect(await page.getByTestId('proven-checked-at').locator('time').getAttribute('datetime')).toBe(reply.createdAt);
    expect(await panel.getAttribute('data-verdict')).toBe(reply.verdict);
    expect(await page.getByTestId('proven-sentence').textContent()).toBe(reply.proven);
    // The same files, checked the same way, reach the same verdict; and the server kept the new record.
    expect(reply.verdict).toBe(built.verdict);
    expect((await storedRecord(page, projectId))?.createdAt).toBe(reply.createdAt);
  });

  it('a failed gate: the banner says what failed, and Keep as is keeps the project without calling it ready', async () => {
    const page = await browser.newPage();
    // The demo engines write correct projects, so this run's `complete` event is rewritten on its
    // way to the page to carry a failed gate: everything else (server, run, project) is real.
    await page.route('**/api/wolfpack/stream', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/^data: (\{"type":"complete".*)$/m, (_line, json: string) => {
        const event = JSON.parse(json) as Record<string, unknown>;
        const problems = [
          { path: 'app.js', check: 'start', message: 'TypeError: <b>tasks</b> is undefined' },
          { path: 'index.html', check: 'page-load', message: 'Failed to load styles.css' },
        ];
        const verification = { passed: false, checkedFiles: 3, problems, verdict: 'failed', proven: '3 files checked (syntax).', notProven: 'start failed: 1 problem; page-load failed: 1 problem.' };
        return `data: ${JSON.stringify({ ...event, verification })}`;
      });
      await route.fulfill({ response, body });
    });
    const projectId = await buildThroughHome(page);

    const banner = page.getByTestId('success-banner');
    expect(await banner.getAttribute('data-verdict')).toBe('failed');
    expect(await page.getByTestId('success-title').textContent()).toBe('Your project was built, but it did not pass Proven Code');
    expect(await page.getByTestId('verification-problem').allTextContents()).toEqual([
      'app.js: TypeError: <b>tasks</b> is undefined (start)',
      'index.html: Failed to load styles.css (page-load)',
    ]);
    // The message's markup is text, not elements.
    expect(await banner.locator('b').count()).toBe(0);
    // Repair again is offered beside Keep as is (its runs are in repair-again.spec.ts).
    expect(await banner.getByRole('button', { name: 'Repair again' }).count()).toBe(1);
    expect(await page.getByTestId('verification-see-checks').getAttribute('href')).toBe(`/projects/${projectId}?tab=proven-code`);
    await saveShot(page, 'proven-code-banner-failed');

    await page.getByTestId('keep-as-is').click();
    expect(await page.getByTestId('verification-problems').count()).toBe(0);
    expect(await page.getByTestId('success-title').textContent()).toBe('Kept as is: it did not pass Proven Code');
    expect(await page.getByTestId('verification-kept').isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Repair again' }).count()).toBe(0);
    // The project stays, with every action of the banner.
    for (const name of ['Copy for Replit', 'Push to GitHub', 'View Files', 'Continue Building']) {
      expect(await banner.getByRole('button', { name }).isVisible()).toBe(true);
    }
    const res = await page.request.get(`/api/projects/${projectId}`);
    expect(res.ok()).toBe(true);
  });
});
