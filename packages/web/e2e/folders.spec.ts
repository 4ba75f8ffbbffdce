/**
 * The folder tree sidebar (spec core §2 Folder tree sidebar, §5, §8, §9): nested folders created
 * and renamed through the right-click menu and its dialogs, the 700 ms long press, deletion that
 * moves the contents to the root, and moving projects by drag and drop and by "Move to…".
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { buildProjectViaApi, saveShot, waitForToast } from './helpers';
import { card, cardTitles, createFolderViaApi, folderNames, folderRow, openSignedIn, waitForCards, waitForHeading, waitForTitles } from './library-helpers';

/** How long a press is held before the menu opens (spec core §9). */
const LONG_PRESS_MS = 700;

describe('Folder sidebar', () => {
  const browser = useBrowser();

  it('creates a nested folder and renames it through the right-click menu', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/projects', 'folders');
    await page.getByTestId('no-folders').waitFor();

    // The root's menu makes a top-level folder; a blank name is refused in the dialog.
    await folderRow(page, 'All Projects').click({ button: 'right' });
    await page.getByTestId('folder-menu').getByRole('menuitem', { name: 'New Folder' }).click();
    const dialog = page.getByTestId('folder-name-dialog');
    await dialog.waitFor();
    await page.getByTestId('folder-name-input').fill('   ');
    await page.getByTestId('folder-name-submit').click();
    await dialog.getByText('Please enter a folder name').waitFor();
    await page.getByTestId('folder-name-input').fill('Work');
    await page.getByTestId('folder-name-submit').click();
    expect((await waitForToast(page, '"Work" is ready')).title).toBe('Folder Created');
    await dialog.waitFor({ state: 'detached' });
    // The toast comes once the lists were read again; the sidebar renders them a task later.
    await expect.poll(() => folderNames(page)).toEqual(['Work']);

    // New Subfolder from the folder's own menu; the parent opens to show it.
    await folderRow(page, 'Work').click({ button: 'right' });
    const menu = page.getByTestId('folder-menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['New Subfolder', 'Rename', 'Delete']);
    await saveShot(page, 'projects-folder-menu');
    await menu.getByRole('menuitem', { name: 'New Subfolder' }).click();
    expect(await dialog.getByRole('heading').textContent()).toBe('New Subfolder');
    await page.getByTestId('folder-name-input').fill('Clients');
    await page.getByTestId('folder-name-submit').click();
    expect((await waitForToast(page, '"Clients" is ready')).title).toBe('Folder Created');
    await folderRow(page, 'Clients').waitFor();
    expect(await folderNames(page)).toEqual(['Work', 'Clients']);
    const folders = (await (await page.request.get('/api/folders')).json()) as { folders: Array<{ id: string; name: string; parentFolderId: string | null }> };
    const work = folders.folders.find((f) => f.name === 'Work')!;
    expect(folders.folders.find((f) => f.name === 'Clients')?.parentFolderId).toBe(work.id);
    // Nested: indented further than its parent, and it collapses with it.
    const indent = (name: string) => folderRow(page, name).evaluate((el) => parseFloat(getComputedStyle(el).paddingLeft));
    expect(await indent('Clients')).toBeGreaterThan(await indent('Work'));
    await folderRow(page, 'Work').getByTestId('folder-toggle').click();
    expect(await folderNames(page)).toEqual(['Work']);
    await folderRow(page, 'Work').getByTestId('folder-toggle').click();
    expect(await folderNames(page)).toEqual(['Work', 'Clients']);

    // Rename: the dialog starts with the current name.
    await folderRow(page, 'Clients').click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Rename' }).click();
    expect(await page.getByTestId('folder-name-input').inputValue()).toBe('Clients');
    await page.getByTestId('folder-name-input').fill('Client work');
    await page.getByTestId('folder-name-submit').click();
    expect((await waitForToast(page, 'The folder is now called "Client work".')).title).toBe('Folder Renamed');
    await expect.poll(() => folderNames(page)).toEqual(['Work', 'Client work']);

    // Selecting a folder shows its (empty) list.
    await folderRow(page, 'Client work').getByTestId('folder-select').click();
    await waitForHeading(page, 'Client work');
    await page.getByTestId('projects-empty').waitFor();
    expect(await page.getByTestId('project-count').textContent()).toBe('0 projects in Client work');
    await saveShot(page, 'projects-sidebar');

    // A failed request says so.
    await page.route('**/api/folders', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, body: 'boom' }) : route.fallback(),
    );
    await page.getByTestId('new-folder').click();
    await page.getByTestId('folder-name-input').fill('Doomed');
    await page.getByTestId('folder-name-submit').click();
    expect(await waitForToast(page, 'Failed to create folder')).toMatchObject({ title: 'Error', variant: 'destructive' });
  });

  it('opens the menu after a 700 ms long press, not before', async () => {
    const page = await browser.newPage();
    // The page's timers run on Playwright's clock, held still while a press is held: the 700 ms are
    // counted out, so "not before" is decided by the clock, not by how fast the menu would appear.
    await page.clock.install();
    await openSignedIn(page, '/', 'press');
    await createFolderViaApi(page, 'Hold me');
    await page.goto('/projects');
    const row = folderRow(page, 'Hold me');
    const menu = page.getByTestId('folder-menu');
    await row.waitFor();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    const box = (await row.getByTestId('folder-name').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.clock.runFor(LONG_PRESS_MS - 1);
    expect(await menu.count()).toBe(0);
    await page.clock.runFor(1);
    await menu.waitFor({ timeout: 2_000 });
    // The release does not select the folder, and the menu stays open. Selecting is a change of the
    // address (?folder=…) made while the click is handled, so once the page has seen the release's
    // click, the selection it would have made is there or never will be.
    await page.evaluate(() => {
      const seen = { clicks: 0 };
      Object.assign(window, { releaseSeen: seen });
      document.addEventListener('click', () => (seen.clicks += 1), { capture: true, once: true });
    });
    await page.mouse.up();
    await page.waitForFunction(() => (window as unknown as { releaseSeen: { clicks: number } }).releaseSeen.clicks === 1);
    expect(await page.evaluate(() => location.search)).toBe('');
    expect(await page.getByTestId('folder-heading').textContent()).toBe('All Projects');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['New Subfolder', 'Rename', 'Delete']);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // A finger held on the folder opens it too (Radix's touch long press, also 700 ms).
    const cdp = await page.context().newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.clock.runFor(LONG_PRESS_MS - 1);
    expect(await menu.count()).toBe(0);
    await page.clock.runFor(1);
    await menu.waitFor({ timeout: 2_000 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // A short click selects instead.
    await page.clock.resume();
    await row.getByTestId('folder-select').click();
    await waitForHeading(page, 'Hold me');
    expect(await menu.count()).toBe(0);
  });

  it('moves projects by drag and drop and by Move to…, and deleting a folder moves its contents to the root', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/', 'move');
    const work = await createFolderViaApi(page, 'Work');
    await createFolderViaApi(page, 'Clients', work);
    await buildProjectViaApi(page, 'Invoice generator');
    await buildProjectViaApi(page, 'Recipe box');
    await page.goto(`/projects?folder=${work}`);
    // The path to a selected folder is open.
    await folderRow(page, 'Clients').waitFor();
    await folderRow(page, 'All Projects').getByTestId('folder-select').click();
    await waitForCards(page, 2);

    // Drag a card onto a folder: it leaves the root and that folder's list shows it.
    await card(page, 'Invoice generator').dragTo(folderRow(page, 'Clients'));
    expect((await waitForToast(page, 'The project is now in "Clients".')).title).toBe('Project Moved');
    await waitForCards(page, 1);
    expect(await cardTitles(page)).toEqual(['Recipe box']);
    // The counts are a read of their own, rendered apart from the cards.
    await expect.poll(() => page.getByTestId('project-count').textContent()).toBe('1 project · 1 more in folders');
    await expect.poll(() => folderRow(page, 'Clients').getByTestId('folder-count').textContent()).toBe('1');
    await folderRow(page, 'Clients').getByTestId('folder-select').click();
    await waitForHeading(page, 'Clients');
    await waitForTitles(page, ['Invoice generator']);

    // Move to… from the card's menu.
    await folderRow(page, 'All Projects').getByTestId('folder-select').click();
    await waitForTitles(page, ['Recipe box']);
    await card(page, 'Recipe box').getByTestId('project-menu').click();
    await page.getByTestId('move-to').click();
    const targets = page.getByTestId('move-menu').getByTestId('move-target');
    expect((await targets.allTextContents()).map((t) => t.trim())).toEqual(['All Projects', 'Work', 'Clients']);
    await saveShot(page, 'projects-move-menu');
    await targets.filter({ hasText: 'Work' }).click();
    expect((await waitForToast(page, 'The project is now in "Work".')).title).toBe('Project Moved');
    await page.getByTestId('projects-empty').waitFor();

    // Deleting Work: its project and its subfolder move to the root.
    await folderRow(page, 'Work').click({ button: 'right' });
    await page.getByTestId('folder-menu').getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByTestId('delete-folder-dialog');
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    expect((await waitForToast(page, 'its projects and subfolders moved to All Projects')).title).toBe('Folder Deleted');
    await waitForTitles(page, ['Recipe box']);
    await expect.poll(() => folderNames(page)).toEqual(['Clients']);
    const root = (await (await page.request.get('/api/folders/root/projects')).json()) as { projects: unknown[] };
    expect(root.projects).toHaveLength(1);

    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await waitForCards(page, 1);
    await saveShot(page, 'projects-dark');
  });
});
