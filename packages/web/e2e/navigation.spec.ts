import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { pathOf, saveShot } from './helpers';

/** Every path of the route table (spec core §2) with a concrete parameter where needed. */
const ROUTES = [
  '/',
  '/login',
  '/register',
  '/how-it-works',
  '/usage-metrics',
  '/account',
  '/showcase',
  '/showcase/listing-1',
  '/outdoors',
  '/pricing',
  '/njin',
  '/my-capsules',
  '/discover',
  '/capsules/first-capsule',
  '/referrals',
  '/projects',
  '/projects/p-1',
  '/settings',
  '/admin/metrics',
];

const NAV = ['nav-build', 'nav-projects', 'nav-money', 'nav-outdoors', 'nav-help', 'nav-settings'] as const;

/** The header items that are marked active on the current page. */
async function activeItems(page: Page): Promise<string[]> {
  const active: string[] = [];
  for (const id of NAV) {
    const item = page.getByTestId(id);
    const current = (await item.getAttribute('aria-current')) ?? (await item.getAttribute('data-active'));
    if (current) active.push(id);
  }
  return active;
}

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('main').locator('h1').first().waitFor();
}

describe('routes and navigation', () => {
  const browser = useBrowser();

  it('shows the not-found card for an unknown path, inside the shell', async () => {
    const page = await browser.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    expect(await page.getByTestId('nav-build').isVisible()).toBe(true);
    expect(await page.getByRole('contentinfo').getByRole('link', { name: 'GitHub' }).isVisible()).toBe(true);
    await saveShot(page, 'not-found');
  });

  it('has a screen for every path of the route table', async () => {
    const page = await browser.newPage();
    for (const path of ROUTES) {
      await visit(page, path);
      expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count(), path).toBe(0);
    }
    await saveShot(page, 'coming-soon');
  });

  it('marks the active header item, with Outdoors covering showcase and discover', async () => {
    const page = await browser.newPage();
    const cases: Array<[string, string[]]> = [
      ['/', ['nav-build']],
      ['/projects', ['nav-projects']],
      ['/projects/p-1', ['nav-projects']],
      ['/outdoors', ['nav-outdoors']],
      ['/showcase', ['nav-outdoors']],
      ['/showcase/listing-1', ['nav-outdoors']],
      ['/discover', ['nav-outdoors']],
      ['/how-it-works', ['nav-help']],
      ['/settings', ['nav-settings']],
      ['/account', ['nav-money']],
      ['/referrals', ['nav-money']],
      ['/login', []],
    ];
    for (const [path, expected] of cases) {
      await visit(page, path);
      expect(await activeItems(page), path).toEqual(expected);
    }
  });

  it('moves between screens with the header links and the Money dropdown', async () => {
    const page = await browser.newPage();
    await visit(page, '/');

    await page.getByTestId('nav-outdoors').click();
    await page.waitForURL((url) => url.pathname === '/outdoors');
    await page.getByTestId('nav-help').click();
    await page.waitForURL((url) => url.pathname === '/how-it-works');

    await page.getByTestId('nav-money').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = menu.getByRole('menuitem');
    expect(await items.allTextContents()).toEqual(['Account', 'Usage & Savings', 'Pricing', 'Pack Perks', 'Cost Lab']);
    const hrefs = await items.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(hrefs).toEqual(['/account', '/usage-metrics', '/pricing', '/referrals', '/lab']);

    await menu.getByRole('menuitem', { name: 'Pack Perks' }).click();
    await page.waitForURL((url) => url.pathname === '/referrals');
    await page.getByRole('heading', { name: 'Pack Perks' }).waitFor();
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await activeItems(page)).toEqual(['nav-money']);

    await page.getByTestId('nav-money').click();
    await page.getByRole('menuitem', { name: 'Usage & Savings' }).click();
    await page.waitForURL((url) => url.pathname === '/usage-metrics');

    await page.getByTestId('link-register').click();
    await page.waitForURL((url) => url.pathname === '/register');
    await page.getByRole('link', { name: 'Sign in' }).click();
    expect(pathOf(page)).toBe('/login');
  });

  it('offers the same links in the mobile menu', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, '/');
    expect(await page.getByTestId('nav-build').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await mobile.waitFor();
    await saveShot(page, 'mobile-menu');
    await mobile.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    expect(await mobile.count()).toBe(0);
  });
});
