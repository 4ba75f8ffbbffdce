/**
 * A run that runs out of credits: with a priced engine (a local OpenAI-compatible fake
 * that answers like the demo engines), a whole run costs more than a new user's $15, so the
 * balance runs out partway (the calls it can pay for still run). The build screen shows
 * the server's sentence with "Add credits", keeps the run across a reload, and resumes it after a
 * top-up. Before a run it shows what the run would probably cost, and during it what it cost so far.
 * After it, the result card says what it cost beside the savings estimate, and that no money was
 * saved when the run cost more than the estimate saves.
 */
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from './billing-helpers';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { demoEngineAnswer, saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

/** Cents per 1,000 tokens: a whole run (about 5,000 tokens) costs more than $15. */
const PRICE = 220;

/** "$12.34" → 1234. */
const centsOf = (dollars: string) => Math.round(Number(dollars.replace(/[^\d.]/g, '')) * 100);

describe('Home: a run that runs out of credits', () => {
  const browser = useBrowser();
  let engine: OpenAIFakeServer;
  let server: TestServer;
  /** While set, Polishing's answer waits for it: the run is seen mid-way by construction. */
  let polishingHeld: Promise<void> | undefined;

  beforeAll(async () => {
    engine = await startFakeOpenAIServer({
      fallback: (request) => demoEngineAnswer(request, { polishing: { headersAfter: polishingHeld } }),
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
    // What the stages that ran cost, all of which the balance paid: it never went below zero.
    const spent = centsOf((await page.getByTestId('run-cost').textContent()) ?? '');
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(1500);
    // The cost shown is what the ledger took, and the sentence names the balance the account has.
    const real = ((await (await page.request.get('/api/billing/balance')).json()) as { balanceCents: number }).balanceCents;
    expect(real).toBe(1500 - spent);
    expect(sentence).toContain(`your balance is $${(real / 100).toFixed(2)}.`);
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

  it('shows what a run would cost before it starts, and what it cost so far while it runs', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('watcher');
    await signUpViaApi(page, username);
    const balance = await adjustBalance(server, username, 20_000);
    await page.goto('/');
    await skipEnhanceTip(page);
    // No idea, no estimate.
    expect(await page.getByTestId('run-estimate').count()).toBe(0);
    await page.getByTestId('prompt-input').fill('A habit tracker with daily streaks');
    const estimate = page.getByTestId('run-estimate');
    await estimate.waitFor();
    const line = (await estimate.textContent()) ?? '';
    expect(line).toMatch(/^Estimated cost: \$\d+\.\d\d–\$\d+\.\d\d$/);
    expect(await estimate.getAttribute('title')).toContain("from a typical plan's size at the engines' prices");
    const [low, high] = line.match(/\$\d+\.\d\d/g)!.map(centsOf);
    await saveShot(page, 'run-estimate', { fullPage: true });

    let release = () => {};
    polishingHeld = new Promise<void>((resolve) => (release = resolve));
    try {
      await page.getByTestId('start-button').click();
      // While Polishing's engine works, the earlier stages' cost shows.
      const soFar = page.getByTestId('run-cost').filter({ hasText: /^Cost so far: \$\d+\.\d\d$/ });
      await soFar.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('run-phase').textContent()).toBe('Running');
      expect(centsOf((await soFar.textContent()) ?? '')).toBeGreaterThan(0);
      await saveShot(page, 'run-cost-so-far', { fullPage: true });
      // The estimate is for the next run: not shown while this one goes.
      expect(await page.getByTestId('run-estimate').count()).toBe(0);
    } finally {
      polishingHeld = undefined;
      release();
    }
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    const total = page.getByTestId('run-cost').filter({ hasText: /^Cost of this run: \$\d+\.\d\d$/ });
    await total.waitFor();
    const cost = centsOf((await total.textContent()) ?? '');
    // What the run cost is what left the balance, and within the estimate's range.
    const chip = page.getByTestId('user-menu-balance-chip');
    await chip.filter({ hasText: `$${((balance - cost) / 100).toFixed(2)}` }).waitFor();
    expect(cost).toBeGreaterThanOrEqual(low!);
    expect(cost).toBeLessThanOrEqual(high!);
  });

  it('the result card says what the run cost beside its savings, and no saving when the run cost more', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const username = uniqueUsername('costly');
    await signUpViaApi(page, username);
    await adjustBalance(server, username, 20_000);
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill('A habit tracker with daily streaks');
    await page.getByTestId('start-button').click();
    await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
    const total = page.getByTestId('run-cost').filter({ hasText: /^Cost of this run: \$\d+\.\d\d$/ });
    await total.waitFor();
    const charged = centsOf((await total.textContent()) ?? '');
    expect(charged).toBeGreaterThan(0);

    // A run of seconds at this price costs dollars; its estimate is cents: "about 0.5h and $0.65 saved" no more.
    const line = page.getByTestId('success-cost-savings');
    const text = (await line.textContent()) ?? '';
    const match = /^Cost (\$\d+\.\d\d) · estimated savings about \d+\.\dh and (\$\d+\.\d\d), (\$\d+\.\d\d) less than the run cost: no money saved$/.exec(text);
    expect(match, text).not.toBeNull();
    const [cost, saved, short] = [match![1]!, match![2]!, match![3]!].map(centsOf);
    expect(cost).toBe(charged);
    expect(saved!).toBeLessThan(cost!);
    expect(short).toBe(cost! - saved!);
    expect(await line.getAttribute('data-outcome')).toBe('cost-more');
    expect(await page.getByTestId('success-summary').textContent()).not.toMatch(/\$\d+\.\d\d saved/);
    await saveShot(page, 'result-card-cost-more');
  });
});
