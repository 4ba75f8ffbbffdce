/**
 * The Savings dashboard (/usage-metrics) with its recharts chart, loaded only with that screen,
 * and the build screen's savings popup driven by Playwright's fake clock.
 */
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

const MINUTE = 60_000;

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
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.evaluate(() => localStorage.setItem('totalSavings', JSON.stringify({ timeSavedHours: 5, costSavedDollars: 6, runs: 1 })));
    await page.reload();
    await page.getByTestId('prompt-input').waitFor();
    const popup = page.getByTestId('savings-popup');

    await page.clock.runFor(5 * MINUTE - 1000);
    expect(await popup.count()).toBe(0);
    await page.clock.runFor(1000);
    await popup.waitFor();
    expect(await popup.textContent()).toContain('Get $15 credit for every friend who subscribes.');
    expect(await page.getByTestId('popup-time').textContent()).toBe('5.0h');
    expect(await page.getByTestId('popup-cost').textContent()).toBe('$6.00');
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

  it('does not show the popup to someone without runs', async () => {
    const page = await browser.newPage();
    await page.clock.install({ time: new Date('2026-11-20T10:00:00Z') });
    await page.goto('/');
    await page.getByTestId('prompt-input').waitFor();
    await page.clock.runFor(10 * MINUTE);
    expect(await page.getByTestId('savings-popup').count()).toBe(0);
  });
});
