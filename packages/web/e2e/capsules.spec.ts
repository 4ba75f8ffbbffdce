/**
 * PackCast capsules (companion §2 Capsule view, My capsules, Discovery; §6): a build records a
 * private capsule, strangers cannot open it, the owner publishes and shares it with their referral
 * code, and a logged-out visitor opens the shared link. Runs on the shared server, whose demo
 * engines build offline.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, saveShot, signUpViaApi, waitForToast } from './helpers';

const IDEA = 'A habit tracker with streaks and weekly summaries';

/** The one capsule card on /my-capsules once the list has loaded. */
async function myOnlyCapsule(page: Page) {
  await page.goto('/my-capsules');
  const card = page.getByTestId('capsule-card');
  await card.waitFor();
  expect(await card.count()).toBe(1);
  return card;
}

async function figure(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).textContent()) ?? '').trim();
}

describe('PackCast capsules', () => {
  const browser = useBrowser();

  it('records a private capsule, publishes it and shares it with the referral code', async () => {
    const owner = await browser.newPage();
    await owner.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpViaApi(owner, uniqueUsername('capsule'));
    await buildProjectViaApi(owner, IDEA);

    // My capsules: the new capsule is private, with the totals to match.
    let card = await myOnlyCapsule(owner);
    const slug = (await card.getAttribute('data-slug')) ?? '';
    expect(slug).not.toBe('');
    expect((await card.getByTestId('capsule-visibility').textContent())?.trim()).toBe('Private');
    expect(await figure(owner, 'total-capsules')).toBe('1');
    expect(await figure(owner, 'total-private')).toBe('1');
    expect(await figure(owner, 'total-public')).toBe('0');
    expect(await figure(owner, 'total-views')).toBe('0');
    await saveShot(owner, 'capsules-my-private', { fullPage: true });

    // A logged-out visitor (a fresh context) cannot open a private capsule.
    const stranger = await browser.newPage();
    await stranger.goto(`/capsules/${slug}`);
    const notFound = stranger.getByTestId('capsule-not-found');
    await notFound.waitFor();
    expect(await notFound.getByRole('heading').textContent()).toBe('Capsule Not Found');
    expect(await notFound.textContent()).toContain("doesn't exist or is private");
    await saveShot(stranger, 'capsules-not-found');
    await notFound.getByRole('link', { name: 'Back to Home' }).click();
    await stranger.waitForURL((url) => url.pathname === '/');

    // Publish.
    await card.getByTestId('capsule-toggle-visibility').click();
    const toast = await waitForToast(owner, 'is public');
    expect(toast.title).toBe('Capsule visibility updated');
    await owner.locator('[data-testid="capsule-visibility"]', { hasText: 'Public' }).waitFor();
    card = owner.getByTestId('capsule-card');
    expect((await card.getByTestId('capsule-toggle-visibility').textContent())?.trim()).toBe('Make Private');
    expect(await figure(owner, 'total-public')).toBe('1');
    expect(await figure(owner, 'total-private')).toBe('0');

    // The owner's own page: Share dialog, Copy Link carries ?ref={their code}.
    const status = (await (await owner.request.get('/api/subscription/status')).json()) as { referralCode: string | null };
    expect(status.referralCode).toBeTruthy();
    await card.getByTestId('capsule-view').click();
    await owner.waitForURL((url) => url.pathname === `/capsules/${slug}`);
    await owner.getByTestId('capsule-page').waitFor();
    await owner.getByTestId('capsule-share').click();
    const dialog = owner.getByTestId('capsule-share-dialog');
    await dialog.waitFor();
    const copy = dialog.getByTestId('share-copy');
    await owner.waitForFunction(() => !(document.querySelector('[data-testid="share-copy"]') as HTMLButtonElement | null)?.disabled);
    await copy.click();
    await dialog.locator('[data-testid="share-copy"][data-state="copied"]').waitFor();
    expect((await copy.textContent())?.trim()).toBe('Copied!');
    const link = await owner.evaluate(() => navigator.clipboard.readText());
    const origin = new URL(owner.url()).origin;
    expect(link).toBe(`${origin}/capsules/${slug}?ref=${status.referralCode}`);
    expect(await dialog.getByTestId('capsule-share-link').inputValue()).toBe(link);
    await saveShot(owner, 'capsules-share-dialog');
    // "Copied!" shows for 2 s, then the label comes back.
    await dialog.locator('[data-testid="share-copy"][data-state="idle"]').waitFor({ timeout: 4000 });
    expect((await copy.textContent())?.trim()).toBe('Copy Link');
    // The owner's own share is logged, not counted (like their views): the count stays 0.
    await owner.locator('[data-testid="capsule-shares"]', { hasText: /^0$/ }).waitFor();

    // Twitter opens its intent page with the link (stubbed: the test runs offline).
    await owner.context().route('https://twitter.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>twitter</p>' }));
    const [popup] = await Promise.all([owner.waitForEvent('popup'), dialog.getByTestId('share-twitter').click()]);
    const intent = new URL(popup.url());
    expect(intent.origin + intent.pathname).toBe('https://twitter.com/intent/tweet');
    expect(intent.searchParams.get('url')).toBe(link);
    await popup.close();
    await owner.locator('[data-testid="capsule-shares"]', { hasText: /^0$/ }).waitFor();

    // A logged-out visitor opens the shared link: title, metrics, timeline, final code.
    const visitor = await browser.newPage();
    await visitor.goto(link.slice(origin.length));
    await visitor.getByTestId('capsule-page').waitFor();
    const title = await figure(visitor, 'capsule-title');
    expect(title.length).toBeGreaterThan(0);
    expect(await figure(visitor, 'metric-duration')).toMatch(/^\d+\.\ds$/);
    expect(await figure(visitor, 'metric-cost')).toMatch(/^\$\d+\.\d{3}$/);
    expect(await figure(visitor, 'metric-tokens')).toMatch(/^[\d,]+$/);
    // The e2e server runs no sandbox: the recorded verdict is "not proven", and the capsule says so.
    expect(await figure(visitor, 'metric-verdict')).toBe('Not proven');
    const types = await visitor.getByTestId('timeline-event').evaluateAll((els) => els.map((el) => el.getAttribute('data-event-type')));
    expect(types[0]).toBe('prompt_received');
    expect(types.at(-1)).toBe('session_complete');
    // Its line gives the no-sandbox reason once, whole, and names the checks it stopped after it.
    const complete = (await visitor.locator('[data-testid="timeline-event"][data-event-type="session_complete"]').textContent()) ?? '';
    expect(complete.split('no sandbox on this server')).toHaveLength(2);
    expect(complete).toMatch(/did not run/);
    expect(complete).not.toContain('…');
    const timelineHeight = await visitor.getByTestId('capsule-timeline').evaluate((el) => el.getBoundingClientRect().height);
    expect(timelineHeight).toBe(400);
    // Built without AI Enhance: the timeline says so once, and no step of it says "Enhanced".
    expect(await figure(visitor, 'capsule-timeline')).toContain('Built from the original prompt (no enhancement)');
    expect(await visitor.locator('[data-testid="timeline-event"][data-event-type="code_refined"]').count()).toBeGreaterThan(0);
    expect(await visitor.getByTestId('timeline-enhanced').count()).toBe(0);
    expect(await figure(visitor, 'capsule-timeline')).not.toMatch(/Enhanced/);
    expect((await figure(visitor, 'capsule-original-prompt')).length).toBeGreaterThan(0);
    const code = (await visitor.getByTestId('capsule-final-code').getByTestId('file-content').textContent()) ?? '';
    expect(code).toMatch(/<html/i);
    // The files' markup is text: no element of theirs made it into the page.
    expect(await visitor.getByTestId('capsule-final-code').locator('html, body, script, h1, form').count()).toBe(0);
    // The visitor's link remembered the referral code for a sign-up.
    expect(await visitor.evaluate(() => localStorage.getItem('referrerCode'))).toBe(status.referralCode);
    const viewsSeen = Number((await figure(visitor, 'capsule-views')).replace(/,/g, ''));
    await saveShot(visitor, 'capsules-public-view', { fullPage: true });

    // A different viewer (signed in) sees the count one higher.
    const second = await browser.newPage();
    await signUpViaApi(second, uniqueUsername('viewer'));
    await second.goto(`/capsules/${slug}`);
    await second.getByTestId('capsule-page').waitFor();
    expect(Number((await figure(second, 'capsule-views')).replace(/,/g, ''))).toBe(viewsSeen + 1);

    // Discover: the published capsule is in Latest.
    await visitor.goto('/discover');
    await visitor.getByTestId('tab-latest').click();
    const latest = visitor.locator(`[data-testid="capsule-grid-latest"] [data-slug="${slug}"]`);
    await latest.waitFor();
    expect((await latest.getByTestId('capsule-card-title').textContent())?.trim()).toBe(title);
    await saveShot(visitor, 'capsules-discover-latest');
    await latest.getByRole('link').click();
    await visitor.waitForURL((url) => url.pathname === `/capsules/${slug}`);

    // Back on My capsules the owner sees the views and shares (their own shares not among them).
    card = await myOnlyCapsule(owner);
    expect(Number(await figure(owner, 'total-shares'))).toBe(0);
    expect(Number(await figure(owner, 'total-views'))).toBeGreaterThanOrEqual(viewsSeen + 1);
    await saveShot(owner, 'capsules-my-public', { fullPage: true });
    // The card's Share copies the link with the code. The server logs the owner's share without
    // counting it (shares count once per other person per day, or Share in a loop would game
    // trending).
    const shared = owner.waitForResponse((res) => res.url().endsWith(`/share`) && res.request().method() === 'POST');
    await card.getByTestId('capsule-share-link').click();
    expect((await waitForToast(owner, 'capsule link is on your clipboard')).title).toBe('Copied!');
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await (await shared).json()).toEqual({ shareCount: 0 });
    await owner.locator('[data-testid="total-shares"]', { hasText: /^0$/ }).waitFor();

    // Make Private again: strangers are back to not found.
    await card.getByTestId('capsule-toggle-visibility').click();
    await waitForToast(owner, 'is private again');
    await owner.locator('[data-testid="capsule-visibility"]', { hasText: 'Private' }).waitFor();
    const later = await browser.newPage();
    await later.goto(`/capsules/${slug}`);
    await later.getByTestId('capsule-not-found').waitFor();
  });

  it('says "Enhanced" on the enhancement steps of an enhanced build, and on none of its code steps', async () => {
    const owner = await browser.newPage();
    await signUpViaApi(owner, uniqueUsername('enhanced'));
    // AI Enhance, then a build of its prompt: the capsule records the passes and the selection.
    const enhance = await owner.request.post('/api/multi-pass-enhancements', { data: { prompt: 'A habit tracker', attachments: [] }, timeout: 60_000 });
    expect(enhance.ok()).toBe(true);
    let finalPrompt = '';
    for (const line of (await enhance.text()).split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const event = JSON.parse(line.slice(6)) as { type: string; finalPrompt?: string };
      if (event.type === 'complete' && event.finalPrompt) finalPrompt = event.finalPrompt;
    }
    expect(finalPrompt).not.toBe('');
    await buildProjectViaApi(owner, finalPrompt);
    const card = await myOnlyCapsule(owner);
    const slug = (await card.getAttribute('data-slug')) ?? '';
    await card.getByTestId('capsule-toggle-visibility').click();
    await owner.locator('[data-testid="capsule-visibility"]', { hasText: 'Public' }).waitFor();

    await owner.goto(`/capsules/${slug}`);
    await owner.getByTestId('capsule-timeline').waitFor();
    const events = owner.getByTestId('timeline-event');
    const rows = await events.evaluateAll((els) =>
      els.map((el) => ({ type: el.getAttribute('data-event-type'), enhanced: el.querySelector('[data-testid="timeline-enhanced"]') !== null })),
    );
    const passes = rows.filter((row) => row.type === 'model_enhanced');
    expect(passes.length).toBeGreaterThan(0);
    expect(passes.every((row) => row.enhanced)).toBe(true);
    expect(rows.find((row) => row.type === 'enhancement_selected')?.enhanced).toBe(true);
    const code = rows.filter((row) => row.type === 'code_refined' || row.type === 'session_complete' || row.type === 'prompt_received');
    expect(code.length).toBeGreaterThan(2);
    expect(code.some((row) => row.enhanced)).toBe(false);
    expect(await owner.getByTestId('timeline-enhanced').count()).toBe(passes.length + 1);
    await saveShot(owner, 'capsules-enhanced-timeline', { fullPage: true });
  });

  it('asks a logged-out visitor to sign in on /my-capsules', async () => {
    const page = await browser.newPage();
    await page.goto('/my-capsules');
    const auth = page.getByTestId('my-capsules-auth');
    await auth.waitFor();
    expect(await auth.getByRole('heading').textContent()).toBe('Authentication Required');
    expect(await auth.textContent()).toContain('Please log in to view your PackCast capsules');
    const link = auth.getByRole('link', { name: 'Go to Settings' });
    expect(await link.getAttribute('href')).toBe('/settings');
    // And the way to sign in, which is what the sentence asks for.
    expect(await auth.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/register');
    await saveShot(page, 'capsules-auth-required');
    await auth.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });

  it('shares without the referral code when it cannot be loaded, and offers a retry when the list fails', async () => {
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpViaApi(page, uniqueUsername('capsule-fail'));
    await buildProjectViaApi(page, IDEA);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // Faults injected at the browser's network boundary: the server itself is healthy.
    await page.route('**/api/subscription/status', (route) => route.fulfill({ status: 500, json: { error: 'down', code: 'INTERNAL' } }));
    let failList = true;
    await page.route('**/api/capsules/user/my-capsules', (route) =>
      failList ? route.fulfill({ status: 500, json: { error: 'down', code: 'INTERNAL' } }) : route.continue(),
    );

    await page.goto('/my-capsules');
    const failed = page.getByTestId('my-capsules-error');
    await failed.waitFor();
    expect(await failed.getByRole('heading').textContent()).toBe('Error Loading Capsules');
    await saveShot(page, 'capsules-my-error');
    failList = false;
    await failed.getByRole('button', { name: 'Try again' }).click();
    const card = page.getByTestId('capsule-card');
    await card.waitFor();
    const slug = await card.getAttribute('data-slug');

    await card.getByTestId('capsule-share-link').click();
    expect((await waitForToast(page, 'on your clipboard')).title).toBe('Copied!');
    const origin = new URL(page.url()).origin;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/capsules/${slug}`);
    expect(warnings.some((text) => text.includes('referral code'))).toBe(true);
  });

  it('shows the empty state with a link to /njin and a way to start the build that records one', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('nocapsule'));
    await page.goto('/my-capsules');
    const empty = page.getByTestId('my-capsules-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toContain('Start a run to record your first one.');
    expect(await empty.getByRole('link', { name: 'Go to Njin' }).getAttribute('href')).toBe('/njin');
    await saveShot(page, 'capsules-my-empty');
    await empty.getByRole('link', { name: 'Start a build' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('prompt-input').waitFor();
  });
});
