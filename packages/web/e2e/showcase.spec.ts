/**
 * The Showcase in the browser: a seller lists a built project through the project page's
 * dialog; another user browses /showcase, searches, filters, opens the listing and gets the free
 * copy into their Projects; paging at 24 (and 9 in Outdoors), the sorts and the remembered choice;
 * a commercial Buy that goes to (fake) Stripe Checkout and comes back to the buyer's copy; the
 * missing listing; the Outdoors tabs. Runs on its own server wired to a local fake Stripe, except
 * the check that a server without Stripe keys offers no Buy (the shared server).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useStripeTestServer } from './billing-helpers';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, delay, pathOf, saveShot, signUpViaApi, waitForToast } from './helpers';

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const EMPTY = 'No projects found. Try adjusting your filters.';

interface ListingInput {
  projectId: string;
  title: string;
  summary?: string;
  visibility?: 'free' | 'commercial';
  priceCents?: number;
  techStack?: string[];
  tags?: string[];
}

/** POST /api/listings with the page's session; returns the listing id. */
async function createListingViaApi(page: Page, input: ListingInput): Promise<string> {
  const res = await page.request.post('/api/listings', {
    data: { summary: `${input.title}: a project from the browser tests.`, visibility: 'free', ...input },
  });
  if (!res.ok()) throw new Error(`create listing: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { listing: { id: string } }).listing.id;
}

const titlesOf = async (page: Page) => (await page.getByTestId('listing-title').allTextContents()).map((t) => t.trim());

/** Waits until the grid shows exactly these titles (in order) and no newer page is loading. */
async function waitForTitles(page: Page, expected: string[]): Promise<void> {
  await expect.poll(() => titlesOf(page), { timeout: 15_000 }).toEqual(expected);
}

describe('Showcase', () => {
  const browser = useBrowser();
  const shop = useStripeTestServer('showcase');

  const newPage = () => browser.newPage({ baseUrl: shop.server.url });

  it('lists a built project from its page; another user finds it, opens it and gets a copy into Projects', async () => {
    const word = `Comet${Date.now().toString(36)}`;
    const seller = await newPage();
    await signUpViaApi(seller, uniqueUsername('seller'));
    const projectId = await buildProjectViaApi(seller, `${word} tracker for night-sky watchers\nLog sightings with time and place.`);

    // The dialog starts from the server's draft: the idea's first line, a summary, the detected stack.
    await seller.goto(`/projects/${projectId}`);
    await seller.getByTestId('list-in-showcase').click();
    const titleInput = seller.getByTestId('listing-title-input');
    await expect.poll(() => titleInput.inputValue(), { timeout: 15_000 }).toContain(word);
    const title = await titleInput.inputValue();
    expect(await seller.getByTestId('listing-summary-input').inputValue()).not.toBe('');
    await seller.getByTestId('listing-draft-files').waitFor();

    // A title over its limit is refused as it is pasted, naming the limit: nothing is cut, and the
    // form sends nothing. Back to the draft's title, the sentence goes.
    const posted: string[] = [];
    seller.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/listings') posted.push(req.url());
    });
    await titleInput.fill('T'.repeat(10_000));
    await seller.getByText('The title must be at most 120 characters; this one has 10,000.').waitFor();
    expect((await titleInput.inputValue()).length).toBe(10_000);
    expect(await titleInput.getAttribute('aria-invalid')).toBe('true');
    await seller.getByTestId('listing-submit').click();
    // A request would have left by now (the form sends as the click is handled).
    await delay(300);
    await seller.getByText('The title must be at most 120 characters; this one has 10,000.').waitFor();
    expect(posted).toEqual([]);
    await titleInput.fill('T'.repeat(120));
    expect(await seller.getByText(/The title must be at most 120 characters/).count()).toBe(0);
    await titleInput.fill(title);

    // A commercial listing below $1 is refused next to the field, before any request.
    await seller.getByTestId('listing-visibility-commercial').check();
    await seller.getByTestId('listing-price-input').fill('0.50');
    await seller.getByTestId('listing-submit').click();
    await seller.getByText('A commercial listing needs a price of at least $1').waitFor();
    await seller.getByTestId('listing-visibility-free').check();
    // Covers are checked in the browser: type (and size) first, then sent as a data URL.
    const cover = seller.getByTestId('listing-cover-input');
    await cover.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    expect(await seller.getByTestId('listing-cover-error').textContent()).toBe('Choose a PNG, JPEG, WebP or GIF image.');
    await cover.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(1_000_001) });
    // The check is asynchronous: the previous file's sentence is still there until it answers.
    await expect.poll(() => seller.getByTestId('listing-cover-error').textContent()).toBe('The cover image must be at most 1 MB.');
    await cover.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
    await seller.getByTestId('listing-cover-preview').waitFor();
    expect(await seller.getByTestId('listing-cover-error').count()).toBe(0);
    // A text file renamed .png is refused the moment it is chosen, by its bytes: the cover before it
    // goes too, so no broken image ever shows.
    await cover.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('These are my notes, not a picture.\n'.repeat(20)) });
    await seller.getByTestId('listing-cover-error').filter({ hasText: '"notes.png" is not a PNG, JPEG, WebP or GIF image' }).waitFor();
    expect(await seller.getByTestId('listing-cover-preview').count()).toBe(0);
    // One that starts like a PNG but does not decode is refused when chosen as well.
    await cover.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from(PNG_1X1, 'base64').subarray(0, 8), Buffer.alloc(1000)]) });
    await seller.getByTestId('listing-cover-error').filter({ hasText: '"broken.png" starts like an image but does not open as one' }).waitFor();
    expect(await seller.getByTestId('listing-cover-preview').count()).toBe(0);
    await saveShot(seller, 'showcase-cover-refused');
    await cover.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
    await seller.getByTestId('listing-cover-preview').waitFor();
    expect(await seller.getByTestId('listing-cover-error').count()).toBe(0);
    // The preview is the chosen image, decoded: 1 × 1 pixels.
    expect(await seller.getByTestId('listing-cover-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await seller.getByTestId('listing-tags-input').fill('astronomy, night-sky');
    await seller.getByTestId('listing-demo-input').fill('https://demo.example.com/comet');

    // A server refusal shows inline and keeps everything typed.
    await seller.route('**/api/listings', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Listings are paused for a moment.', code: 'BAD_REQUEST' }) })
        : route.fallback(),
    );
    await seller.getByTestId('listing-submit').click();
    expect(await seller.getByTestId('listing-form-error').textContent()).toContain('Listings are paused for a moment.');
    expect(await seller.getByTestId('listing-tags-input').inputValue()).toBe('astronomy, night-sky');
    await saveShot(seller, 'showcase-list-dialog');
    await seller.unroute('**/api/listings');

    // Should the server still refuse a cover (it decodes every one), its sentence shows under the
    // cover picker and the form keeps what was typed.
    await seller.route('**/api/listings', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'The cover image (coverImage) is not a readable PNG: its chunks are damaged.', code: 'BAD_REQUEST', issues: [{ path: 'coverImage', message: 'The cover image (coverImage) is not a readable PNG: its chunks are damaged.' }] }),
          })
        : route.fallback(),
    );
    await seller.getByTestId('listing-submit').click();
    await seller.getByTestId('listing-cover-error').filter({ hasText: 'is not a readable PNG' }).waitFor();
    expect(await seller.getByTestId('listing-tags-input').inputValue()).toBe('astronomy, night-sky');
    await seller.unroute('**/api/listings');
    await cover.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
    // A chosen cover is decoded before it is taken (asynchronously): the server's sentence goes once it is.
    await seller.getByTestId('listing-cover-error').waitFor({ state: 'detached', timeout: 10_000 });

    await seller.getByTestId('listing-submit').click();
    await seller.getByTestId('listing-created').waitFor();
    await waitForToast(seller, 'is now in the Community Showcase.');
    await seller.getByTestId('view-listing').click();
    await seller.waitForURL((url) => url.pathname.startsWith('/showcase/'));
    const listingPath = pathOf(seller);
    await seller.locator('[data-testid="purchase-card"][data-state="owner"]').waitFor();
    expect(await seller.getByTestId('purchase-note').textContent()).toBe('This is your listing');

    // The buyer, in a fresh browser context.
    const buyer = await newPage();
    await signUpViaApi(buyer, uniqueUsername('buyer'));
    await buyer.goto('/showcase');
    await buyer.getByTestId('listing-grid').waitFor();
    expect(await buyer.getByTestId('nav-outdoors').getAttribute('aria-current')).toBe('page');
    await buyer.getByTestId('listing-search').fill(word.toLowerCase());
    await waitForTitles(buyer, [title]);
    const card = buyer.getByTestId('listing-card');
    expect(await card.getByTestId('listing-price').textContent()).toBe('FREE');
    expect(await card.getByTestId('tech-badge').count()).toBeLessThanOrEqual(3);
    await saveShot(buyer, 'showcase-search');

    // Chosen while the search box's pause may still be running: both end up in the URL.
    await buyer.getByTestId('listing-type').selectOption('commercial');
    await expect.poll(() => new URL(buyer.url()).search).toBe(`?q=${word.toLowerCase()}&type=commercial`);
    await buyer.getByTestId('listings-empty').waitFor();
    expect(await buyer.getByTestId('listings-empty').textContent()).toContain(EMPTY);
    await buyer.getByTestId('listing-type').selectOption('free');
    await buyer.getByTestId('listing-card').waitFor();

    await buyer.getByTestId('listing-card').getByRole('link').click();
    await buyer.waitForURL((url) => url.pathname === listingPath);
    await buyer.getByTestId('listing-detail').waitFor();
    // The uploaded cover, served back as an image.
    const coverSrc = await buyer.getByTestId('listing-cover').getAttribute('src');
    expect(coverSrc).toBeTruthy();
    const coverRes = await buyer.request.get(coverSrc!);
    expect(coverRes.headers()['content-type']).toBe('image/png');
    await expect.poll(() => buyer.getByTestId('listing-cover').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await buyer.getByTestId('listing-tags').textContent()).toContain('#astronomy');
    const demo = buyer.getByTestId('listing-demo');
    expect(await demo.getAttribute('href')).toBe('https://demo.example.com/comet');
    expect(await demo.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await demo.getAttribute('target')).toBe('_blank');
    expect(await buyer.getByTestId('prompt-original').textContent()).toContain(word);
    const fileCount = Number((await buyer.getByTestId('listing-file-count').textContent())?.match(/\d+/)?.[0]);
    expect(fileCount).toBeGreaterThan(0);
    await saveShot(buyer, 'showcase-detail', { fullPage: true });

    await buyer.getByTestId('purchase-button').click();
    await buyer.locator('[data-testid="purchase-card"][data-state="owned"]').waitFor();
    await waitForToast(buyer, 'is in your Projects.');
    await saveShot(buyer, 'showcase-detail-owned');
    await buyer.getByTestId('open-copy').click();
    await buyer.waitForURL((url) => url.pathname.startsWith('/projects/') && url.pathname !== `/projects/${projectId}`);
    await buyer.getByTestId('project-detail').waitFor();
    expect(await buyer.getByTestId('file-item').count()).toBe(fileCount);

    // Getting it again leads to the same copy.
    await buyer.goto(listingPath);
    await buyer.locator('[data-testid="purchase-card"][data-state="owned"]').waitFor();
    await buyer.goto('/projects');
    await buyer.getByTestId('project-list').waitFor();
    expect(await buyer.getByTestId('project-list').locator('li').count()).toBe(1);
  });

  it('pages at 24 on /showcase and 9 in Outdoors, sorts four ways and remembers the sort', async () => {
    const word = `Pager${Date.now().toString(36)}`;
    const page = await newPage();
    await signUpViaApi(page, uniqueUsername('pager'));
    const projectId = await buildProjectViaApi(page, `${word} source project`);
    // 25 listings, created in this order, priced $1 … $25 in a shuffled order (7 is coprime to 25).
    const listings: Array<{ title: string; priceCents: number }> = [];
    for (let i = 1; i <= 25; i += 1) {
      const listing = { title: `${word} listing ${String(i).padStart(2, '0')}`, priceCents: (((i * 7) % 25) + 1) * 100 };
      listings.push(listing);
      await createListingViaApi(page, { projectId, ...listing, visibility: 'commercial', techStack: ['React', 'Vite', 'Tailwind', 'Zod', 'Koa'] });
    }
    const titles = listings.map((listing) => listing.title);
    const byPrice = [...listings].sort((a, b) => a.priceCents - b.priceCents).map((listing) => listing.title);

    // Hold the first read to see the 8-card skeleton.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const listingsRead = (url: URL) => url.pathname === '/api/listings';
    await page.route(listingsRead, async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(`/showcase?q=${word}`);
    await page.getByTestId('listing-skeleton').waitFor();
    expect(await page.getByTestId('listing-skeleton-card').count()).toBe(8);
    await saveShot(page, 'showcase-skeleton');
    release();
    await page.unroute(listingsRead);

    const newestFirst = [...titles].reverse();
    await waitForTitles(page, newestFirst.slice(0, 24));
    expect(await page.getByTestId('page-next').isEnabled()).toBe(true);
    expect(await page.getByTestId('page-previous').isDisabled()).toBe(true);
    // Three badges and +2 of five.
    const first = page.getByTestId('listing-card').first();
    expect(await first.getByTestId('tech-badge').count()).toBe(3);
    expect(await first.getByTestId('tech-more').textContent()).toBe('+2');
    expect(await first.getByTestId('listing-price').textContent()).toBe(`$${(listings[24]!.priceCents / 100).toFixed(2)}`);
    await saveShot(page, 'showcase-grid', { fullPage: true });
    await page.getByTestId('page-next').click();
    await waitForTitles(page, newestFirst.slice(24));
    expect(await page.getByTestId('page-next').isDisabled()).toBe(true);
    await page.getByTestId('page-previous').click();
    await waitForTitles(page, newestFirst.slice(0, 24));

    // The sorts, and the choice remembered across a reload.
    await page.getByTestId('listing-sort').selectOption('oldest');
    await waitForTitles(page, titles.slice(0, 24));
    await page.getByTestId('listing-sort').selectOption('price-desc');
    await waitForTitles(page, [...byPrice].reverse().slice(0, 24));
    await page.getByTestId('listing-sort').selectOption('price-asc');
    await waitForTitles(page, byPrice.slice(0, 24));
    expect(await page.evaluate(() => localStorage.getItem('showcaseSort'))).toBe('price-asc');
    await page.reload();
    await waitForTitles(page, byPrice.slice(0, 24));
    expect(await page.getByTestId('listing-sort').inputValue()).toBe('price-asc');

    // Outdoors: 9 a page, offset (page - 1) × 9; page 3 holds the last 7.
    await page.goto(`/outdoors?q=${word}`);
    expect(await page.getByTestId('tab-showcase').getAttribute('aria-selected')).toBe('true');
    await waitForTitles(page, byPrice.slice(0, 9));
    await page.getByTestId('page-next').click();
    await waitForTitles(page, byPrice.slice(9, 18));
    await page.getByTestId('page-next').click();
    await waitForTitles(page, byPrice.slice(18));
    expect(await page.getByTestId('page-next').isDisabled()).toBe(true);
    await saveShot(page, 'outdoors-showcase', { fullPage: true });
  });

  it('buys a commercial listing through Checkout (pending meanwhile) and lands on the copy', async () => {
    const word = `Nebula${Date.now().toString(36)}`;
    const seller = await newPage();
    await signUpViaApi(seller, uniqueUsername('vendor'));
    const projectId = await buildProjectViaApi(seller, `${word} planner`);
    const listingId = await createListingViaApi(seller, { projectId, title: `${word} planner`, visibility: 'commercial', priceCents: 1999 });

    // The prompts are what a buyer pays for: a signed-out visitor and a user who has not bought
    // read that they come with the purchase, never the prompts; the seller reads them.
    const visitor = await newPage();
    await visitor.goto(`/showcase/${listingId}`);
    const locked = 'The original and enhanced prompts come with the purchase: buy this project to read them.';
    expect(await visitor.getByTestId('listing-prompts-locked').textContent()).toContain(locked);
    expect(await visitor.getByTestId('listing-prompts').count()).toBe(0);
    await seller.goto(`/showcase/${listingId}`);
    expect(await seller.getByTestId('prompt-original').textContent()).toContain(word);

    const buyer = await newPage();
    await signUpViaApi(buyer, uniqueUsername('payer'));
    await buyer.goto(`/showcase/${listingId}`);
    const button = buyer.getByTestId('purchase-button');
    expect(await button.textContent()).toBe('Buy for $19.99');
    expect(await buyer.getByTestId('listing-prompts-locked').textContent()).toContain(locked);
    expect(await buyer.getByTestId('prompt-original').count()).toBe(0);

    // A refusal: the server's error in a toast, and the button works again.
    await buyer.route('**/purchase', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'Checkout is busy, try again.', code: 'CONFLICT' }) }),
    );
    await button.click();
    const refused = await waitForToast(buyer, 'Checkout is busy, try again.');
    expect(refused.title).toBe('Purchase Failed');
    // The toast renders before the mutation's end reaches the button (TanStack notifies it a task later).
    await expect.poll(() => button.isEnabled()).toBe(true);
    await buyer.unroute('**/purchase');

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await buyer.route('**/purchase', async (route) => {
      await held;
      await route.fallback();
    });
    await button.click();
    await buyer.getByTestId('purchase-button').filter({ hasText: 'Opening checkout…' }).waitFor();
    expect(await buyer.getByTestId('purchase-button').isDisabled()).toBe(true);
    release();
    await buyer.waitForURL((url) => url.href.startsWith(`${shop.stripe.url}/c/pay/`));
    const session = shop.stripe.sessionByUrl(buyer.url());
    expect(session?.amount_total).toBe(1999);

    // Back from Checkout before the webhook: the page waits for the copy, then offers it.
    const back = session!.success_url!.replace('{CHECKOUT_SESSION_ID}', session!.id);
    await buyer.goto(back);
    await buyer.locator('[data-testid="purchase-card"][data-state="completing"]').waitFor();
    await saveShot(buyer, 'showcase-completing');
    const delivered = await shop.deliver(shop.stripe.completeSession(session!.id));
    expect(delivered.status).toBe(200);
    await buyer.locator('[data-testid="purchase-card"][data-state="owned"]').waitFor({ timeout: 15_000 });
    // Bought: the prompts show.
    await buyer.getByTestId('prompt-original').waitFor();
    expect(await buyer.getByTestId('prompt-original').textContent()).toContain(word);
    expect(await buyer.getByTestId('listing-prompts-locked').count()).toBe(0);
    await buyer.getByTestId('open-copy').click();
    await buyer.getByTestId('project-detail').waitFor();
  });

  it('offers no Buy on a server without Stripe keys, as the credit packs do', async () => {
    // browser.newPage() without a baseUrl: the shared server of the run, which has no STRIPE_* settings.
    const seller = await browser.newPage();
    await signUpViaApi(seller, uniqueUsername('unpaid'));
    const projectId = await buildProjectViaApi(seller, 'Payments-off sample project');
    const listingId = await createListingViaApi(seller, { projectId, title: 'Payments-off sample', visibility: 'commercial', priceCents: 1999 });

    const buyer = await browser.newPage();
    await signUpViaApi(buyer, uniqueUsername('would-buy'));
    let purchases = 0;
    buyer.on('request', (request) => {
      if (request.url().endsWith('/purchase')) purchases += 1;
    });
    await buyer.goto(`/showcase/${listingId}`);
    await buyer.locator('[data-testid="purchase-card"][data-state="buy"]').getByTestId('payments-not-configured').waitFor();
    const button = buyer.getByTestId('purchase-button');
    expect((await button.textContent())?.trim()).toBe('Payments not configured');
    expect(await button.isDisabled()).toBe(true);
    expect(await buyer.getByTestId('payments-not-configured').textContent()).toContain('Payments are not configured on this server');
    expect(await buyer.getByTestId('purchase-price').textContent()).toBe('$19.99');
    await button.click({ force: true });
    expect(purchases).toBe(0);
    await saveShot(buyer, 'showcase-payments-off');
  });

  it("lets the seller edit and delete their listing; then it's not found", async () => {
    const seller = await newPage();
    await signUpViaApi(seller, uniqueUsername('editor'));
    const projectId = await buildProjectViaApi(seller, 'Editable sample project');
    const listingId = await createListingViaApi(seller, { projectId, title: 'Editable sample' });
    await seller.goto(`/showcase/${listingId}`);
    await seller.locator('[data-testid="purchase-card"][data-state="owner"]').waitFor();

    await seller.getByTestId('edit-listing').click();
    expect(await seller.getByTestId('listing-title-input').inputValue()).toBe('Editable sample');
    await seller.getByTestId('listing-title-input').fill('Edited sample');
    await seller.getByTestId('listing-visibility-commercial').check();
    await seller.getByTestId('listing-price-input').fill('4.5');
    await seller.getByTestId('listing-submit').click();
    await waitForToast(seller, 'Your changes are live.');
    await seller.getByTestId('listing-title').filter({ hasText: 'Edited sample' }).waitFor();
    expect(await seller.getByTestId('purchase-price').textContent()).toBe('$4.50');
    await saveShot(seller, 'showcase-owner');

    await seller.getByTestId('delete-listing').click();
    await seller.getByTestId('confirm-delete').click();
    await seller.waitForURL((url) => url.pathname === '/showcase');
    await waitForToast(seller, 'is no longer in the Showcase.');
    await seller.goto(`/showcase/${listingId}`);
    await seller.getByTestId('listing-not-found').waitFor();
  });

  it('says Listing Not Found for an unknown id, with a way back', async () => {
    const page = await newPage();
    await page.goto('/showcase/not-a-real-id');
    await page.getByTestId('listing-not-found').waitFor();
    const text = await page.getByTestId('listing-not-found').textContent();
    expect(text).toContain('Listing Not Found');
    expect(text).toContain('This listing could not be found or has been removed.');
    await saveShot(page, 'showcase-not-found');
    await page.getByTestId('not-found-back').click();
    await page.waitForURL((url) => url.pathname === '/showcase');
  });

  it('asks a visitor to sign in on a listing and shows the three Outdoors tabs', async () => {
    const seller = await newPage();
    await signUpViaApi(seller, uniqueUsername('lister'));
    const projectId = await buildProjectViaApi(seller, 'Visitor view sample project');
    const listingId = await createListingViaApi(seller, { projectId, title: 'Visitor view sample' });

    const visitor = await newPage();
    await visitor.goto(`/showcase/${listingId}`);
    await visitor.locator('[data-testid="purchase-card"][data-state="sign-in"]').waitFor();
    await visitor.evaluate(() => localStorage.setItem('theme', 'dark'));
    await visitor.reload();
    await visitor.locator('[data-testid="purchase-card"][data-state="sign-in"]').waitFor();
    await saveShot(visitor, 'showcase-detail-visitor-dark');
    await visitor.evaluate(() => localStorage.setItem('theme', 'light'));

    await visitor.goto('/outdoors');
    await visitor.getByTestId('listing-marketplace').waitFor();
    expect(await visitor.getByTestId('nav-outdoors').getAttribute('aria-current')).toBe('page');
    await visitor.getByTestId('tab-discovery').click();
    await visitor.getByTestId('tab-trending').waitFor();
    await saveShot(visitor, 'outdoors-discovery');
    await visitor.getByTestId('tab-social').click();
    expect(await visitor.getByTestId('social-rewards-line').textContent()).toBe(
      'You get $15 credit, your friend gets $10 on the first month, and referrals are unlimited.',
    );
    // The tiles say when each reward is paid, as the ledger pays it (a friend who only signs up earns $5).
    expect(await visitor.getByTestId('social-rewards').textContent()).toContain('for you when each friend builds their first project (and $5 when they sign up)');
    await visitor.getByTestId('sign-in-prompt').waitFor();

    const member = await newPage();
    await signUpViaApi(member, uniqueUsername('social'));
    await member.goto('/outdoors?tab=social');
    await member.getByTestId('referral-card').waitFor();
    expect(await member.getByTestId('referral-link').inputValue()).toContain('?ref=');
    expect(await member.getByTestId('share-twitter').getAttribute('rel')).toBe('noopener noreferrer');
    await saveShot(member, 'outdoors-social', { fullPage: true });
  });
});
