/**
 * Phone-width layout: at 390 px no screen is wider than the window. A card grid without a column
 * template at the base size lets its one implicit column grow to the min-content width of a
 * one-line `truncate` text, so the page scrolled sideways and nothing was truncated. Runs on the
 * shared server after a real build, so every list has a project, a capsule and a listing in it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, saveShot, signUpViaApi } from './helpers';

const WIDTH = 390;
/** A first line long enough to be truncated on a phone (it names the project and the capsule). */
const IDEA =
  'A neighbourhood tool-lending library with reservations, pickup reminders, damage reports and a waiting list for the popular drills\nKeep it simple.';

/** The page's own width and the window's: the page must not be wider. */
async function widths(page: Page) {
  return page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
}

describe('narrow screens', () => {
  const browser = useBrowser();

  it('keeps the lists and their pages within a 390 px window', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: WIDTH, height: 844 });
    await signUpViaApi(page, uniqueUsername('narrow'));
    const projectId = await buildProjectViaApi(page, IDEA);

    // Publish the build's capsule (Discover lists public ones) and list the project in the Showcase.
    const mine = (await (await page.request.get('/api/capsules/user/my-capsules')).json()) as { capsules: Array<{ id: string; slug: string }> };
    const capsule = mine.capsules[0]!;
    expect((await page.request.post(`/api/capsules/${capsule.id}/publish`, { data: { isPublic: true } })).ok()).toBe(true);
    const listed = await page.request.post('/api/listings', {
      data: { projectId, title: IDEA.split('\n')[0]!.slice(0, 100), summary: 'A project from the narrow-screen test.', visibility: 'free' },
    });
    expect(listed.ok()).toBe(true);
    const listingId = ((await listed.json()) as { listing: { id: string } }).listing.id;

    // Each page with what shows that its content has arrived.
    const pages: Array<[string, string]> = [
      ['/my-capsules', 'capsule-card'],
      ['/discover', 'capsule-card'],
      ['/outdoors?tab=discovery', 'capsule-card'],
      ['/projects', 'project-card'],
      // The Files tab with its editor loaded: the editor's bar is the widest part of the page.
      [`/projects/${projectId}`, 'code-editor'],
      [`/projects/${projectId}?tab=versions`, 'file-diff-view'],
      [`/capsules/${capsule.slug}`, 'capsule-metrics'],
      ['/showcase', 'listing-card'],
      ['/outdoors', 'listing-card'],
      [`/showcase/${listingId}`, 'purchase-card'],
    ];
    for (const [path, ready] of pages) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      expect(await widths(page), path).toEqual({ page: WIDTH, window: WIDTH });
    }
    await page.goto('/my-capsules');
    await page.getByTestId('capsule-card').waitFor();
    await saveShot(page, 'narrow-my-capsules', { fullPage: true });
  });

  it('keeps the notices of the companion screens within a 390 px window', async () => {
    // A visitor: the claims, the sign-in notice of My Capsules, an invalid colour.
    const visitor = await browser.newPage();
    await visitor.setViewportSize({ width: WIDTH, height: 844 });
    const visitorPages: Array<[string, string]> = [
      ['/', 'learn-more-claims'],
      ['/my-capsules', 'my-capsules-auth'],
    ];
    for (const [path, ready] of visitorPages) {
      await visitor.goto(path);
      await visitor.getByTestId(ready).first().waitFor();
      expect(await widths(visitor), path).toEqual({ page: WIDTH, window: WIDTH });
    }
    await visitor.goto('/settings');
    await visitor.getByTestId('brand-color-text').fill('zzz');
    await visitor.getByTestId('brand-color-text').press('Enter');
    await visitor.getByTestId('brand-color-error').waitFor();
    expect(await widths(visitor), '/settings').toEqual({ page: WIDTH, window: WIDTH });

    // Signed in on a server without payments: the njin notice with the operator's command, the
    // empty My Capsules and Home's savings card.
    const page = await browser.newPage();
    await page.setViewportSize({ width: WIDTH, height: 844 });
    await signUpViaApi(page, uniqueUsername('narrow-notices-with-a-long-name'));
    const pages: Array<[string, string]> = [
      ['/njin', 'njin-grant-command'],
      ['/njin?tab=usage', 'njin-pricing'],
      ['/my-capsules', 'my-capsules-empty'],
      ['/', 'savings-total'],
    ];
    for (const [path, ready] of pages) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      expect(await widths(page), path).toEqual({ page: WIDTH, window: WIDTH });
    }
    await page.goto('/njin');
    await page.getByTestId('njin-payments-off').waitFor();
    await saveShot(page, 'narrow-njin-payments-off', { fullPage: true });
  });
});
