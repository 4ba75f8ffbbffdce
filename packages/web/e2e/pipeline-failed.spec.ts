/**
 * A build whose engines write no file, in Chromium: the run ends 'Pipeline Failed' at Building, and
 * Pipeline Progress says so. Planning is complete, Building failed in red with its words, the
 * stages after it read "Not run" in grey; the bar stays at 40 % ("Stage 2 of 5"), the ETA is '—',
 * the feed never says "No problems", Statistics count the failure (Success Rate below 100 %), and the
 * History panel's stored run reads '1/5 stages' with Building's failure named.
 *
 * The engine is a local OpenAI-compatible fake: it answers like the demo engines until
 * `mode.empty` is set, then plans as usual and answers every other stage without a file.
 */
import { type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer, type RecordedRequest } from '@wolfpack/core/engines/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { saveShot, signUpViaApi, skipEnhanceTip, waitForToast } from './helpers';

const messagesOf = (request: RecordedRequest) => (request.body as { messages: ChatMessage[] }).messages;
const isPlanning = (request: RecordedRequest) =>
  String(messagesOf(request).find((m) => m.role === 'system')?.content ?? '').startsWith('You are the Planning engine');

const row = (page: Page, n: number) => page.getByTestId(`stage-row-${n}`);

describe('a run that fails', () => {
  const browser = useBrowser();
  const mode = { empty: false };
  let engine: OpenAIFakeServer;
  let server: TestServer;

  beforeAll(async () => {
    engine = await startFakeOpenAIServer({
      fallback: (request) => ({
        kind: 'stream',
        deltas: [mode.empty && !isPlanning(request) ? 'Sorry, I cannot write that project.' : demoReply(messagesOf(request))],
      }),
    });
    server = await startTestServer({
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  async function build(page: Page, idea: string): Promise<void> {
    await page.getByTestId('prompt-input').fill(idea);
    await page.getByTestId('start-button').click();
  }

  it('shows the failed stage red with its words, the rest "Not run", and counts the failure in Success Rate', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('failed'));
    await page.goto('/');
    await skipEnhanceTip(page);

    // One run that completes: Success Rate 100 %.
    mode.empty = false;
    await build(page, 'A habit tracker with daily streaks');
    await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="stat-success-rate"]', { hasText: '100%' }).waitFor({ timeout: 20_000 });

    // Then one whose engines write no file. The feed keeps the first run's lines: the second adds no "No problems".
    const noProblemsBefore = await page.getByText(/^No problems/).count();
    mode.empty = true;
    await build(page, 'A recipe box');
    await waitForToast(page, 'The engines produced no files for this idea. Try again or describe the project in more detail.');
    await page.locator('[data-testid="run-phase"]', { hasText: 'Failed' }).waitFor();

    const statuses = await Promise.all([1, 2, 3, 4, 5].map((n) => row(page, n).getAttribute('data-status')));
    expect(statuses).toEqual(['complete', 'failed', 'not-run', 'not-run', 'not-run']);
    const words = await Promise.all([1, 2, 3, 4, 5].map((n) => row(page, n).getByTestId('stage-status').textContent()));
    expect(words).toEqual(['Complete', 'Failed: the engines produced no files', 'Not run', 'Not run', 'Not run']);
    // Red for the failure, grey for the stages never run: the computed colours, not class names.
    const background = (n: number, mark: string) => row(page, n).locator(`[data-mark="${mark}"]`).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background(2, 'failed')).toMatch(/^(rgb\(220, 38, 38\)|oklch\(0\.577 0\.245 27\.325\))$/);
    for (const n of [3, 4, 5]) expect(await background(n, 'not-run')).toMatch(/^(rgb\(228, 228, 231\)|oklch\(0\.92 0\.004 286\.32\))$/);
    // No green check on any stage but Planning.
    expect(await page.getByTestId('pipeline-progress').locator('li[data-status="complete"]').count()).toBe(2); // the tile and the row of Planning

    expect(await page.getByTestId('progress-percent').textContent()).toBe('40%');
    const panel = page.getByTestId('pipeline-progress');
    expect(await panel.textContent()).toContain('Stage 2 of 5');
    expect(await panel.textContent()).toContain('ETA —');
    expect(await panel.textContent()).not.toContain('Stage 5 of 5');
    expect(await page.getByText(/^No problems/).count()).toBe(noProblemsBefore);

    // One completed, one failed: 50 %.
    await page.locator('[data-testid="stat-success-rate"]', { hasText: '50%' }).waitFor({ timeout: 20_000 });
    await saveShot(page, 'pipeline-failed');

    // The History panel reads the stored run: all five stages counted, the failed one named.
    await page.getByTestId('history-button').click();
    const failedRun = page.getByTestId('history-panel').getByTestId('history-run').first();
    await failedRun.waitFor();
    expect(await failedRun.getByTestId('history-run-idea').textContent()).toBe('A recipe box');
    expect(await failedRun.getByTestId('history-run-stages').textContent()).toBe('1/5 stages');
    expect(await failedRun.getByTestId('history-run-stages').getAttribute('data-ok')).toBe('false');
    expect(await failedRun.getByTestId('history-run-failure').textContent()).toBe('Building: Failed: the engines produced no files');
  });
});
