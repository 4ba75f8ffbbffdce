import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { feedMessages, pathOf, saveShot, signUpViaApi, waitForToast } from './helpers';

const IDEA = 'A habit tracker with daily streaks, reminders and a weekly progress chart';

/** Records the JSON bodies of POST /api/wolfpack/stream. */
function captureStreamRequests(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/wolfpack/stream') bodies.push(req.postDataJSON());
  });
  return bodies;
}

async function openSignedIn(page: Page, path = '/'): Promise<string> {
  const username = uniqueUsername('home');
  await signUpViaApi(page, username);
  await page.goto(path);
  await page.getByTestId('prompt-input').waitFor();
  return username;
}

async function waitForStages(page: Page, status: string, count = 5): Promise<void> {
  await page.waitForFunction(
    ([wanted, n]) =>
      document.querySelectorAll(`[data-testid^="stage-row-"][data-status="${wanted}"]`).length === Number(n),
    [status, String(count)] as const,
    { timeout: 45_000 },
  );
}

/** Waits until the prompt card's character count shows `length`: the render of the latest edit. */
async function promptLength(page: Page, length: number): Promise<void> {
  await page.getByTestId('prompt-panel').getByText(`${length} chars`, { exact: true }).waitFor();
}

describe('Home: the build screen', () => {
  const browser = useBrowser();

  it('shows Learn More open by default, remembers closing it, and forces it open for QR visitors', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    const learnMore = page.getByTestId('learn-more');
    const toggle = learnMore.getByRole('button', { name: /Learn More/ });
    await learnMore.getByText('2.5x faster results').waitFor();
    expect(await learnMore.getByText('85% cost savings').isVisible()).toBe(true);
    expect(await learnMore.getByText('Superior code quality').isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // Visitors see the empty feed, the sign-in hint and a 10-row prompt.
    await page.getByText('No activity yet. Start the tool to see updates.').waitFor();
    await page.getByTestId('visitor-notice').waitFor();
    expect(await page.getByTestId('prompt-input').getAttribute('rows')).toBe('10');
    expect(await page.getByTestId('start-button').textContent()).toBe('Start Wolfpack');
    await saveShot(page, 'home-visitor');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => localStorage.getItem('marketingOpen'))).toBe('false');
    await page.reload();
    await learnMore.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await learnMore.getByText('2.5x faster results').count()).toBe(0);

    for (const query of ['ref=qr', 'source=qr']) {
      await page.goto(`/?${query}`);
      await learnMore.getByText('2.5x faster results').waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    }
    // The QR visit did not change what the browser remembers.
    expect(await page.evaluate(() => localStorage.getItem('marketingOpen'))).toBe('false');
  });

  it("shows the document's other claims beside the first three, as claims and not as the user's figures", async () => {
    const page = await browser.newPage();
    await page.goto('/');
    const claims = page.getByTestId('learn-more-claims');
    await claims.getByText('2.5x faster results').waitFor();
    const text = ((await claims.textContent()) ?? '').replace(/\s+/g, ' ');
    for (const claim of ['85% cost savings', '80% fewer iterations', '$2–3 for a typical project', 'Down from $15–20']) expect(text, claim).toContain(claim);
    const note = page.getByTestId('learn-more-claims-note');
    expect(await note.textContent()).toContain('not measurements of your runs');
    expect(await note.getByRole('link', { name: 'Savings Dashboard' }).getAttribute('href')).toBe('/usage-metrics');
  });

  it("refuses a blank idea with 'Input Required' and a feed message", async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const requests = captureStreamRequests(page);
    await page.getByTestId('prompt-input').fill('   ');
    await page.getByTestId('start-button').click();
    const toast = await waitForToast(page, 'Please enter an idea or use voice input');
    expect(toast.title).toBe('Input Required');
    expect(await feedMessages(page)).toEqual(['Please enter an idea or speak.']);
    expect(requests).toEqual([]);
    // AI Enhance stays disabled for a blank prompt.
    expect(await page.getByTestId('enhance-button').isDisabled()).toBe(true);
  });

  it('checks attachments: too large, too many, listed with remove buttons', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    await page.getByRole('button', { name: /Attach files/ }).click();
    const input = page.getByTestId('file-input');
    expect(await input.getAttribute('accept')).toContain('image/*');

    const big = { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 97) };
    await input.setInputFiles([big]);
    const tooLarge = await waitForToast(page, 'huge.txt exceeds 5MB limit');
    expect(tooLarge.title).toBe('File Too Large');
    expect(await page.getByTestId('attachment-count').textContent()).toBe('0/5');
    expect(await feedMessages(page)).toContain('huge.txt exceeds 5MB limit');

    const small = (name: string) => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(`# ${name}\n`) });
    await input.setInputFiles([small('a.md'), small('b.md')]);
    await page.getByRole('button', { name: 'Remove a.md' }).waitFor();
    expect(await page.getByTestId('attachment-count').textContent()).toBe('2/5');
    await saveShot(page, 'home-attachments');

    await input.setInputFiles(['c', 'd', 'e', 'f'].map((n) => small(`${n}.md`)));
    const tooMany = await waitForToast(page, 'Maximum 5 files allowed');
    expect(tooMany.title).toBe('Too Many Files');
    expect(await page.getByTestId('attachment-count').textContent()).toBe('2/5');

    await page.getByRole('button', { name: 'Remove a.md' }).click();
    expect(await page.getByTestId('attachment-count').textContent()).toBe('1/5');
    expect(await page.getByRole('button', { name: 'Remove b.md' }).isVisible()).toBe(true);
  });

  it('shows the AI Enhance tip once, after 10 characters, and the button glows', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const prompt = page.getByTestId('prompt-input');
    await prompt.fill('short one');
    // The tip is opened by the same edit that redraws the character count (one render), so once the
    // count says 9 the tip has had its chance: its absence is the answer, not a render still to come.
    await promptLength(page, 9);
    expect(await page.getByTestId('enhance-tip').count()).toBe(0);
    await prompt.fill('short one!');
    await page.getByTestId('enhance-tip').waitFor();
    expect(await page.getByRole('heading', { name: 'Tip: try AI Enhance' }).isVisible()).toBe(true);
    await saveShot(page, 'home-enhance-tip');
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByTestId('enhance-tip').waitFor({ state: 'detached' });
    expect(await page.getByTestId('enhance-button').getAttribute('data-glow')).toBe('true');
    // The glow moves for a user who has not asked their system for less motion; for one who has
    // (as every browser test runs), nothing on the page moves.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await page.getByTestId('enhance-button').evaluate((el) => el.getAnimations().map((a) => (a as CSSAnimation).animationName))).toEqual(['enhance-glow']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);

    await page.reload();
    await prompt.fill('another idea that is long');
    await promptLength(page, 25);
    expect(await page.getByTestId('enhance-tip').count()).toBe(0);
  });

  it("logs the microphone as unsupported where the browser has no speech recognition", async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      // Chromium builds differ; make the unsupported case certain.
      const w = window as unknown as Record<string, unknown>;
      delete w.SpeechRecognition;
      delete w.webkitSpeechRecognition;
    });
    await page.goto('/');
    await page.getByTestId('voice-button').click();
    const toast = await waitForToast(page, 'Mic not supported. Use Chrome desktop/Android.');
    expect(toast.title).toBe('Not Supported');
    expect(await feedMessages(page)).toEqual(['Mic not supported. Use Chrome desktop/Android.']);
    expect(await page.getByTestId('voice-button').getAttribute('data-state')).toBe('off');
  });

  it('asks a visitor to sign in when they start a run', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByTestId('start-button').click();
    const callout = page.locator('[data-testid="run-callout"][data-phase="unauthorized"]');
    await callout.getByText('Sign in to start building').waitFor();
    await callout.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it("says 'No Project Found' when there is no project to load", async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    await page.getByRole('button', { name: 'Load Latest Project' }).click();
    const toast = await waitForToast(page, 'No previous project available to load');
    expect(toast.title).toBe('No Project Found');
  });

  it('runs the pack: five stages, the success banner, continue mode, View Files', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const requests = captureStreamRequests(page);
    await page.evaluate(() => localStorage.setItem('enhanceTipShown', 'true'));
    await page.getByTestId('learn-more').getByRole('button', { name: /Learn More/ }).click();
    await page.getByTestId('prompt-input').fill(IDEA);
    await saveShot(page, 'home-idle');

    await page.getByTestId('start-button').click();
    await page.getByTestId('pipeline-progress').waitFor();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    await waitForStages(page, 'complete');
    await page.waitForTimeout(600); // let the progress bar finish its transition for the picture
    await saveShot(page, 'home-complete', { fullPage: true });

    expect(requests).toEqual([{ idea: IDEA, modelOrder: expect.any(Array), cycles: 1 }]);
    expect(await page.getByTestId('start-button').textContent()).toBe('Start Wolfpack');
    expect(await page.getByTestId('progress-percent').textContent()).toBe('100%');
    expect(await page.getByTestId('progress-bar').evaluate((el) => (el as HTMLElement).style.width)).toBe('100%');
    for (const label of ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']) {
      expect(await page.getByTestId('stage-display').getByText(label, { exact: true }).isVisible()).toBe(true);
    }
    expect((await page.getByTestId('stage-row-1').textContent())?.includes('Complete')).toBe(true);
    const preview = page.getByTestId('open-preview');
    expect(await preview.textContent()).toContain('6. Open Preview');
    expect(await preview.getAttribute('target')).toBe('_blank');
    expect(await page.getByTestId('publish-action').textContent()).toContain('7. Publish to the coding platform');

    const projectId = await page.evaluate(() => localStorage.getItem('completedProjectId'));
    expect(projectId).toBeTruthy();
    expect(await preview.getAttribute('href')).toBe(`/preview/${projectId}`);
    expect(await page.evaluate(() => localStorage.getItem('currentPipelineId'))).toBeNull();
    // The feed shows the server's log lines; the counters and statistics count the run.
    expect((await feedMessages(page)).length).toBeGreaterThan(2);
    // The savings card reads the server's figures again after the run: wait for them.
    await page.getByTestId('savings-session').locator('td').last().filter({ hasText: /^1$/ }).waitFor();
    await page.getByTestId('stat-total-runs').filter({ hasText: '1' }).waitFor();
    expect(await page.getByTestId('stat-pipeline-stages').textContent()).toMatch(/^\d\/8$/);
    expect(await page.getByTestId('stat-success-rate').textContent()).toMatch(/^\d+%$/);

    // Continue Building: banner gone, continue mode on, the next run sends the project id once.
    await page.getByRole('button', { name: 'Continue Building' }).click();
    expect((await waitForToast(page, 'Describe what to add or change; the next run builds on this project.')).title).toBe(
      'Continue Mode Enabled',
    );
    expect(await page.getByTestId('success-banner').count()).toBe(0);
    await page.getByTestId('continue-mode').waitFor();
    await page.getByTestId('prompt-input').fill(`${IDEA}, plus a dark mode`);
    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    expect(requests[1]).toMatchObject({ projectId, cycles: 1 });
    expect(await page.getByTestId('continue-mode').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('continueProjectId'))).toBeNull();

    await page.getByRole('button', { name: 'View Files' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/projects/'));
    expect(pathOf(page)).toBe(`/projects/${projectId}`);
  });

  it('loads the latest project into the prompt in continue mode', async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const requests = captureStreamRequests(page);
    await page.evaluate(() => localStorage.setItem('enhanceTipShown', 'true'));
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Load Latest Project' }).click();
    expect((await waitForToast(page, 'Your next run builds on your latest project.')).title).toBe('Continue Mode Enabled');
    expect(await page.getByTestId('prompt-input').inputValue()).toBe(IDEA);
    const continueId = await page.evaluate(() => localStorage.getItem('continueProjectId'));
    expect(continueId).toBeTruthy();
    expect(requests).toHaveLength(1);
  });

  it('runs a stored tweak request automatically with autostart=true', async () => {
    const page = await browser.newPage();
    const username = uniqueUsername('tweak');
    await signUpViaApi(page, username);
    const requests = captureStreamRequests(page);
    await page.goto('/how-it-works');
    await page.evaluate(() => {
      localStorage.setItem('enhanceTipShown', 'true');
      localStorage.setItem('tweakRequest', JSON.stringify({ idea: 'A tiny markdown previewer' }));
    });
    await page.goto('/?autostart=true');
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    expect(requests).toEqual([{ idea: 'A tiny markdown previewer', modelOrder: expect.any(Array), cycles: 1 }]);
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('A tiny markdown previewer');
    expect(await page.evaluate(() => localStorage.getItem('tweakRequest'))).toBeNull();
    expect(new URL(page.url()).searchParams.get('autostart')).toBeNull();
  });
});
