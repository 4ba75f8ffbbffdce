/**
 * All Projects (/projects, spec core §2, §4, §8; companion §8): the cards, the sort order kept
 * across reloads, the count line, deletion with its confirmation and toasts, the empty and
 * failure texts. Runs on the shared server with the offline demo engines.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { buildProjectViaApi, saveShot, waitForToast } from './helpers';
import { card, cardTitles, openSignedIn, waitForCards, waitForTitles } from './library-helpers';

describe('All Projects', () => {
  const browser = useBrowser();

  it('sorts (remembered across reloads), counts, and deletes after a confirmation', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'list');
    const ids: Record<string, string> = {};
    for (const idea of ['Banana bread recipes\nwith ratings', 'apple orchard planner', 'Cherry blossom tracker']) {
      ids[idea.split('\n')[0]!] = await buildProjectViaApi(page, idea);
    }

    await page.goto('/projects');
    await waitForCards(page, 3);
    // The count line's number is the sidebar's counts, a read of their own that can land after the cards.
    await expect.poll(() => page.getByTestId('project-count').textContent()).toBe('3 projects');
    expect(await page.getByTestId('folder-heading').textContent()).toBe('All Projects');
    // Newest first by default; the title is the idea's first line.
    await waitForTitles(page, ['Cherry blossom tracker', 'apple orchard planner', 'Banana bread recipes']);
    const banana = card(page, 'Banana bread recipes');
    expect(await banana.getByTestId('project-file-count').textContent()).toBe('4 files');
    expect(await banana.getByTestId('project-card-title').getAttribute('href')).toBe(`/projects/${ids['Banana bread recipes']}`);
    await saveShot(page, 'projects-list', { fullPage: true });

    await page.getByTestId('sort-select').selectOption('a-z');
    await waitForTitles(page, ['apple orchard planner', 'Banana bread recipes', 'Cherry blossom tracker']);
    expect(await page.evaluate(() => localStorage.getItem('projectSort'))).toBe('a-z');
    await page.reload();
    await waitForCards(page, 3);
    expect(await page.getByTestId('sort-select').inputValue()).toBe('a-z');
    await waitForTitles(page, ['apple orchard planner', 'Banana bread recipes', 'Cherry blossom tracker']);
    await page.getByTestId('sort-select').selectOption('z-a');
    await waitForTitles(page, ['Cherry blossom tracker', 'Banana bread recipes', 'apple orchard planner']);
    await page.getByTestId('sort-select').selectOption('oldest');
    await waitForTitles(page, ['Banana bread recipes', 'apple orchard planner', 'Cherry blossom tracker']);
    const options = await page.getByTestId('sort-select').locator('option').evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
    expect(options).toEqual(['newest', 'oldest', 'a-z', 'z-a', 'most-files', 'least-files']);

    // The title links to the project.
    await card(page, 'apple orchard planner').getByTestId('project-card-title').click();
    await page.waitForURL((url) => url.pathname === `/projects/${ids['apple orchard planner']}`);
    await page.goBack();
    await waitForCards(page, 3);

    // Delete asks first; Cancel keeps the project.
    await card(page, 'Banana bread recipes').getByTestId('delete-project').click();
    const dialog = page.getByTestId('delete-project-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete' }).isVisible()).toBe(true);
    await saveShot(page, 'projects-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cardTitles(page)).toHaveLength(3);

    await card(page, 'Banana bread recipes').getByTestId('delete-project').click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const deleted = await waitForToast(page, 'was successfully deleted');
    expect(deleted.title).toBe('Project deleted');
    expect(deleted.description).toBe('"Banana bread recipes" was successfully deleted.');
    await dialog.waitFor({ state: 'detached' });
    await waitForCards(page, 2);
    await expect.poll(() => page.getByTestId('project-count').textContent()).toBe('2 projects');
    expect((await page.request.get(`/api/projects/${ids['Banana bread recipes']}`)).status()).toBe(404);

    for (const title of ['apple orchard planner', 'Cherry blossom tracker']) {
      await card(page, title).getByTestId('delete-project').click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.getByTestId('projects-empty').waitFor();
    expect(await page.getByTestId('projects-empty').textContent()).toContain('No projects found. Try adjusting your filters.');
    await expect.poll(() => page.getByTestId('project-count').textContent()).toBe('0 projects');
    await saveShot(page, 'projects-empty');
  });

  it("says what failed: the server's message or 'Failed to delete project', and 'Failed to fetch projects'", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'listfail');
    await buildProjectViaApi(page, 'Plant watering reminders');
    await page.goto('/projects');
    await waitForCards(page, 1);

    let reachable = true;
    const body = JSON.stringify({ success: false, error: 'The database is busy. Try again in a minute.', code: 'UNAVAILABLE' });
    await page.route('**/api/projects/*', (route) => {
      if (route.request().method() !== 'DELETE') return route.fallback();
      // A refused connection carries no server sentence: the fallback wording shows.
      return reachable ? route.fulfill({ status: 503, contentType: 'application/json', body }) : route.abort('connectionrefused');
    });
    await page.getByTestId('delete-project').click();
    await page.getByTestId('delete-project-dialog').getByRole('button', { name: 'Delete' }).click();
    const failure = await waitForToast(page, 'The database is busy. Try again in a minute.');
    expect(failure).toMatchObject({ title: 'Error', variant: 'destructive' });

    reachable = false;
    await page.getByTestId('delete-project-dialog').getByRole('button', { name: 'Delete' }).click();
    expect((await waitForToast(page, 'Failed to delete project')).title).toBe('Error');
    await waitForCards(page, 1);

    await page.route((url) => url.pathname === '/api/projects', (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }));
    await page.reload();
    await page.getByTestId('projects-error').waitFor();
    expect(await page.getByTestId('projects-error').textContent()).toContain('Failed to fetch projects');
  });

  it('pages through a long list: the next page as the end scrolls into view, or with Load more; sorted and searched by the server', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'paging');
    const ideas = ['Alpha notes', 'Beta board', 'Gamma game', 'Delta diary', 'Epsilon editor'];
    for (const idea of ideas) await buildProjectViaApi(page, idea);
    // Two projects a page, as if there were thousands (the sidebar's count read keeps its limit=1).
    const listUrls: URL[] = [];
    await page.route(
      (url) => url.pathname === '/api/projects' && !url.searchParams.has('limit'),
      (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '2');
        listUrls.push(url);
        return route.continue({ url: url.toString() });
      },
    );

    // The end of the list is in view at once: pages keep coming until the last.
    await page.goto('/projects');
    await waitForTitles(page, [...ideas].reverse());
    await expect.poll(() => page.getByTestId('project-count').textContent()).toBe('5 projects');
    expect(await page.getByTestId('load-more-status').textContent()).toBe('Showing 5 of 5');
    expect(await page.getByTestId('load-more-button').count()).toBe(0);
    expect(listUrls.map((url) => url.searchParams.has('cursor'))).toEqual([false, true, true]);
    // The count line's number comes from the sidebar's counts: the pages do not count again.
    expect(listUrls.map((url) => url.searchParams.get('counts'))).toEqual([null, null, null]);

    // The server sorts across pages.
    await page.getByTestId('sort-select').selectOption('a-z');
    await waitForTitles(page, ['Alpha notes', 'Beta board', 'Delta diary', 'Epsilon editor', 'Gamma game']);
    await page.getByTestId('sort-select').selectOption('newest');
    await waitForTitles(page, [...ideas].reverse());

    // And searches: the count line says what matched; the search stays in the address.
    await page.getByTestId('project-search').fill('GAM');
    await waitForTitles(page, ['Gamma game']);
    expect(await page.getByTestId('project-count').textContent()).toBe('1 project matching "GAM"');
    expect(listUrls.at(-1)!.searchParams.get('counts')).toBe('true');
    expect(new URL(page.url()).searchParams.get('q')).toBe('GAM');
    await page.getByTestId('project-search').fill('no such project');
    await page.getByTestId('projects-empty').waitFor();
    expect(await page.getByTestId('projects-empty').textContent()).toContain('No projects found. Try adjusting your filters.');
    await page.getByTestId('project-search').fill('');
    await waitForTitles(page, [...ideas].reverse());

    // Without IntersectionObserver (or for a keyboard), Load more reads the next page.
    const manual = await browser.newPage();
    await manual.context().addCookies(await page.context().cookies());
    await manual.addInitScript(() => {
      Reflect.deleteProperty(window, 'IntersectionObserver');
    });
    await manual.route(
      (url) => url.pathname === '/api/projects' && !url.searchParams.has('limit'),
      (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '2');
        return route.continue({ url: url.toString() });
      },
    );
    await manual.goto('/projects');
    await waitForCards(manual, 2);
    // "of 5" is the sidebar's counts, read apart from the page.
    await expect.poll(() => manual.getByTestId('load-more-status').textContent()).toBe('Showing 2 of 5');
    await manual.getByTestId('load-more-button').click();
    await waitForCards(manual, 4);
    await manual.getByTestId('load-more-button').click();
    await waitForTitles(manual, [...ideas].reverse());
    expect(await manual.getByTestId('load-more-button').count()).toBe(0);
    await saveShot(manual, 'projects-paged', { fullPage: true });
  });

  it('asks for the list again with its ETag after a reload (the server answers 304 while it is unchanged), and shows a changed one', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'etag');
    await buildProjectViaApi(page, 'Kept by the browser');
    await page.goto('/projects');
    await waitForTitles(page, ['Kept by the browser']);
    // What the browser's cache sends when it revalidates the pages it keeps (Playwright shows the
    // kept reply's 200 either way; the server's 304 is asserted in project-list-cache.int.test.ts).
    const sent: Array<string | undefined> = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/projects') void req.allHeaders().then((headers) => sent.push(headers['if-none-match']));
    });
    await page.reload();
    await waitForTitles(page, ['Kept by the browser']);
    await expect.poll(() => sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.map((etag) => etag?.slice(0, 3))).toEqual(sent.map(() => 'W/"'));

    await buildProjectViaApi(page, 'Made since');
    await page.reload();
    await waitForTitles(page, ['Made since', 'Kept by the browser']);
  });

  it('asks a visitor to sign in', async () => {
    const page = await browser.newPage();
    await page.goto('/projects');
    await page.getByTestId('projects-sign-in').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('All Projects');
  });
});
