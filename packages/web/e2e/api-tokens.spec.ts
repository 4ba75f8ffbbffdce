import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { saveShot, signUpViaApi, waitForToast } from './helpers';

describe('Settings: API tokens', () => {
  const browser = useBrowser();

  it('creates a named token shown once, lists its dates, and revokes it so it stops working', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, 'tokens-e2e');
    await page.goto('/settings');
    const section = page.getByTestId('settings-api-tokens');
    await section.getByTestId('api-token-none').waitFor();

    // A nameless token is refused in the form, with the schema's sentence.
    await section.getByTestId('api-token-create').click();
    await section.getByText('Give the token a name, such as "github-actions".').waitFor();

    await section.getByTestId('api-token-name').fill('github-actions');
    await section.getByTestId('api-token-expiry').selectOption({ label: '30 days' });
    await section.getByTestId('api-token-create').click();
    const value = section.getByTestId('api-token-new-value');
    await value.waitFor();
    const token = (await value.textContent())!.trim();
    expect(token).toMatch(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(await section.getByTestId('api-token-new').textContent()).toContain('Copy github-actions now: it will not be shown again.');

    const row = section.getByTestId('api-token-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('api-token-row-name').textContent()).toBe('github-actions');
    const in30Days = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    expect(await row.getByTestId('api-token-row-dates').textContent()).toBe(`Created ${today} · Never used · Expires ${in30Days}`);
    await saveShot(page, 'settings-api-tokens');

    // The token signs a script in; after a reload it is not shown any more, and its use is listed.
    const bearer = { authorization: `Bearer ${token}` };
    const me = await page.request.get('/api/auth/me', { headers: bearer });
    expect(me.status()).toBe(200);
    await page.reload();
    await section.getByTestId('api-token-row').waitFor();
    expect(await section.getByTestId('api-token-new').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(await section.getByTestId('api-token-row-dates').textContent()).toBe(`Created ${today} · Last used ${today} · Expires ${in30Days}`);

    await section.getByTestId('api-token-revoke').click();
    const dialog = page.getByTestId('api-token-revoke-dialog');
    await dialog.getByTestId('confirm-delete').click();
    await waitForToast(page, 'github-actions no longer works.');
    await section.getByTestId('api-token-none').waitFor();
    const refused = await page.request.get('/api/auth/me', { headers: bearer });
    expect(refused.status()).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('The API token was revoked. Create a new one under API tokens in Settings, or run `wolfpack login` again.');
  });

  it('is not shown to a visitor', async () => {
    const page = await browser.newPage();
    await page.goto('/settings');
    // The sign-in prompt shows once the sign-in check has answered; until then the page cannot know.
    await page.getByTestId('settings-credits').getByTestId('sign-in-prompt').waitFor();
    expect(await page.getByTestId('settings-api-tokens').count()).toBe(0);
  });
});
