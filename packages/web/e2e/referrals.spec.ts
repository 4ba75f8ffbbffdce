/**
 * Pack Perks (/referrals): the referral card with its QR code drawn on a 140 px canvas, the copy
 * button, and a referral link followed by a visitor who signs up (the code travels with the
 * registration and the referrer's counts and balance change).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { saveShot, signUpViaApi } from './helpers';

/** Dark and light pixels of the QR canvas (a blank or failed canvas has no dark ones). */
async function canvasPixels(page: Page): Promise<{ width: number; height: number; dark: number; light: number }> {
  return page.getByTestId('referral-qr').evaluate((element) => {
    const canvas = element as HTMLCanvasElement;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    let light = 0;
    for (let i = 0; i < data.length; i += 4) {
      const luminance = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
      if (data[i + 3]! > 0 && luminance < 64) dark += 1;
      else if (data[i + 3]! > 0 && luminance > 192) light += 1;
    }
    return { width: canvas.width, height: canvas.height, dark, light };
  });
}

describe('Pack Perks', () => {
  const browser = useBrowser();

  it('draws the referral link as a 140 px QR code and copies the link', async () => {
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpViaApi(page, uniqueUsername('qr'));
    await page.goto('/referrals');
    await page.getByRole('heading', { name: 'Pack Perks' }).waitFor();
    const qr = page.getByTestId('referral-qr');
    await qr.and(page.locator('[data-state="drawn"]')).waitFor();
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[data-testid="referral-qr"]') as HTMLCanvasElement | null;
      const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      return Boolean(data?.some((value, i) => i % 4 === 0 && value < 64));
    });
    const pixels = await canvasPixels(page);
    expect(pixels.width).toBe(140);
    expect(pixels.height).toBe(140);
    const box = await qr.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(140);
    // A QR code is roughly half dark modules: neither blank nor filled.
    const share = pixels.dark / (pixels.width * pixels.height);
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.7);
    expect(pixels.light).toBeGreaterThan(0);

    const code = (await page.getByTestId('referral-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^WP[A-Z0-9]{6}$/);
    const link = await page.getByTestId('referral-link').inputValue();
    expect(link).toBe(`${new URL(page.url()).origin}/?ref=${code}`);
    expect(await page.getByTestId('referrals-total').textContent()).toBe('0');

    const copy = page.getByTestId('copy-referral-link');
    await copy.click();
    await copy.filter({ hasText: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await copy.filter({ hasText: 'Copy link' }).waitFor({ timeout: 4000 });

    // The rules and the worked example, from core's numbers.
    const how = (await page.getByTestId('referrals-how').textContent()) ?? '';
    for (const part of ['$5.00', '$15.00', '$20.00', '100%, 45%, 20%, 9%, 4%, 2%, 1%', '90 days', '30-day grace period', '10%']) {
      expect(how, part).toContain(part);
    }
    expect(await page.getByTestId('worked-example-total').textContent()).toContain('$33.00');
    await saveShot(page, 'referrals-light', { fullPage: true });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await qr.and(page.locator('[data-state="drawn"]')).waitFor();
    await saveShot(page, 'referrals-dark', { fullPage: true });
  });

  it('keeps ?ref= from any page and sends it when the visitor signs up', async () => {
    const referrer = await browser.newPage();
    await signUpViaApi(referrer, uniqueUsername('referrer'));
    const balance = async () => ((await (await referrer.request.get('/api/billing/balance')).json()) as { balanceCents: number }).balanceCents;
    const before = await balance();
    await referrer.goto('/referrals');
    const code = ((await referrer.getByTestId('referral-code').textContent()) ?? '').trim();

    const visitor = await browser.newPage();
    await visitor.goto(`/how-it-works?ref=${code}`);
    await visitor.getByRole('heading', { name: 'How Wolfpack works' }).waitFor();
    expect(await visitor.evaluate(() => localStorage.getItem('referrerCode'))).toBe(code);
    await visitor.goto('/register');
    expect(await visitor.getByTestId('register-referral').textContent()).toContain(code);
    const sent: unknown[] = [];
    visitor.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/auth/register') sent.push(req.postDataJSON());
    });
    const username = uniqueUsername('invited');
    await visitor.getByLabel('Username').fill(username);
    await visitor.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await visitor.getByLabel('Confirm Password').fill('correct-horse-battery');
    await visitor.getByRole('button', { name: 'Create Account' }).click();
    await visitor.waitForURL((url) => url.pathname === '/');
    expect(sent).toEqual([{ username, password: 'correct-horse-battery', referralCode: code }]);
    expect(await visitor.evaluate(() => localStorage.getItem('referrerCode'))).toBeNull();

    // The referrer sees the new referral, pending: nothing is paid until the friend buys credit,
    // and the page says so, with the daily cap this server keeps.
    expect(await balance()).toBe(before);
    await referrer.reload();
    await referrer.getByTestId('referrals-total').filter({ hasText: '1' }).waitFor();
    expect(await referrer.getByTestId('referrals-pending').textContent()).toBe('1');
    expect(await referrer.getByTestId('referrals-earned').textContent()).toBe('$0.00');
    const rules = await referrer.getByTestId('referrals-when-paid').textContent();
    expect(rules).toContain('the $5.00 sign-up reward once your friend buys credit, and the $15.00 build reward once they have also completed a project build');
    expect(rules).toContain('You receive at most $100.00 of rewards in 24 hours');
  });

  it('says nothing about a friend for a code the server does not know, and that the code is not known', async () => {
    const visitor = await browser.newPage();
    const asked: string[] = [];
    visitor.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/referrals/code/')) asked.push(new URL(req.url()).pathname);
    });
    await visitor.goto('/?ref=WPBOGUS1');
    await visitor.getByTestId('prompt-input').waitFor();
    expect(await visitor.evaluate(() => localStorage.getItem('referrerCode'))).toBe('WPBOGUS1');
    await visitor.getByTestId('link-register').click();
    await visitor.waitForURL((url) => url.pathname === '/register');
    const unknown = visitor.getByTestId('register-referral-unknown');
    await unknown.waitFor();
    expect(await unknown.textContent()).toContain('The invitation code WPBOGUS1 is not known here, so nobody is credited when you join.');
    expect(await visitor.getByTestId('register-referral').count()).toBe(0);
    expect(await visitor.getByText('your friend earns credits').count()).toBe(0);
    expect(asked).toEqual(['/api/referrals/code/WPBOGUS1']);
    await saveShot(visitor, 'register-unknown-code');
  });

  it('names a malformed invitation code (emoji, 300 characters) on the sign-up form, and asks the server nothing about it', async () => {
    const visitor = await browser.newPage();
    const asked: string[] = [];
    visitor.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/referrals/code/')) asked.push(new URL(req.url()).pathname);
    });
    const malformed = visitor.getByTestId('register-referral-malformed');
    await visitor.goto(`/register?ref=${encodeURIComponent('WP🙂🙂🙂')}`);
    await malformed.waitFor();
    expect(await malformed.textContent()).toBe(
      'The invitation code "WP🙂🙂🙂" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z. Nobody is credited for this link; check it with whoever sent it. You can create your account all the same.',
    );
    await saveShot(visitor, 'register-malformed-code');
    await visitor.goto(`/?ref=${'WP'.repeat(150)}`);
    await visitor.getByTestId('prompt-input').waitFor();
    await visitor.getByTestId('link-register').click();
    await visitor.waitForURL((url) => url.pathname === '/register');
    await malformed.filter({ hasText: `The invitation code "${'WP'.repeat(12)}…" (300 characters) is malformed` }).waitFor();
    expect(await visitor.getByTestId('register-referral').count()).toBe(0);
    expect(await visitor.evaluate(() => localStorage.getItem('referrerCode'))).toBeNull();
    // A well-formed link afterwards replaces it: that code is asked about, and the note goes.
    await visitor.goto('/register?ref=WPBOGUS2');
    await visitor.getByTestId('register-referral-unknown').waitFor();
    expect(await malformed.count()).toBe(0);
    expect(asked).toEqual(['/api/referrals/code/WPBOGUS2']);
  });

  it('explains the rewards to a visitor and asks them to sign in', async () => {
    const page = await browser.newPage();
    await page.goto('/referrals');
    await page.getByTestId('sign-in-prompt').waitFor();
    await page.getByTestId('referral-generations').waitFor();
    expect(await page.getByTestId('referrals-when-paid').textContent()).toContain('Accounts that only use their free credit earn nothing. Rewards one person receives in a day are capped.');
    expect(await page.getByTestId('referral-qr').count()).toBe(0);
  });
});
