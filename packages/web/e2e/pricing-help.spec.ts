/** Pricing (/pricing) and Help (/how-it-works): the spec's figures, for visitors and users. */
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { pathOf, saveShot, signUpViaApi } from './helpers';

describe('Pricing and Help', () => {
  const browser = useBrowser();

  it('lists the packs, the token price and the njin licence', async () => {
    const page = await browser.newPage();
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Pricing', exact: true }).waitFor();
    await page.getByTestId('credit-packs').waitFor();
    const body = (await page.getByRole('main').textContent())?.replace(/\s+/g, ' ') ?? '';
    for (const part of ['$3.05 per 1,000 tokens', 'about 20K tokens is about $60', '$10', '$25 +2%', '$50 +4%', 'Popular', '$100 +4%', '$29 per month', 'Unlimited iterations', '$10.00', '$5.00']) {
      expect(body, part).toContain(part);
    }
    // A visitor is asked to sign in to buy.
    expect(await page.getByRole('link', { name: 'Sign in to buy' }).count()).toBe(4);
    await saveShot(page, 'pricing-light', { fullPage: true });

    await signUpViaApi(page, uniqueUsername('pricing'));
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.getByTestId('buy-pack-50').waitFor();
    await saveShot(page, 'pricing-dark', { fullPage: true });
  });

  it('explains the engines, AI Enhance, Proven Code, credits and savings, linked from Home', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByTestId('link-how-it-works').click();
    await page.waitForURL((url) => url.pathname === '/how-it-works');
    await page.getByRole('heading', { name: 'How Wolfpack works' }).waitFor();
    expect(await page.getByText('Coming soon').count()).toBe(0);
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.replace(/\s+/g, ' ') ?? '';
    const stages = await text('help-stages');
    for (const stage of ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']) expect(stages).toContain(stage);
    expect(await text('help-enhance')).toContain('2 passes x 4 engines = 8 steps');
    expect(await text('help-proven')).toContain('refunded');
    const credits = await text('help-credits');
    for (const part of ['$10.00 welcome bonus', '$5.00 of free credits every month', '$3.05 per 1,000 tokens', '$50 +4% (popular)', 'reserves', 'resume the run after a top-up']) {
      expect(credits, part).toContain(part);
    }
    const savings = await text('help-savings');
    expect(savings).toContain('seconds / 60 x 2.5 hours');
    expect(savings).toContain('seconds x $0.05');
    await saveShot(page, 'help-light', { fullPage: true });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.getByTestId('help-savings').waitFor();
    await saveShot(page, 'help-dark', { fullPage: true });
    await page.getByRole('link', { name: 'Start building' }).click();
    expect(pathOf(page)).toBe('/');
  });
});
