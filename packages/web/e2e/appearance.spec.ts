import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { saveShot } from './helpers';

async function cssVar(page: Page, name: string): Promise<string> {
  return page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
}

/** The Sign Up button's colour once its colour transition (if one is running) has ended. */
async function signUpBackground(page: Page): Promise<string> {
  return page.getByTestId('link-register').evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    return getComputedStyle(el).backgroundColor;
  });
}

describe('theme and brand colour', () => {
  const browser = useBrowser();

  it('uses #10b981 by default and when the stored colour is not a valid hex', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByTestId('link-register').waitFor();
    expect(await cssVar(page, '--brand')).toBe('#10b981');
    expect(await signUpBackground(page)).toBe('rgb(16, 185, 129)');

    for (const invalid of ['not-a-colour', '#12345', 'javascript:alert(1)', '']) {
      await page.evaluate((v) => localStorage.setItem('brandColor', v), invalid);
      await page.reload();
      await page.getByTestId('link-register').waitFor();
      expect(await cssVar(page, '--brand'), invalid).toBe('#10b981');
      expect(await signUpBackground(page), invalid).toBe('rgb(16, 185, 129)');
    }
  });

  it('applies a valid stored brand colour to primary buttons', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('brandColor', '#6366F1'));
    await page.reload();
    await page.getByTestId('link-register').waitFor();
    expect(await cssVar(page, '--brand')).toBe('#6366f1');
    expect(await signUpBackground(page)).toBe('rgb(99, 102, 241)');
  });

  it('falls back to the default hue when an invalid colour is typed in Settings, and says it is not valid', async () => {
    const page = await browser.newPage();
    await page.goto('/settings');
    const box = page.getByTestId('brand-color-text');
    await box.fill('#6366F1');
    expect(await cssVar(page, '--brand')).toBe('#6366f1');
    await box.fill('zzz');
    await box.press('Enter');
    const error = page.getByTestId('brand-color-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('"zzz" is not a valid colour, so the default colour is used. Enter a hex colour such as #10b981.');
    expect(await cssVar(page, '--brand')).toBe('#10b981');
    expect(await signUpBackground(page)).toBe('rgb(16, 185, 129)');
    expect(await box.inputValue()).toBe('#10b981');
    expect(await page.getByTestId('brand-color-picker').inputValue()).toBe('#10b981');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await saveShot(page, 'settings-brand-colour-invalid');
    // The default stays after a reload; a valid colour then clears the message.
    await page.reload();
    await box.waitFor();
    expect(await cssVar(page, '--brand')).toBe('#10b981');
    await box.fill('#0ea5e9');
    await box.press('Enter');
    expect(await cssVar(page, '--brand')).toBe('#0ea5e9');
    expect(await error.count()).toBe(0);
  });

  it('starts light, switches to dark, and keeps the choice across reloads', async () => {
    const page = await browser.newPage();
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    await page.goto('/');
    await page.getByTestId('theme-toggle').waitFor();
    expect(await isDark()).toBe(false);

    await page.getByTestId('theme-toggle').click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    const darkBody = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(darkBody).not.toBe('rgb(250, 250, 250)');
    await saveShot(page, 'home-dark');

    await page.reload();
    await page.getByTestId('theme-toggle').waitFor();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(darkBody);

    await page.getByTestId('theme-toggle').click();
    await page.reload();
    await page.getByTestId('theme-toggle').waitFor();
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });
});
