import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { pathOf, registerViaApi, saveShot, waitForToast } from './helpers';

const PASSWORD = 'correct-horse-battery';

describe('sign-in and account creation', () => {
  const browser = useBrowser();

  it('registers, shows the user in the header, and logs out', async () => {
    const page = await browser.newPage();
    const username = uniqueUsername();

    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await saveShot(page, 'login-page');

    await page.getByRole('link', { name: 'Sign up', exact: true }).click();
    await page.getByRole('heading', { name: 'Join the Pack' }).waitFor();
    expect(pathOf(page)).toBe('/register');
    expect(await page.getByText('Create your Wolfpack account').isVisible()).toBe(true);
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('placeholder')).toBe('min. 8 characters');

    const sent: unknown[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/auth/register')) sent.push(req.postDataJSON());
    });
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();

    const toast = await waitForToast(page, 'Your account has been created successfully.');
    expect(toast).toEqual({
      title: 'Success',
      description: 'Your account has been created successfully.',
      variant: 'default',
    });
    await page.waitForURL((url) => url.pathname === '/');
    // Only username and password go over the wire; confirmPassword stays in the form.
    expect(sent).toEqual([{ username, password: PASSWORD }]);

    const trigger = page.getByTestId('user-menu-trigger');
    await trigger.filter({ hasText: username }).waitFor();
    expect(await page.getByTestId('user-menu-plan').textContent()).toBe('Free');
    expect(await page.getByTestId('link-login').count()).toBe(0);
    await saveShot(page, 'logged-in-header');

    await trigger.click();
    const logout = page.getByRole('menuitem', { name: 'Logout' });
    await logout.waitFor();
    await saveShot(page, 'user-menu-open');
    await Promise.all([page.waitForEvent('load'), logout.click()]);

    await page.getByTestId('link-login').waitFor();
    expect(await page.getByTestId('link-register').textContent()).toBe('Sign Up');
    expect(await trigger.count()).toBe(0);
  });

  it("shows the server's sentence in a destructive toast when the password is wrong", async () => {
    const page = await browser.newPage();
    const username = uniqueUsername();
    await registerViaApi(page, username, PASSWORD);

    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();

    const toast = await waitForToast(page, 'Invalid username or password.');
    expect(toast).toEqual({ title: 'Error', description: 'Invalid username or password.', variant: 'destructive' });
    expect(pathOf(page)).toBe('/login');
    // The notification area: at most 420px wide on a large screen, and F8 moves focus into it.
    const viewport = page.getByRole('region', { name: /Notifications/ }).locator('ol');
    expect((await viewport.boundingBox())!.width).toBeLessThanOrEqual(420);
    await page.keyboard.press('F8');
    expect(await viewport.evaluate((el) => el === document.activeElement)).toBe(true);
    // The form is usable again and the visitor is still signed out.
    expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
    expect(await page.getByTestId('link-login').isVisible()).toBe(true);
  });

  it('validates the registration form in the browser and sends nothing', async () => {
    const page = await browser.newPage();
    let requests = 0;
    page.on('request', (req) => {
      if (req.url().includes('/api/auth/register')) requests += 1;
    });
    await page.goto('/register');
    const submit = page.getByRole('button', { name: 'Create Account' });

    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await submit.click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Password must be at least 8 characters').waitFor();
    expect(await page.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Username').fill('valid-name');
    await page.getByLabel('Password', { exact: true }).fill('long-enough-1');
    await page.getByLabel('Confirm Password').fill('long-enough-2');
    await submit.click();
    await page.getByText("Passwords don't match").waitFor();
    expect(await page.getByText('Username must be at least 3 characters').count()).toBe(0);
    expect(await page.getByText('Password must be at least 8 characters').count()).toBe(0);
    expect(await page.getByLabel('Confirm Password').getAttribute('aria-invalid')).toBe('true');

    expect(requests).toBe(0);
    expect(pathOf(page)).toBe('/register');
  });

  it("reads 'Signing in...' and disables the form while the request runs", async () => {
    const page = await browser.newPage();
    const username = uniqueUsername();
    await registerViaApi(page, username, PASSWORD);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    await page.route('**/api/auth/login', async (route) => {
      arrived();
      await released;
      await route.continue();
    });

    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await held;

    const busy = page.getByRole('button', { name: 'Signing in...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await page.getByLabel('Username').isDisabled()).toBe(true);
    expect(await page.getByLabel('Password').isDisabled()).toBe(true);

    release();
    const toast = await waitForToast(page, 'You have successfully logged in.');
    expect(toast.title).toBe('Success');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('user-menu-trigger').filter({ hasText: username }).waitFor();
  });
});
