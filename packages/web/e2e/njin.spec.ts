/**
 * The njin page (companion §2 /njin, §4 Licence, §5, §8): the Setup tab's disabled buttons and
 * every licence message, key management (a key shown once, listed by prefix, revoked), and the
 * $29 subscription bought through the real server talking to a local fake Stripe, whose signed
 * webhooks activate the licence the Usage & Stats tab then shows.
 */
import { generateNjinApiKey } from '@wolfpack/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStripeTestServer } from './billing-helpers';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { saveShot, signUpViaApi, waitForToast } from './helpers';

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

async function typeKey(page: Page, key: string) {
  await page.getByTestId('njin-api-key').fill(key);
}

describe('njin: setup, keys and licence', () => {
  const browser = useBrowser();
  const shop = useStripeTestServer('njin');

  it('signed out: buttons wait for a key, and every failure says so in the spec words', async () => {
    const page = await browser.newPage();
    await page.goto('/njin');
    await page.getByTestId('njin-setup').waitFor();
    expect(await page.getByTestId('tab-setup').getAttribute('aria-selected')).toBe('true');
    expect(await text(page, 'tab-usage')).toBe('Usage & Stats');
    await page.getByTestId('njin-install-guide').waitFor();
    expect(await text(page, 'njin-install-guide')).toContain('Get your API key');

    // No key: both disabled; spaces alone are no key either.
    expect(await page.getByTestId('njin-copy-snippet').isDisabled()).toBe(true);
    expect(await page.getByTestId('njin-validate').isDisabled()).toBe(true);
    await typeKey(page, '   ');
    expect(await page.getByTestId('njin-validate').isDisabled()).toBe(true);

    // A mistyped key (its checksum does not match): Validate names the typo as Copy Snippet does,
    // without asking the server.
    let validations = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/njin/validate')) validations += 1;
    });
    await typeKey(page, 'njin_AAAAAAAAAAAAAAAAAAAAAA000000');
    await page.getByTestId('njin-validate').click();
    const typo = await waitForToast(page, 'This njin API key has a typo (its checksum does not match).');
    expect(typo).toMatchObject({
      title: 'Validation Failed',
      description: 'This njin API key has a typo (its checksum does not match). Copy it again from the njin page.',
      variant: 'destructive',
    });
    expect(validations).toBe(0);
    await page.getByTestId('njin-copy-snippet').click();
    const typoSnippet = await waitForToast(page, 'Request failed with status 400. This njin API key has a typo (its checksum does not match).');
    expect(typoSnippet.title).toBe('Failed to generate snippet');

    // A well-formed key that does not exist: Invalid License.
    const unknownKey = generateNjinApiKey();
    await typeKey(page, unknownKey);
    expect(await page.getByTestId('njin-validate').isDisabled()).toBe(false);
    await page.getByTestId('njin-validate').click();
    const invalid = await waitForToast(page, 'no active licence');
    expect(invalid).toMatchObject({ title: 'Invalid License', variant: 'destructive' });

    // A non-ok answer: the status.
    await typeKey(page, 'not-a-key');
    await page.getByTestId('njin-validate').click();
    const failed = await waitForToast(page, 'Validation failed with status 400');
    expect(failed.title).toBe('Validation Failed');
    await page.getByTestId('njin-copy-snippet').click();
    const snippetFailed = await waitForToast(page, 'Request failed with status 400');
    expect(snippetFailed.title).toBe('Failed to generate snippet');

    // No answer at all: the request failed.
    await page.route('**/api/njin/validate', (route) => route.abort());
    await page.route('**/api/njin/snippet**', (route) => route.abort());
    await typeKey(page, unknownKey);
    await page.getByTestId('njin-validate').click();
    expect((await waitForToast(page, 'Validation request failed')).title).toBe('Validation Failed');
    await page.getByTestId('njin-copy-snippet').click();
    const fetchFailed = await waitForToast(page, 'Failed to fetch snippet');
    expect(fetchFailed.title).toBe('Failed to generate snippet');
    expect(fetchFailed.description).toMatch(/^Failed to fetch snippet: .+/);

    // Keys and the licence belong to an account.
    await page.getByTestId('sign-in-prompt').waitFor();
    expect(await page.getByTestId('njin-keys').count()).toBe(0);
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('njin-usage').waitFor();
    await page.getByTestId('sign-in-prompt').waitFor();
    expect(await text(page, 'njin-price')).toBe('$29');
    expect(await text(page, 'njin-pricing')).toContain('Unlimited iterations');
    expect(await page.getByTestId('njin-subscribe').count()).toBe(0);
    await saveShot(page, 'njin-signed-out-usage');
  });

  it('a key is shown once, fills the field, gets a snippet, and stops working when revoked; then the $29 licence activates', async () => {
    const page = await browser.newPage({ baseUrl: shop.server.url });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpViaApi(page, uniqueUsername('njin'));
    await page.goto('/njin');
    await page.getByTestId('njin-keys').waitFor();
    await page.getByTestId('njin-no-keys').waitFor();

    // Create: the whole key once, with the warning, and in the field.
    await page.getByTestId('njin-create-key').click();
    await page.getByTestId('njin-new-key').waitFor();
    expect(await text(page, 'njin-new-key')).toContain('it will not be shown again');
    const key = await text(page, 'njin-new-key-value');
    expect(key).toMatch(/^njin_/);
    expect(await page.getByTestId('njin-api-key').inputValue()).toBe(key);
    await page.getByTestId('njin-key-row').waitFor();
    const prefix = (await text(page, 'njin-key-prefix')).replace(/…$/, '');
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length);
    expect(await text(page, 'njin-key-list')).not.toContain(key);
    await page.getByTestId('njin-new-key-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await saveShot(page, 'njin-key-created', { fullPage: true });

    // Snippet: shown, copied, with the key in it.
    await page.getByTestId('njin-copy-snippet').click();
    expect((await waitForToast(page, 'on your clipboard')).title).toBe('Copied!');
    await page.getByTestId('njin-snippet').waitFor();
    const snippet = await text(page, 'njin-snippet-code');
    expect(snippet).toContain(key);
    expect(snippet).toContain('/api/njin/iterate');
    expect(snippet).toContain('curl');
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(snippet);

    // No licence yet: the key exists but is not valid.
    await page.getByTestId('njin-validate').click();
    expect((await waitForToast(page, 'no active licence')).title).toBe('Invalid License');

    // Usage & Stats without a licence: the purchase prompt.
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('njin-purchase-prompt').waitFor();
    expect(await text(page, 'njin-license-status')).toBe('Inactive');
    expect(await text(page, 'njin-usage-count')).toBe('0');

    // Subscribe Now: disabled while pending, then off to Checkout.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/njin/subscribe', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('njin-subscribe').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="njin-subscribe"]') as HTMLButtonElement | null)?.disabled === true);
    release();
    await page.waitForURL((url) => url.href.startsWith(`${shop.stripe.url}/c/pay/`));
    const session = shop.stripe.sessionByUrl(page.url());
    if (!session) throw new Error(`no session behind ${page.url()}`);
    expect(session.mode).toBe('subscription');
    await page.unroute('**/api/njin/subscribe');

    // Back before the webhook: the page waits for it; then the licence is Active.
    await page.goto((session.success_url ?? '').replace('{CHECKOUT_SESSION_ID}', session.id));
    await page.getByTestId('njin-activating').waitFor();
    const completed = await shop.deliver(shop.stripe.completeSession(session.id));
    expect(completed.status).toBe(200);
    const subscriptionId = String(shop.stripe.sessions.get(session.id)?.subscription ?? '');
    if (subscriptionId) expect((await shop.deliver(shop.stripe.firstInvoicePaid(subscriptionId))).status).toBe(200);
    await page.locator('[data-testid="njin-license-status"]', { hasText: /^Active$/ }).waitFor({ timeout: 15_000 });
    expect(await text(page, 'njin-license-status')).toBe('Active');
    expect(await text(page, 'njin-expiry')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(await page.getByTestId('njin-purchase-prompt').count()).toBe(0);
    await page.getByTestId('njin-subscribed').waitFor();
    await saveShot(page, 'njin-usage-active', { fullPage: true });

    // Now the key validates, with its usage.
    await page.getByTestId('tab-setup').click();
    await typeKey(page, key);
    await page.getByTestId('njin-validate').click();
    const valid = await waitForToast(page, 'Your licence is active');
    expect(valid).toMatchObject({ title: 'Licence Valid', description: 'Your licence is active: 0 iterations so far.', variant: 'default' });

    // Revoke: asked first, then gone, and the key no longer validates.
    await page.getByTestId('njin-revoke-key').click();
    const dialog = page.getByTestId('njin-revoke-dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    expect((await waitForToast(page, 'no longer works')).title).toBe('Key revoked');
    await page.getByTestId('njin-no-keys').waitFor();
    await page.getByTestId('njin-validate').click();
    expect((await waitForToast(page, 'no active licence')).title).toBe('Invalid License');

    // Cancel: asked first; the licence stays active until the period ends.
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('njin-cancel').click();
    const cancelDialog = page.getByTestId('njin-cancel-dialog');
    await cancelDialog.waitFor();
    await cancelDialog.getByRole('button', { name: 'Cancel subscription' }).click();
    expect((await waitForToast(page, 'it will not renew')).title).toBe('Subscription cancelled');
    expect(await text(page, 'njin-license-status')).toBe('Active');
  });

  it('Subscribe Now is off on a server without Stripe keys and comes back when checkout cannot start; a failed licence load says to refresh', async () => {
    // The shared server has no Stripe keys: Subscribe Now says so, as the credit packs do, and sends nothing.
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('njin-nopay'));
    let subscribes = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/njin/subscribe')) subscribes += 1;
    });
    await page.goto('/njin?tab=usage');
    await page.getByTestId('njin-pricing').getByTestId('payments-not-configured').waitFor();
    const off = page.getByTestId('njin-subscribe');
    expect(await off.isDisabled()).toBe(true);
    expect(await text(page, 'njin-subscribe')).toBe('Payments not configured');
    expect(await text(page, 'payments-not-configured')).toContain('Payments are not configured on this server');
    await off.click({ force: true });
    expect(subscribes).toBe(0);
    await saveShot(page, 'njin-payments-off');

    // With payments on, a checkout that cannot start toasts and Subscribe Now works again.
    const paying = await browser.newPage({ baseUrl: shop.server.url });
    await signUpViaApi(paying, uniqueUsername('njin-fail'));
    await paying.route('**/api/njin/subscribe', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ error: 'Stripe could not be reached. Try again in a minute.', code: 'BAD_GATEWAY' }) }),
    );
    await paying.goto('/njin?tab=usage');
    await paying.getByTestId('njin-subscribe').click();
    const toast = await waitForToast(paying, 'Stripe could not be reached. Try again in a minute.');
    expect(toast).toMatchObject({ title: 'Subscription Failed', variant: 'destructive' });
    await paying.waitForFunction(() => (document.querySelector('[data-testid="njin-subscribe"]') as HTMLButtonElement | null)?.disabled === false);
    expect(await text(paying, 'njin-subscribe')).toBe('Subscribe Now');

    const broken = await browser.newPage();
    await signUpViaApi(broken, uniqueUsername('njin-500'));
    await broken.route('**/api/njin/license**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom","code":"INTERNAL"}' }));
    await broken.goto('/njin?tab=usage');
    await broken.getByTestId('njin-license-error').waitFor();
    expect(await text(broken, 'njin-license-error')).toBe('Failed to load license information. Please refresh the page.');
  });

  it('refuses an eleventh live key with the sentence that says to revoke one', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('keys'));
    for (let i = 0; i < 10; i += 1) {
      const res = await page.request.post('/api/njin/keys');
      expect(res.status()).toBe(201);
    }
    await page.goto('/njin');
    await page.getByTestId('njin-key-row').first().waitFor();
    await page.getByTestId('njin-create-key').click();
    const refused = await waitForToast(page, 'You already have 10 active API keys');
    expect(refused).toMatchObject({
      title: 'Key not created',
      description: 'You already have 10 active API keys, the most one account can hold. Revoke a key you no longer use, then create a new one.',
    });
    expect(await page.getByTestId('njin-new-key').count()).toBe(0);
    expect(await page.getByTestId('njin-key-row').count()).toBe(10);
  });

  it('on a server without payments says a licence cannot be bought here, what the operator sets, and how the operator grants one', async () => {
    // The shared server has no STRIPE_* keys.
    const page = await browser.newPage();
    const username = uniqueUsername('njin-grant');
    await signUpViaApi(page, username);
    await page.goto('/njin');
    const notice = page.getByTestId('njin-payments-off');
    await notice.waitFor();
    const said = ((await notice.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(said).toContain('Payments are not configured on this server, so njin licences cannot be bought here.');
    expect(said).toContain('STRIPE_SECRET_KEY');
    expect(said).toContain('STRIPE_WEBHOOK_SECRET');
    // The banner can show before the sign-in check answers, with USER in place of the name.
    await expect.poll(() => text(page, 'njin-grant-command')).toBe(`wolfpack admin grant-licence ${username} --until DATE`);
    // The install guide does not send the user to a Subscribe Now that cannot work.
    expect(await text(page, 'njin-install-step-license')).toMatch(/^Ask the server’s operator for a licence/);
    await saveShot(page, 'njin-payments-off-setup', { fullPage: true });

    // A new key without a licence: Validate says why, and what to do on this server.
    await page.getByTestId('njin-create-key').click();
    await page.getByTestId('njin-new-key').waitFor();
    await page.getByTestId('njin-validate').click();
    const invalid = await waitForToast(page, 'no active licence');
    expect(invalid).toMatchObject({
      title: 'Invalid License',
      description: `This key has no active licence. Licences cannot be bought on this server (payments are not configured): ask its operator to grant you one with wolfpack admin grant-licence ${username} --until DATE.`,
      variant: 'destructive',
    });

    // The Usage & Stats tab says it too; a visitor as well, with USER in the command.
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('njin-purchase-prompt').waitFor();
    expect(await notice.count()).toBe(1);
    const visitor = await browser.newPage();
    await visitor.goto('/njin?tab=usage');
    await visitor.getByTestId('njin-payments-off').waitFor();
    expect(await text(visitor, 'njin-grant-command')).toBe('wolfpack admin grant-licence USER --until DATE');

    // With payments on, none of this shows: Subscribe Now is the way.
    const paying = await browser.newPage({ baseUrl: shop.server.url });
    await signUpViaApi(paying, uniqueUsername('njin-pay'));
    await paying.goto('/njin?tab=usage');
    await paying.getByTestId('njin-subscribe').filter({ hasText: 'Subscribe Now' }).waitFor();
    // Enabled once the packs' read says payments are configured, a read of its own.
    await expect.poll(() => paying.getByTestId('njin-subscribe').isDisabled()).toBe(false);
    expect(await paying.getByTestId('njin-payments-off').count()).toBe(0);
  });

  describe('a licence the operator granted (a server without payments)', () => {
    const SECRET = 'e2e-admin-secret-for-grants';
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('says who granted it and until when, with no payment banner and nothing to cancel', async () => {
      const page = await browser.newPage({ baseUrl: server.url });
      const username = uniqueUsername('granted');
      await signUpViaApi(page, username);
      // What `wolfpack admin grant-licence USER --until 2027-01-31` sends.
      const granted = await page.request.put(`/api/admin/njin-licences/${encodeURIComponent(username)}`, {
        headers: { 'X-Admin-Secret': SECRET },
        data: { until: '2027-01-31' },
      });
      expect(granted.status(), await granted.text()).toBe(200);

      await page.goto('/njin?tab=usage');
      await page.getByTestId('njin-granted').waitFor();
      expect(await text(page, 'njin-granted')).toBe('Licence granted by the operator until 31 Jan 2027');
      expect(await text(page, 'njin-license-status')).toBe('Active');
      expect(await text(page, 'njin-price')).toBe('$29');
      // Not a subscription: nothing says so, and there is nothing to cancel.
      expect(await page.getByTestId('njin-subscribed').count()).toBe(0);
      expect(await page.getByTestId('njin-cancel').count()).toBe(0);
      expect(await page.getByText('Cancel subscription').count()).toBe(0);
      expect(await page.getByText("You're subscribed.").count()).toBe(0);
      // The payments banner is for those who need a licence; this user holds one.
      expect(await page.getByTestId('njin-payments-off').count()).toBe(0);
      expect(await page.getByTestId('payments-not-configured').count()).toBe(0);
      expect(await page.getByTestId('njin-purchase-prompt').count()).toBe(0);
      const body = (await page.locator('body').textContent()) ?? '';
      expect(body).not.toMatch(/ask (the|its) operator/i);
      expect(body).not.toMatch(/\blicense\b/i);
      await saveShot(page, 'njin-licence-granted', { fullPage: true });

      // The Setup tab asks for no licence either, and a key of this user validates.
      await page.getByTestId('tab-setup').click();
      expect(await text(page, 'njin-install-step-license')).toMatch(/^Your licence is active/);
      expect(await page.getByTestId('njin-payments-off').count()).toBe(0);
      await page.getByTestId('njin-create-key').click();
      await page.getByTestId('njin-new-key').waitFor();
      await page.getByTestId('njin-validate').click();
      expect((await waitForToast(page, 'Your licence is active')).title).toBe('Licence Valid');

      // A user of the same server without a grant still sees the banner and the operator's command.
      const other = await browser.newPage({ baseUrl: server.url });
      const otherName = uniqueUsername('ungranted');
      await signUpViaApi(other, otherName);
      await other.goto('/njin?tab=usage');
      await other.getByTestId('njin-payments-off').waitFor();
      await expect.poll(() => text(other, 'njin-grant-command')).toBe(`wolfpack admin grant-licence ${otherName} --until DATE`);
      expect(await other.getByTestId('njin-granted').count()).toBe(0);
    });
  });
});
