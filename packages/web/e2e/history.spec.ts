/**
 * Home's History panel and publish actions (spec core §2 Home, History panel, §8): the panel
 * slides in, reads Projects and Recent Runs when it shows, lists a run with its date and stage
 * count, closes on Escape, opens a run's project, and says 'No Project' for a run without files.
 * The success banner's push button and '7. Publish to the coding platform' open the publish dialog.
 */
import { suggestRepoName } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { buildProjectViaApi, saveShot, waitForToast } from './helpers';
import { openSignedIn } from './library-helpers';

const IDEA = 'A garden planner with watering reminders';

describe('Home: History panel and publishing', () => {
  const browser = useBrowser();

  it('shows the empty history, then a run with its stages, closes on Escape and opens the project', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'history');

    await page.getByTestId('history-button').click();
    const panel = page.getByTestId('history-panel');
    await panel.waitFor();
    await panel.getByTestId('history-empty').waitFor();
    expect(await panel.getByTestId('history-empty').textContent()).toContain('No history yet');
    expect(await panel.getByTestId('history-empty').textContent()).toContain('Start your first project to see it here');
    await saveShot(page, 'history-empty');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Built meanwhile (here through the API): the panel reads both lists again when it opens.
    const projectId = await buildProjectViaApi(page, IDEA);
    let slowReads = 0;
    // The reads are held until the loading state has been read: a fixed delay let a loaded
    // machine finish them between finding the loading line and reading its text.
    let releaseReads!: () => void;
    const readsReleased = new Promise<void>((resolve) => (releaseReads = resolve));
    // The project list now carries its page size in the query string.
    await page.route(/\/api\/(projects|conversations)(\?[^/]*)?$/, async (route) => {
      slowReads += 1;
      await readsReleased;
      await route.fallback();
    });
    await page.getByTestId('history-button').click();
    await panel.getByTestId('history-loading').waitFor();
    expect(await panel.getByTestId('history-loading').textContent()).toBe('Loading history...');
    releaseReads();
    const run = panel.getByTestId('history-run').first();
    await run.waitFor();
    expect(slowReads).toBe(2);
    expect(await run.getByTestId('history-run-idea').textContent()).toBe(IDEA);
    expect(await run.getByTestId('history-run-date').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} (am|pm)$/);
    const stages = run.getByTestId('history-run-stages');
    expect(await stages.textContent()).toBe('5/5 stages');
    expect(await stages.getAttribute('data-ok')).toBe('true');
    expect(await stages.getAttribute('class')).toContain('emerald');
    expect(await panel.getByTestId('history-project').count()).toBe(1);
    await page.waitForTimeout(350); // the slide-in transition, for the picture
    await saveShot(page, 'history-panel');

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    await page.getByTestId('history-button').click();
    await panel.getByTestId('history-run').first().click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}`);
    await page.getByTestId('project-detail').waitFor();
    expect(await page.getByTestId('history-panel').count()).toBe(0);
  });

  it("says 'No Project' for a run that generated no files", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'nofiles');
    const conversation = {
      id: '00000000-0000-4000-8000-000000000001',
      idea: 'A run that failed early',
      createdAt: 'not a date',
      stages: [
        { role: 'Planning', ok: true },
        { role: 'Building', ok: false },
      ],
      projectId: null,
    };
    await page.route(/\/api\/conversations$/, (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ conversations: [conversation] }) }),
    );
    await page.getByTestId('history-button').click();
    const run = page.getByTestId('history-run');
    await run.waitFor();
    expect(await run.getByTestId('history-run-date').textContent()).toBe('recently');
    expect(await run.getByTestId('history-run-stages').textContent()).toBe('1/2 stages');
    expect(await run.getByTestId('history-run-stages').getAttribute('data-ok')).toBe('false');
    expect(await run.getByTestId('history-run-stages').getAttribute('class')).toContain('amber');
    await saveShot(page, 'history-no-project');
    await run.click();
    expect((await waitForToast(page, 'This conversation did not generate any files')).title).toBe('No Project');
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it("opens the publish dialog from the success banner and from '7. Publish to the coding platform'", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'homepub');
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });

    await page.getByRole('button', { name: 'Push to GitHub' }).click();
    const dialog = page.getByTestId('publish-dialog');
    await dialog.waitFor();
    // Opened from the banner the dialog reads the project's idea first, then suggests the name.
    await expect.poll(() => dialog.getByTestId('repo-name').inputValue()).toBe(suggestRepoName(IDEA));
    await saveShot(page, 'publish-from-home');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId('publish-action').click();
    await dialog.waitFor();
    expect(await dialog.getByTestId('repo-name').inputValue()).toBe(suggestRepoName(IDEA));
  });
});
