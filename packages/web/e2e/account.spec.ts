/** The Account page (companion §2 Account): details, payment method, activity, and Cancel Account. */
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { pathOf, saveShot, signUpViaApi } from './helpers';

describe('Account', () => {
  const browser = useBrowser();

  it('shows the account, its activity and the way to add a card', async () => {
    const page = await browser.newPage();
    const username = uniqueUsername('acct');
    await signUpViaApi(page, username);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Account Information' }).waitFor();
    await page.getByTestId('account-details').waitFor();
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
    expect(await text('account-username')).toBe(username);
    expect(await text('account-status')).toBe('active');
    expect(await text('account-billing-cycle')).toBe('Pay-as-you-go');
    expect(await text('account-created')).toBe(new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));
    await page.getByTestId('account-balance').filter({ hasText: '$15.00' }).waitFor();
    // No payment yet: the way to the packs in Settings.
    expect(await page.getByTestId('add-payment-method').getAttribute('href')).toBe('/settings#buy-credits');
    const activity = await page.getByTestId('activity-item').allTextContents();
    expect(activity.some((line) => line.includes('Welcome bonus') && line.includes('+$10.00'))).toBe(true);
    expect(activity.some((line) => line.includes('Monthly free credits') && line.includes('+$5.00'))).toBe(true);
    expect(await page.getByTestId('link-usage-metrics').getAttribute('href')).toBe('/usage-metrics');
    await saveShot(page, 'account-light', { fullPage: true });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.getByTestId('account-details').waitFor();
    await saveShot(page, 'account-dark', { fullPage: true });

    await page.getByTestId('add-payment-method').click();
    await page.waitForURL((url) => url.pathname === '/settings' && url.hash === '#buy-credits');
    await page.getByTestId('settings-packs').waitFor();
  });

  it('cancels the account after the username is typed, signs out and goes to /', async () => {
    const page = await browser.newPage();
    const username = uniqueUsername('leaver');
    const password = 'correct-horse-battery';
    await signUpViaApi(page, username, password);
    await page.goto('/account');
    await page.getByTestId('cancel-account').click();
    const dialog = page.getByTestId('cancel-account-dialog');
    await dialog.waitFor();
    // It says what ends with the account: the subscription, keys, listings and public capsules.
    expect(await dialog.textContent()).toContain('Your njin subscription is cancelled (it ends with the period already paid for) and your njin keys stop working; your Showcase listings are taken down (copies already bought stay with their buyers) and your capsules become private.');
    const confirm = dialog.getByTestId('confirm-cancel-account');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('cancel-account-username').fill(`${username}x`);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('cancel-account-username').fill(username);
    expect(await confirm.isEnabled()).toBe(true);
    await saveShot(page, 'account-cancel-dialog');

    // "Keep my account" changes nothing.
    await dialog.getByRole('button', { name: 'Keep my account' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await page.request.get('/api/auth/me')).status()).toBe(200);

    await page.getByTestId('cancel-account').click();
    await dialog.getByTestId('cancel-account-username').fill(username);
    await dialog.getByTestId('confirm-cancel-account').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('link-login').waitFor();
    expect(pathOf(page)).toBe('/');
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    // The account is gone: its credentials no longer sign in.
    const login = await page.request.post('/api/auth/login', { data: { username, password } });
    expect(login.ok()).toBe(false);
  });

  it('asks a visitor to sign in', async () => {
    const page = await browser.newPage();
    await page.goto('/account');
    await page.getByTestId('sign-in-prompt').waitFor();
    expect(await page.getByTestId('sign-in-prompt').textContent()).toContain('Sign in to see your account');
  });
});
