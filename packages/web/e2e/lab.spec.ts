/**
 * The cost-comparison lab (/lab, companion §2, §4, §5, §8): start an experiment through the form
 * (a real pipeline run on the demo engines), watch its Wolfpack figures arrive, run the Replit-only
 * timer across a reload, submit the costs, and see the savings and the history.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { delay, openToast, pathOf, renderedAfterClockMove, saveShot, signUpViaApi, waitForToast } from './helpers';

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? '';

/** Waits until the timer's reading has moved on from `before`, and answers the new reading. */
async function timerMovesOn(page: Page, before: string): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const now = await text(page, 'replit-timer-reading');
    if (now !== before) return now;
    await delay(100);
  }
  throw new Error(`the timer stayed at ${before}`);
}

/** '1:05.3' → 65300 ms. */
function readingMs(reading: string): number {
  const parts = reading.split(':').map(Number);
  return Math.round(parts.reduce((total, part) => total * 60 + part, 0) * 1000);
}

const timerReading = (page: Page) => page.getByTestId('replit-timer-reading');

/** Waits until the timer shows exactly `reading`. */
async function timerShows(page: Page, reading: string): Promise<void> {
  await timerReading(page).filter({ hasText: new RegExp(`^${reading.replaceAll('.', '\\.')}$`) }).waitFor();
}

/** When the server recorded the Replit-only timer's start. */
async function recordedStart(page: Page, id: string): Promise<number> {
  const reply = (await (await page.request.get(`/api/experiments/${id}`)).json()) as { experiment: { replitOnlyStartedAt: string } };
  return Date.parse(reply.experiment.replitOnlyStartedAt);
}

describe('cost-comparison lab', () => {
  const browser = useBrowser();

  it('asks a visitor to sign in', async () => {
    const page = await browser.newPage();
    await page.goto('/lab');
    await page.getByRole('heading', { name: 'Cost Comparison Lab' }).waitFor();
    await page.getByTestId('sign-in-prompt').waitFor();
    expect(await page.getByTestId('experiment-start-form').count()).toBe(0);
  });

  it('runs an experiment end to end: Wolfpack figures, the timer across a reload, costs, savings and history', async () => {
    const page = await browser.newPage();
    // The page's clock is Playwright's: it runs as usual until the timer's checks stop it, so
    // that what the timer shows is exact whatever the machine's load.
    await page.clock.install();
    await signUpViaApi(page, uniqueUsername('lab'));
    await page.goto('/');
    // The Money menu links the lab.
    await page.getByTestId('nav-money').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Cost Lab' }).click();
    await page.waitForURL((url) => url.pathname === '/lab');
    await page.getByRole('heading', { name: 'Cost Comparison Lab' }).waitFor();

    // Start is disabled while either field is empty after trimming; a keyboard submit says why.
    const startButton = page.getByTestId('experiment-start');
    expect(await startButton.isDisabled()).toBe(true);
    expect(await page.getByTestId('experiment-complexity').inputValue()).toBe('medium');
    await page.getByTestId('experiment-project-name').fill('   ');
    await page.getByTestId('experiment-prompt').fill('A habit tracker with streaks');
    expect(await startButton.isDisabled()).toBe(true);
    await page.getByTestId('experiment-project-name').press('Enter');
    expect(await waitForToast(page, 'Please enter both project name and prompt')).toMatchObject({ title: 'Validation Error', variant: 'destructive' });

    await page.getByTestId('experiment-project-name').fill('Habit tracker');
    await page.getByTestId('experiment-complexity').selectOption('simple');
    expect(await startButton.isEnabled()).toBe(true);
    await startButton.click();
    expect((await waitForToast(page, 'Wolfpack is building')).title).toBe('Experiment Started');
    await page.waitForURL((url) => url.searchParams.has('id'));
    const id = new URL(page.url()).searchParams.get('id')!;
    // The form resets for the next experiment.
    expect(await page.getByTestId('experiment-project-name').inputValue()).toBe('');
    expect(await text(page, 'experiment-name')).toBe('Habit tracker');

    // The real run finishes (demo engines) and its figures arrive without a reload.
    await page.getByTestId('experiment-status').filter({ hasText: 'wolfpack complete' }).waitFor({ timeout: 60_000 });
    expect(await text(page, 'wolfpack-cost')).toMatch(/^\$\d+\.\d{2}$/);
    expect(await text(page, 'wolfpack-time')).toMatch(/^\d+\.\ds$/);

    // The Replit-only timer: Start only before it started; then it ticks every 100 ms.
    expect(await page.getByTestId('replit-timer-complete').count()).toBe(0);
    expect(await text(page, 'replit-timer-reading')).toBe('0:00.0');
    await page.getByTestId('replit-timer-start').click();
    expect((await waitForToast(page, 'Build the same prompt on Replit alone')).title).toBe('Replit Timer Started');
    await page.getByTestId('replit-timer-complete').waitFor();
    expect(await page.getByTestId('replit-timer-start').count()).toBe(0);
    await timerMovesOn(page, '0:00.0');
    // The clock stopped a minute after the start the server recorded: the reading is that minute.
    const startedAt = await recordedStart(page, id);
    await page.clock.pauseAt(startedAt + 60_000);
    await timerShows(page, '1:00.0');
    // Ten ticks a second: every 100 ms of the page's clock moves the reading on by a tenth.
    let reading = '1:00.0';
    for (let i = 0; i < 5; i += 1) {
      await page.clock.runFor(100);
      await timerReading(page).filter({ hasNotText: reading }).waitFor();
      const next = await text(page, 'replit-timer-reading');
      expect(readingMs(next) - readingMs(reading), `after ${reading}`).toBe(100);
      reading = next;
    }

    // A reload comes back to the same experiment, and the timer resumes from the recorded start:
    // two minutes after it, it reads two minutes.
    await page.clock.resume();
    await page.reload();
    await page.getByTestId('replit-timer').and(page.locator('[data-state="running"]')).waitFor();
    expect(new URL(page.url()).searchParams.get('id')).toBe(id);
    await page.clock.pauseAt(startedAt + 120_000);
    await timerShows(page, '2:00.0');
    await page.clock.runFor(100);
    await timerShows(page, '2:00.1');
    expect(await page.getByTestId('replit-timer-start').count()).toBe(0);
    await saveShot(page, 'lab-timer-running', { fullPage: true });

    // Complete: only while running and not completed; the reading then stays put.
    await page.clock.resume();
    await page.getByTestId('replit-timer-complete').click();
    const took = (await waitForToast(page, 'The Replit-only build took'));
    expect(took.title).toBe('Replit Timer Complete');
    await page.getByTestId('replit-timer').and(page.locator('[data-state="completed"]')).waitFor();
    expect(await page.getByTestId('replit-timer-complete').count()).toBe(0);
    expect(await page.getByTestId('replit-timer-start').count()).toBe(0);
    // It shows the time the server recorded, the one the toast gave, and no tick moves it on.
    const stopped = /took (\S+)\.$/.exec(took.description ?? '')?.[1];
    await timerShows(page, stopped!);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.clock.runFor(1000);
    await renderedAfterClockMove(page);
    expect(await text(page, 'replit-timer-reading')).toBe(stopped);
    await page.clock.resume();

    // Costs in cents: a decimal is refused in the form, then a valid entry is submitted and the form resets.
    await page.getByTestId('cost-assembly').fill('1.5');
    await page.getByTestId('cost-replit-only').fill('2000');
    await page.getByTestId('costs-submit').click();
    await page.getByText('Enter a whole number (no decimals or signs)').waitFor();
    await page.getByTestId('cost-assembly').fill('300');
    await page.getByTestId('cost-assembly-time').fill('45000');
    await page.getByTestId('costs-submit').click();
    expect((await waitForToast(page, 'The savings are computed below.')).title).toBe('Costs Submitted');
    for (const field of ['cost-assembly', 'cost-assembly-time', 'cost-replit-only']) expect(await page.getByTestId(field).inputValue()).toBe('');
    // The button says it is done and cannot send the same costs twice; typing a new cost reopens it.
    const submitButton = page.getByTestId('costs-submit');
    expect((await submitButton.textContent())?.trim()).toBe('Submitted');
    expect(await submitButton.isDisabled()).toBe(true);
    await page.getByTestId('cost-replit-only').fill('2100');
    expect((await submitButton.textContent())?.trim()).toBe('Submit Costs');
    expect(await submitButton.isEnabled()).toBe(true);
    await page.getByTestId('cost-replit-only').fill('');

    // Savings from the core formula: Model A = run cost + $3.00 against $20.00 on Replit alone.
    const runCents = Math.round(Number((await text(page, 'wolfpack-cost')).slice(1)) * 100);
    const expected = (Math.round(((2000 - (runCents + 300)) * 10_000) / 2000) / 100).toFixed(2);
    expect(await text(page, 'experiment-savings')).toBe(`${expected}%`);
    expect(await text(page, 'replit-only-cost')).toBe('$20.00');
    expect(await text(page, 'experiment-status')).toBe('completed');

    // The history lists it with its status (spaces for underscores) and savings.
    const item = page.getByTestId('experiment-history-item').filter({ hasText: 'Habit tracker' });
    await item.getByTestId('history-savings').filter({ hasText: `${expected}% saved` }).waitFor();
    expect(await item.getByTestId('history-status').textContent()).toBe('completed');
    await saveShot(page, 'lab-complete', { fullPage: true });
    expect(pathOf(page)).toBe('/lab');
  });

  it('plain /lab goes on with the newest experiment under way and its running timer; a finished one waits in the history', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('lab-resume'));
    await page.goto('/lab');
    await page.getByTestId('experiment-history-empty').waitFor();
    expect(await page.getByTestId('experiment-current').count()).toBe(0);
    await page.getByTestId('experiment-project-name').fill('Packing list');
    await page.getByTestId('experiment-prompt').fill('A packing list for trips');
    await page.getByTestId('experiment-start').click();
    await page.waitForURL((url) => url.searchParams.has('id'));
    const id = new URL(page.url()).searchParams.get('id')!;
    await page.getByTestId('replit-timer-start').click();
    await page.getByTestId('replit-timer').and(page.locator('[data-state="running"]')).waitFor();
    const current = page.locator(`[data-testid="experiment-current"][data-experiment-id="${id}"]`);

    // The menu's link is plain /lab: the experiment and its ticking timer come back.
    await page.getByTestId('nav-money').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Cost Lab' }).click();
    await page.waitForURL((url) => url.pathname === '/lab' && url.searchParams.get('id') === id, { timeout: 10_000 });
    await current.waitFor();
    await page.getByTestId('replit-timer').and(page.locator('[data-state="running"]')).waitFor();
    await timerMovesOn(page, await text(page, 'replit-timer-reading'));
    // So does a fresh load of plain /lab.
    await page.goto('/lab');
    await page.waitForURL((url) => url.searchParams.get('id') === id, { timeout: 10_000 });
    await page.getByTestId('replit-timer').and(page.locator('[data-state="running"]')).waitFor();

    // Finished (timer stopped, run done, costs in): plain /lab opens nothing by itself any more.
    await page.getByTestId('replit-timer-complete').click();
    await page.getByTestId('replit-timer').and(page.locator('[data-state="completed"]')).waitFor();
    await page.getByTestId('experiment-status').filter({ hasText: 'wolfpack complete' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('cost-assembly').fill('300');
    await page.getByTestId('cost-replit-only').fill('2000');
    await page.getByTestId('costs-submit').click();
    await page.getByTestId('experiment-status').filter({ hasText: 'completed' }).waitFor();
    await page.goto('/lab');
    const item = page.getByTestId('experiment-history-item').filter({ hasText: 'Packing list' });
    await item.waitFor();
    expect(await page.getByTestId('experiment-current').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
    await item.click();
    await current.waitFor();
    expect(await text(page, 'experiment-status')).toBe('completed');
  });

  it('wraps a long unbroken project name inside the card and the toast, at 1280 and at 390 px', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('lab-long'));
    for (const width of [1280, 390]) {
      // About 200 characters without a space, as in the report ('Lab ' + 196 n's); one per width.
      const name = `Lab ${width}${'n'.repeat(192)}`;
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/lab');
      // Once the history is in, plain /lab has opened the earlier experiment (it is still under way).
      await page.locator('[data-testid="experiment-history"], [data-testid="experiment-history-empty"]').waitFor();
      await page.getByTestId('experiment-project-name').fill(name);
      await page.getByTestId('experiment-prompt').fill(`A ${'p'.repeat(300)} prompt`);
      await page.getByTestId('experiment-start').click();
      // The toast's text stays inside its box, and the box inside the window.
      const toast = openToast(page).filter({ hasText: 'Wolfpack is building' });
      await toast.waitFor();
      // Measured where it stays: once it has slid in (toast-in, 180 ms) from beyond the window's edge.
      await toast.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished)));
      const toastFit = await toast.evaluate((box) => {
        const outer = box.getBoundingClientRect();
        const texts = [...box.querySelectorAll('[data-testid^="toast-"]')].map((el) => el.getBoundingClientRect());
        return { spills: box.scrollWidth > box.clientWidth || texts.some((r) => r.right > outer.right + 0.5), inWindow: outer.right <= window.innerWidth + 0.5 };
      });
      expect(toastFit, `toast at ${width}`).toEqual({ spills: false, inWindow: true });

      // The card's heading wraps within the card, and the page is no wider than the window.
      const heading = page.getByTestId('experiment-name').filter({ hasText: name });
      await heading.waitFor();
      const card = (await page.getByTestId('lab-current').boundingBox())!;
      const box = (await heading.boundingBox())!;
      expect(box.x + box.width, `heading at ${width}`).toBeLessThanOrEqual(card.x + card.width);
      expect(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth), `heading at ${width}`).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page at ${width}`).toBe(width);
    }
    await saveShot(page, 'lab-long-name-390', { fullPage: true });
  });

  it('opens experiments from the history and says when a start fails', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('lab-history'));
    const started = await page.request.post('/api/experiments/start', { data: { projectName: 'From the API', testPrompt: 'A tiny notes app' } });
    expect(started.status()).toBe(201);
    const { experimentId } = (await started.json()) as { experimentId: string };
    // Plain /lab goes on with the newest experiment under way (this one).
    await page.goto('/lab');
    await page.waitForURL((url) => url.searchParams.get('id') === experimentId);
    const item = page.getByTestId('experiment-history-item').filter({ hasText: 'From the API' });
    await item.waitFor();
    expect(await item.textContent()).toContain('medium');
    expect(await item.getAttribute('aria-current')).toBe('true');
    await page.getByTestId('experiment-current').waitFor();
    expect(await text(page, 'experiment-name')).toBe('From the API');
    // The history row follows the run's status as the open experiment learns it.
    await item.getByTestId('history-status').filter({ hasText: 'wolfpack complete' }).waitFor({ timeout: 60_000 });

    await page.route('**/api/experiments/start', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom","code":"INTERNAL"}' }));
    await page.getByTestId('experiment-project-name').fill('Doomed');
    await page.getByTestId('experiment-prompt').fill('Anything');
    await page.getByTestId('experiment-start').click();
    expect(await waitForToast(page, 'Failed to start experiment')).toMatchObject({ title: 'Failed to Start', variant: 'destructive' });
    // The entries stay for another try.
    expect(await page.getByTestId('experiment-project-name').inputValue()).toBe('Doomed');
    expect(await openToast(page).count()).toBe(1);
  });
});
