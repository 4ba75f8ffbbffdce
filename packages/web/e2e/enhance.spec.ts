/**
 * AI Enhance on the build screen (spec core §2 Home, §4 Enhance, §5, §8, §9): the real server's
 * demo engines refine the prompt in 2 passes x 4 engines. The main test runs against a server of
 * its own whose demo engines answer slowly, so the progress can be watched; the failure paths
 * replace the answer at the network boundary with what a failing server sends.
 */
import { encodeJsonEvent, type EnhancementEvent } from '@wolfpack/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { feedMessages, saveShot, signUpViaApi, skipEnhanceTip, waitForToast } from './helpers';

const IDEA = 'A habit tracker with daily streaks and gentle reminders';
const ENHANCE_PATH = '/api/multi-pass-enhancements';

/** Records the JSON bodies sent to AI Enhance. */
function captureEnhanceRequests(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === ENHANCE_PATH) bodies.push(req.postDataJSON());
  });
  return bodies;
}

async function openSignedIn(page: Page): Promise<void> {
  await signUpViaApi(page, uniqueUsername('enh'));
  await page.goto('/');
  await skipEnhanceTip(page);
  await page.getByTestId('prompt-input').waitFor();
}

describe('AI Enhance with engines slow enough to watch', () => {
  const browser = useBrowser();
  let slow: TestServer;

  beforeAll(async () => {
    // Each demo engine call takes two seconds: pass 1, pass 2 and the final merge take ~6 s in all,
    // so the progress read at half way is still on screen however slowly a loaded machine reads it.
    slow = await startTestServer({ env: { WOLFPACK_DEMO_DELAY_MS: '2000' } });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('shows the percentage and estimate while enhancing, then replaces the prompt', async () => {
    const page = await browser.newPage({ baseUrl: slow.url });
    await openSignedIn(page);
    const requests = captureEnhanceRequests(page);
    const button = page.getByTestId('enhance-button');
    const prompt = page.getByTestId('prompt-input');

    // Disabled for a blank prompt (spec core §5).
    expect(await button.isDisabled()).toBe(true);
    await prompt.fill('   \n  ');
    expect(await button.isDisabled()).toBe(true);
    await prompt.fill(IDEA);
    expect(await button.isDisabled()).toBe(false);

    await button.click();
    const status = page.locator('[data-testid="enhance-status"][data-phase="enhancing"]');
    await status.waitFor();
    // Disabled while enhancing, and so are the run and the prompt.
    expect(await button.isDisabled()).toBe(true);
    expect(await button.textContent()).toContain('Enhancing…');
    expect(await page.getByTestId('start-button').isDisabled()).toBe(true);
    expect(await prompt.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('enhance-steps').textContent()).toMatch(/^Step \d of 8$/);

    // The first pass finishes: steps/8 as a percentage and an estimate in '~Ns' form.
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="enhance-percent"]')?.textContent ?? '';
      return Number(text.replace('%', '')) >= 50;
    }, undefined, { timeout: 20_000 });
    // The final merge still takes two seconds after the last step, so the run is still on.
    expect(await status.count()).toBe(1);
    // The percentage, the step, the bar and the estimate read in one go: read one by one, the next
    // step (or the end, which removes them) can land between them.
    const shown = await page.evaluate(() => ({
      percent: document.querySelector('[data-testid="enhance-percent"]')?.textContent ?? '',
      steps: document.querySelector('[data-testid="enhance-steps"]')?.textContent ?? '',
      bar: (document.querySelector('[data-testid="enhance-bar"]') as HTMLElement | null)?.style.width ?? '',
      estimate: document.querySelector('[data-testid="enhance-estimate"]')?.textContent ?? '',
    }));
    const percent = Number(shown.percent.replace('%', ''));
    const steps = Number(shown.steps.match(/Step (\d)/)?.[1]);
    expect(percent).toBe(Math.round((steps / 8) * 100));
    expect(shown.bar).toBe(`${percent}%`);
    expect(shown.estimate).toMatch(/^~(\d+m )?\d+s left$/);
    await page.getByTestId('prompt-panel').scrollIntoViewIfNeeded();
    await saveShot(page, 'enhance-progress');

    const finished = page.locator('[data-testid="enhance-status"][data-outcome="enhanced"]');
    await finished.waitFor({ timeout: 30_000 });
    const enhanced = await prompt.inputValue();
    expect(enhanced).toContain(IDEA);
    expect(enhanced.length).toBeGreaterThan(IDEA.length * 2);
    expect(await button.isDisabled()).toBe(false);
    expect(await button.textContent()).toContain('AI Enhance');
    expect(await prompt.getAttribute('readonly')).toBeNull();
    expect(requests).toEqual([{ prompt: IDEA, attachments: [] }]);

    const feed = await feedMessages(page);
    // The client's own first and last lines around the server's lines about each pass.
    expect(feed.at(-1)).toBe('AI Enhance started: 2 passes through 4 engines refine your prompt.');
    expect(feed.length).toBeGreaterThan(2);
    expect(feed[0]).toMatch(/^Prompt enhanced: \d+ → [\d,]+ characters\.$/);
    await page.getByTestId('learn-more').getByRole('button', { name: /Learn More/ }).click();
    await saveShot(page, 'enhance-finished', { fullPage: true });

    // The original can be brought back.
    await page.getByRole('button', { name: 'Restore original' }).click();
    expect(await prompt.inputValue()).toBe(IDEA);
    expect(await page.getByTestId('enhance-status').count()).toBe(0);
  });
});

describe('AI Enhance failures', () => {
  const browser = useBrowser();

  /** Answers AI Enhance with an event stream of these events. */
  async function answerWith(page: Page, events: EnhancementEvent[]): Promise<void> {
    await page.route(`**${ENHANCE_PATH}`, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
        body: events.map((event, i) => encodeJsonEvent(event, { id: String(i + 1) })).join(''),
      }),
    );
  }

  it("keeps the original prompt when the result is empty, with 'Enhancement Issue'", async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    const steps: EnhancementEvent[] = Array.from({ length: 8 }, (_, i) => ({
      type: 'step',
      passNumber: i < 4 ? 1 : 2,
      engineOrder: (i % 4) + 1,
      progress: { current: i + 1, total: 8, percent: ((i + 1) / 8) * 100 },
      estimatedRemainingSeconds: 8 - i,
    }));
    await answerWith(page, [...steps, { type: 'complete', finalPrompt: '' }]);
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('enhance-button').click();
    const toast = await waitForToast(page, 'Enhancement completed but result was empty. Using original prompt.');
    expect(toast.title).toBe('Enhancement Issue');
    expect(await page.getByTestId('prompt-input').inputValue()).toBe(IDEA);
    await page.locator('[data-testid="enhance-status"][data-outcome="kept-original"]').waitFor();
    expect(await page.getByTestId('enhance-button').isDisabled()).toBe(false);
  });

  it("says 'Enhancement Failed' with the server's sentence and logs 'Failed to enhance prompt'", async () => {
    const page = await browser.newPage();
    await openSignedIn(page);
    await answerWith(page, [{ type: 'error', error: 'Every engine failed in pass 1. Check the engine settings and try again.', code: 'BAD_GATEWAY' }]);
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('enhance-button').click();
    const toast = await waitForToast(page, 'Every engine failed in pass 1. Check the engine settings and try again.');
    expect(toast).toMatchObject({ title: 'Enhancement Failed', variant: 'destructive' });
    expect((await feedMessages(page))[0]).toBe('Failed to enhance prompt');
    expect(await page.getByTestId('prompt-input').inputValue()).toBe(IDEA);
    await saveShot(page, 'enhance-failed');
  });

  it('shows the JSON error a visitor gets before the stream', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('enhance-button').click();
    const toast = openToastTitle(page, 'Enhancement Failed');
    await toast.waitFor();
    const res = await page.request.post(ENHANCE_PATH, { data: { prompt: IDEA, attachments: [] } });
    expect(res.status()).toBe(401);
    const { error } = (await res.json()) as { error: string };
    expect((await toast.getByTestId('toast-description').textContent())?.trim()).toBe(error);
    expect((await feedMessages(page))[0]).toBe('Failed to enhance prompt');
  });
});

function openToastTitle(page: Page, title: string) {
  return page.locator('li.toast[data-state="open"]').filter({ has: page.getByTestId('toast-title').getByText(title, { exact: true }) });
}
