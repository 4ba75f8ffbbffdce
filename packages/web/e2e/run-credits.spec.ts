/**
 * A run that runs out of credits (issue 8): with a priced engine (a local OpenAI-compatible fake
 * that answers like the demo engines), a new user's $15 covers Planning but not Building. The
 * build screen shows the server's sentence with "Add credits", keeps the run across a reload, and
 * resumes it after a top-up.
 */
import type { ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from './billing-helpers';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

/** Cents per 1,000 tokens: Planning's worst case fits in $15, Building's does not. */
const PRICE = 15;

describe('Home: a run that runs out of credits', () => {
  const browser = useBrowser();
  let engine: OpenAIFakeServer;
  let server: TestServer;

  beforeAll(async () => {
    engine = await startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }),
    });
    server = await startTestServer({
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: PRICE }]),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  it('stops before the stage it cannot pay for, links to Settings, and resumes after a top-up', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('broke');
    await signUpViaApi(page, username);
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill('A habit tracker with daily streaks');
    await page.getByTestId('start-button').click();

    const callout = page.getByTestId('run-callout').and(page.locator('[data-phase="payment-required"]'));
    await callout.waitFor({ timeout: 45_000 });
    const sentence = (await callout.textContent()) ?? '';
    expect(sentence).toMatch(/Not enough credits: this stage needs about \$\d+\.\d\d and your balance is \$\d+\.\d\d\. Add credits in Settings\./);
    expect(await callout.getByTestId('add-credits-link').getAttribute('href')).toBe('/settings#buy-credits');
    expect(await callout.getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
    expect(await page.locator('[data-testid="stage-row-1"][data-status="complete"]').count()).toBe(1);
    await saveShot(page, 'run-payment-required');

    // Add credits leads to the packs; coming back, the run is still there to resume.
    await callout.getByTestId('add-credits-link').click();
    await page.waitForURL((url) => url.pathname === '/settings' && url.hash === '#buy-credits');
    await page.getByTestId('settings-packs').waitFor();
    // A full reload (as after a trip to Checkout) reattaches to the stopped run.
    await page.goto('/');
    await callout.waitFor({ timeout: 20_000 });

    await adjustBalance(server, username, 20_000);
    await callout.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('run-callout').count()).toBe(0);
    // The header's balance follows what the run spent.
    const chip = (await page.getByTestId('user-menu-balance-chip').textContent())?.trim() ?? '';
    const cents = Math.round(Number(chip.replace('$', '')) * 100);
    expect(cents).toBeLessThan(1500 + 20_000);

    // Settings lists the latest 10 billed calls: role, tokens, billed dollars, date.
    await page.goto('/settings');
    await page.getByTestId('usage-history').waitFor();
    const rows = page.getByTestId('usage-row');
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(10);
    const first = (await rows.first().locator('td').allTextContents()).map((t) => t.trim());
    expect(['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']).toContain(first[0]);
    expect(first[1]).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(first[2]).toMatch(/^\$\d+\.\d{2}$/);
    await saveShot(page, 'settings-recent-usage', { fullPage: true });
  });
});
