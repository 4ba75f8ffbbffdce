/**
 * Credits in the browser: the balance card and its low-balance warning, and a credit pack bought
 * through Stripe Checkout end to end: the real server talks to a local fake Stripe through the
 * official SDK, the browser lands on the fake's checkout page, the signed webhook credits the
 * pack, and Settings shows the new balance whether the webhook lands before or after the redirect.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adjustBalance, useStripeTestServer } from './billing-helpers';
import { screenshotDir, uniqueUsername, useBrowser } from './harness';
import { saveShot, signUpViaApi, waitForToast } from './helpers';

const LOW_BALANCE = 'Low balance - Consider adding credits.';

describe('credits and Stripe checkout', () => {
  const browser = useBrowser();
  const shop = useStripeTestServer('wolfpack');

  async function openSettings(prefix: string): Promise<{ page: Page; username: string }> {
    const page = await browser.newPage({ baseUrl: shop.server.url });
    const username = uniqueUsername(prefix);
    await signUpViaApi(page, username);
    await page.goto('/settings');
    await page.getByTestId('balance-amount').waitFor();
    return { page, username };
  }

  const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

  /** Where Stripe sends the browser back after paying for `session`. */
  function successUrl(sessionId: string): string {
    const session = shop.stripe.sessions.get(sessionId);
    if (!session?.success_url) throw new Error(`session ${sessionId} has no success_url`);
    return session.success_url.replace('{CHECKOUT_SESSION_ID}', sessionId);
  }

  async function payAndDeliver(sessionId: string): Promise<void> {
    const delivered = await shop.deliver(shop.stripe.completeSession(sessionId));
    expect(delivered.status).toBe(200);
  }

  /** Clicks a pack's buy button and follows the browser to the fake Checkout page. */
  async function buyPack(page: Page, dollars: number): Promise<string> {
    await page.getByTestId(`buy-pack-${dollars}`).click();
    await page.waitForURL((url) => url.href.startsWith(`${shop.stripe.url}/c/pay/`));
    await page.getByRole('heading', { name: `Pay ${dollars} USD` }).waitFor();
    const session = shop.stripe.sessionByUrl(page.url());
    if (!session) throw new Error(`no session behind ${page.url()}`);
    expect(session.metadata).toMatchObject({ packDollars: String(dollars) });
    return session.id;
  }

  it("shows a new user's $15.00 balance, the grant and its reset date, then the low-balance warning below $5", async () => {
    const { page, username } = await openSettings('balance');
    expect(await text(page, 'balance-amount')).toBe('$15.00');
    expect(await text(page, 'balance-grant')).toBe('$5.00');
    const now = new Date();
    const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(await text(page, 'balance-reset')).toBe(reset.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }));
    expect(await page.getByTestId('low-balance-warning').count()).toBe(0);
    expect(await text(page, 'referral-code')).toMatch(/^WP[A-Z0-9]{6}$/);
    expect(await page.getByTestId('referral-link').inputValue()).toBe(`${shop.server.url}/?ref=${await text(page, 'referral-code')}`);
    await page.getByTestId('usage-empty').waitFor();
    // The header's user menu shows the balance too.
    expect(await text(page, 'user-menu-balance-chip')).toBe('$15.00');
    // Token pricing and the four packs, from GET /api/billing/packs.
    expect(await text(page, 'token-pricing')).toContain('$3.05 per 1,000 tokens');
    expect(await text(page, 'token-pricing')).toContain('about 20K tokens is about $60');
    // The packs come from their own query, which may still be loading after the balance's.
    await page.getByTestId('credit-packs').locator('li').nth(3).waitFor();
    const packs = (await page.getByTestId('credit-packs').locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(packs).toHaveLength(4);
    expect(packs[0]).toContain('$10');
    expect(packs[1]).toContain('$25 +2%');
    expect(packs[2]).toContain('$50 +4%');
    expect(packs[2]).toContain('Popular');
    expect(packs[3]).toContain('$100 +4%');
    await saveShot(page, 'settings-light', { fullPage: true });

    // $10.01 spent: 499 cents left, below the 500-cent threshold.
    expect(await adjustBalance(shop.server, username, -1001)).toBe(499);
    await page.reload();
    await page.getByTestId('low-balance-warning').waitFor();
    expect(await text(page, 'low-balance-warning')).toBe(LOW_BALANCE);
    expect(await text(page, 'balance-amount')).toBe('$4.99');
    await page.getByTestId('theme-dark').click();
    await saveShot(page, 'settings-dark-low-balance', { fullPage: true });

    // Exactly 500 is not low.
    await adjustBalance(shop.server, username, 1);
    await page.reload();
    await page.getByTestId('balance-amount').filter({ hasText: '$5.00' }).waitFor();
    expect(await page.getByTestId('low-balance-warning').count()).toBe(0);
  });

  it('goes to Checkout from a pack (pending meanwhile), then shows "crediting" until the webhook lands', async () => {
    const { page, username } = await openSettings('buyer');
    // Hold the top-up request to see the pending state.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/billing/top-up', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('buy-pack-25').click();
    await page.getByTestId('buy-pack-25').filter({ hasText: 'Opening checkout…' }).waitFor();
    for (const dollars of [10, 25, 50, 100]) expect(await page.getByTestId(`buy-pack-${dollars}`).isDisabled(), `$${dollars}`).toBe(true);
    release();
    await page.waitForURL((url) => url.href.startsWith(`${shop.stripe.url}/c/pay/`));
    const session = shop.stripe.sessionByUrl(page.url());
    expect(session?.amount_total).toBe(2500);
    expect(session?.metadata).toMatchObject({ packDollars: '25' });
    await page.unroute('**/api/billing/top-up');

    // Back from Checkout before Stripe called the webhook: the page waits, polling the balance.
    await page.goto(successUrl(session!.id));
    const status = page.getByTestId('checkout-status');
    await status.and(page.locator('[data-state="crediting"]')).waitFor();
    expect(await status.textContent()).toContain('Payment received, crediting…');
    await saveShot(page, 'settings-crediting');
    await payAndDeliver(session!.id);
    await status.and(page.locator('[data-state="credited"]')).waitFor({ timeout: 15_000 });
    expect(await status.textContent()).toContain('Credits added');
    // $25 + 2 % bonus on top of $15.00.
    expect(await text(page, 'checkout-new-balance')).toBe('$40.50');
    await page.getByTestId('balance-amount').filter({ hasText: '$40.50' }).waitFor();
    await page.getByTestId('user-menu-balance-chip').filter({ hasText: '$40.50' }).waitFor();
    await saveShot(page, 'settings-credited');

    // The Account page now shows the card of the payment and the purchase.
    await page.goto('/account');
    await page.getByTestId('payment-card').waitFor();
    expect(await text(page, 'payment-card')).toContain('4242');
    expect(await text(page, 'payment-card')).toContain('Expires 12/34');
    const activity = await page.getByTestId('activity-item').allTextContents();
    expect(activity.some((line) => line.includes('Credit purchase') && line.includes('+$25.00'))).toBe(true);
    expect(activity.some((line) => line.includes('Pack bonus') && line.includes('+$0.50'))).toBe(true);
    expect(username).toBeTruthy();
  });

  it('shows the new balance at once when the webhook landed before the redirect', async () => {
    const { page } = await openSettings('early');
    const sessionId = await buyPack(page, 10);
    await payAndDeliver(sessionId);
    // The same event again (Stripe retries): credited once.
    const again = await shop.deliver(shop.stripe.event('checkout.session.completed', shop.stripe.sessions.get(sessionId)!));
    expect(again.status).toBe(200);
    await page.goto(successUrl(sessionId));
    await page.getByTestId('checkout-status').and(page.locator('[data-state="credited"]')).waitFor();
    expect(await text(page, 'checkout-new-balance')).toBe('$25.00');
  });

  it('says nothing was charged after a cancelled checkout', async () => {
    const { page } = await openSettings('cancel');
    await page.goto('/settings?checkout=cancelled');
    const status = page.getByTestId('checkout-status');
    await status.and(page.locator('[data-state="cancelled"]')).waitFor();
    expect(await status.textContent()).toContain('Nothing was charged.');
    expect(await text(page, 'balance-amount')).toBe('$15.00');
  });

  it("toasts 'Failed to start checkout' and returns to idle when the top-up fails", async () => {
    const { page } = await openSettings('fail');
    await page.route('**/api/billing/top-up', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'Stripe could not be reached. Try again in a minute.', code: 'BAD_GATEWAY' }) }),
    );
    await page.getByTestId('buy-pack-50').click();
    const toast = await waitForToast(page, 'Stripe could not be reached. Try again in a minute.');
    expect(toast).toMatchObject({ title: 'Failed to start checkout', variant: 'destructive' });
    expect(await page.getByTestId('buy-pack-50').isEnabled()).toBe(true);
    expect(await text(page, 'buy-pack-50')).toBe('Buy $50');
    expect(new URL(page.url()).pathname).toBe('/settings');
  });

  it('disables the buy buttons on a server without Stripe keys', async () => {
    // The shared server of the run has no STRIPE_* settings.
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('nopay'));
    await page.goto('/settings');
    await page.getByTestId('payments-not-configured').waitFor();
    expect(await text(page, 'payments-not-configured')).toContain('Payments are not configured on this server');
    for (const dollars of [10, 25, 50, 100]) {
      const button = page.getByTestId(`buy-pack-${dollars}`);
      expect(await button.isDisabled()).toBe(true);
      expect((await button.textContent())?.trim()).toBe('Payments not configured');
    }
    if (screenshotDir) await page.getByTestId('settings-packs').screenshot({ path: `${screenshotDir}/settings-payments-off.png` });
  });
});
