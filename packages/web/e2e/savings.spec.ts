/**
 * The Savings dashboard (/usage-metrics) with its recharts chart, loaded only with that screen,
 * and the build screen's savings popup driven by Playwright's fake clock.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, renderedAfterClockMove, saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

const MINUTE = 60_000;

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

/** Time, cost and runs of a row of Home's savings card. */
async function cardRow(page: Page, row: 'session' | 'monthly' | 'total') {
  const cells = await page.getByTestId(`savings-${row}`).locator('td').allTextContents();
  return cells.map((cell) => cell.trim());
}

/** Builds `idea` from the build screen, as a person does, and waits for the success banner. */
async function buildFromHome(page: Page, idea: string): Promise<void> {
  await page.getByTestId('prompt-input').fill(idea);
  await page.getByTestId('start-button').click();
  await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
}

/** Opens a Money menu entry (client-side navigation: nothing is read again unless told to). */
async function openMoneyItem(page: Page, name: string, path: string): Promise<void> {
  await page.getByTestId('nav-money').click();
  await page.getByRole('menu').getByRole('menuitem', { name }).click();
  await page.waitForURL((url) => url.pathname === path);
}

describe('savings', () => {
  const browser = useBrowser();

  it('shows the server figures and draws the chart, whose library loads only with the dashboard', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('saver'));
    await buildProjectViaApi(page, 'A pomodoro timer with a task list');
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await page.goto('/');
    await page.getByTestId('prompt-input').waitFor();
    expect(scripts.some((path) => /\/charts-[^/]+\.js$/.test(path)), scripts.join(' ')).toBe(false);

    await page.goto('/usage-metrics');
    await page.getByRole('heading', { name: 'Savings Dashboard' }).waitFor();
    const chart = page.getByTestId('savings-chart');
    await chart.locator('svg.recharts-surface').first().waitFor();
    expect(scripts.some((path) => /\/charts-[^/]+\.js$/.test(path))).toBe(true);
    // Six months on the axis and the cost series drawn. A demo run saves a fraction of a cent, so
    // this month's bar may be zero pixels high: wait for the series, not for a visible bar.
    await chart.locator('.recharts-bar').first().waitFor({ state: 'attached' });
    await chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick').nth(5).waitFor({ state: 'attached' });
    expect(await chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBe(6);
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
    expect(await text('savings-all-time-runs')).toBe('1');
    expect(await text('savings-this-month-runs')).toBe('1');
    expect(await text('savings-all-time-time')).toMatch(/^\d+\.\dh$/);
    expect(await text('savings-all-time-cost')).toMatch(/^\$\d+\.\d{2}$/);
    expect(await text('per-run-seconds')).toMatch(/^\d+\.\ds$/);
    const comparison = (await text('savings-comparison')) ?? '';
    for (const claim of ['2.5x faster', '40% lower cost', 'Superior quality']) expect(comparison.replace(/\s+/g, ' ')).toContain(claim);
    await saveShot(page, 'usage-metrics-light', { fullPage: true });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await chart.locator('svg.recharts-surface').first().waitFor();
    await saveShot(page, 'usage-metrics-dark', { fullPage: true });
  });

  it('shows the savings popup after 5 minutes, then at most once per 60 minutes', async () => {
    const page = await browser.newPage();
    await page.clock.install({ time: new Date('2026-11-20T10:00:00Z') });
    await signUpViaApi(page, uniqueUsername('popup'));
    // A run from the terminal (the API): the server counts it, this browser never saw it.
    await buildProjectViaApi(page, 'A pomodoro timer with a task list');
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('savings-total').locator('td').last().filter({ hasText: /^1$/ }).waitFor();
    const [time, cost] = await cardRow(page, 'total');
    const popup = page.getByTestId('savings-popup');

    // The checks started when the page mounted, and the fake clock has moved with real time since
    // (the card's figures loading): on a busy machine that can be seconds, so "not yet" is asked a
    // minute early, and the showing's time below pins the five minutes.
    await page.clock.runFor(4 * MINUTE);
    expect(await popup.count()).toBe(0);
    await page.clock.runFor(MINUTE);
    await popup.waitFor();
    expect(await popup.textContent()).toContain('Get $15 credit for every friend who subscribes.');
    // The popup's figures are the card's beside it: the server's.
    expect(await page.getByTestId('popup-time').textContent()).toBe(time);
    expect(await page.getByTestId('popup-cost').textContent()).toBe(cost);
    expect(await popup.textContent()).toContain('over 1 run.');
    expect(await page.getByTestId('popup-pack-perks').getAttribute('href')).toBe('/referrals');
    // The fake clock also moves with real time (page loads), so the showing is a little past 10:05.
    const shownAt = Number(await page.evaluate(() => localStorage.getItem('savingsPopupShownAt')));
    expect(shownAt).toBeGreaterThanOrEqual(Date.parse('2026-11-20T10:05:00Z'));
    expect(shownAt).toBeLessThan(Date.parse('2026-11-20T10:06:00Z'));
    await saveShot(page, 'savings-popup');
    await popup.getByRole('button', { name: 'Maybe later' }).click();
    await popup.waitFor({ state: 'detached' });

    // Checked again every 5 minutes, but not shown again within the hour.
    await page.clock.runFor(55 * MINUTE);
    expect(await popup.count()).toBe(0);
    await page.clock.runFor(5 * MINUTE);
    await popup.waitFor();
    await popup.getByTestId('popup-pack-perks').click();
    await page.waitForURL((url) => url.pathname === '/referrals');
  });

  it('after a build and a Lab experiment, Home, the statistics and the Savings Dashboard show the same totals', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('agree'));
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('savings-total').waitFor();
    expect(await cardRow(page, 'total')).toEqual(['0.0h', '$0.00', '0']);

    await buildFromHome(page, 'A pomodoro timer with a task list');
    // Then a Lab experiment: its run is a run of the account too.
    await openMoneyItem(page, 'Cost Lab', '/lab');
    await page.getByTestId('experiment-project-name').fill('Habit tracker');
    await page.getByTestId('experiment-prompt').fill('A habit tracker with streaks');
    await page.getByTestId('experiment-complexity').selectOption('simple');
    await page.getByTestId('experiment-start').click();
    await page.getByTestId('experiment-status').filter({ hasText: 'wolfpack complete' }).waitFor({ timeout: 60_000 });

    // Back on Home without a reload: the card, the session and the statistics count both runs.
    await page.getByTestId('nav-build').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('savings-total').locator('td').last().filter({ hasText: /^2$/ }).waitFor();
    await page.getByTestId('stat-total-runs').filter({ hasText: /^2$/ }).waitFor();
    const [time, cost, runs] = await cardRow(page, 'total');
    expect(runs).toBe('2');
    expect(await cardRow(page, 'monthly')).toEqual([time, cost, '2']);
    expect(await cardRow(page, 'session')).toEqual([time, cost, '2']);
    expect(await text(page, 'stat-cost-saved')).toBe(cost);
    expect(await text(page, 'stat-time-saved')).toBe(time);
    await saveShot(page, 'savings-agree-home', { fullPage: true });

    await openMoneyItem(page, 'Usage & Savings', '/usage-metrics');
    await page.getByTestId('savings-all-time-runs').waitFor();
    expect(await text(page, 'savings-all-time-runs')).toBe('2');
    expect(await text(page, 'savings-all-time-cost')).toBe(cost);
    expect(await text(page, 'savings-all-time-time')).toBe(time);
    expect(await text(page, 'savings-this-month-runs')).toBe('2');
    // The document's other claims, said as claims beside the comparison, not as this user's figures.
    const claims = (await text(page, 'savings-claims')).replace(/\s+/g, ' ');
    for (const claim of ['80% fewer iterations', '$2–3', '$15–20', 'not measurements of your runs']) expect(claims, claim).toContain(claim);
  });

  it('shows the popup in a visit with a build, though its result stays on screen and the user moves between screens', { timeout: 120_000 }, async () => {
    const page = await browser.newPage();
    await page.clock.install({ time: new Date('2026-11-20T10:00:00Z') });
    await signUpViaApi(page, uniqueUsername('popup-visit'));
    await page.goto('/');
    await skipEnhanceTip(page);
    await buildFromHome(page, 'A recipe box with shopping lists');
    const popup = page.getByTestId('savings-popup');

    // A look at the projects and back, in the same visit: the checks keep the visit's rhythm.
    await page.getByTestId('nav-projects').click();
    await page.waitForURL((url) => url.pathname === '/projects');
    await page.getByTestId('nav-build').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('success-banner').waitFor();

    // The first check comes 5 minutes into the visit, while the result is still new: no popup.
    await page.clock.runFor(5 * MINUTE);
    await renderedAfterClockMove(page);
    expect(await popup.count()).toBe(0);
    // The next one, 5 minutes later, shows it, with the banner still there behind it.
    await page.clock.runFor(5 * MINUTE);
    await popup.waitFor();
    expect(await popup.textContent()).toContain('Get $15 credit for every friend who subscribes.');
    expect(await page.getByTestId('popup-time').textContent()).toMatch(/^\d+\.\dh$/);
    expect(await page.getByTestId('success-banner').count()).toBe(1);
    await saveShot(page, 'savings-popup-after-build');
  });

  it('does not show the popup to someone without runs', async () => {
    const page = await browser.newPage();
    await page.clock.install({ time: new Date('2026-11-20T10:00:00Z') });
    await page.goto('/');
    await page.getByTestId('prompt-input').waitFor();
    await page.clock.runFor(10 * MINUTE);
    expect(await page.getByTestId('savings-popup').count()).toBe(0);
  });
});
