/** Helpers of the project-library specs (All Projects, folders, publishing, history). */
import type { Locator, Page } from 'playwright-core';
import { uniqueUsername } from './harness';
import { signUpViaApi, skipEnhanceTip } from './helpers';

/** Creates an account (signed in), opens `path` and turns the AI Enhance tip off. */
export async function openSignedIn(page: Page, path = '/', prefix = 'lib'): Promise<string> {
  const username = uniqueUsername(prefix);
  await signUpViaApi(page, username);
  await page.goto(path);
  await skipEnhanceTip(page);
  return username;
}

/** The titles of the project cards, in the order shown. */
export async function cardTitles(page: Page): Promise<string[]> {
  return (await page.getByTestId('project-card-title').allTextContents()).map((text) => text.trim());
}

/** The project card with this title. */
export function card(page: Page, title: string): Locator {
  return page.getByTestId('project-card').filter({ has: page.getByTestId('project-card-title').getByText(title, { exact: true }) });
}

/** The sidebar row of a folder by name ('All Projects' is the root row). */
export function folderRow(page: Page, name: string): Locator {
  if (name === 'All Projects') return page.getByTestId('folder-root');
  return page.getByTestId('folder-row').filter({ has: page.getByTestId('folder-name').getByText(name, { exact: true }) });
}

/** The names of the folder rows shown, in order. */
export async function folderNames(page: Page): Promise<string[]> {
  return (await page.getByTestId('folder-row').getByTestId('folder-name').allTextContents()).map((text) => text.trim());
}

/** Creates a folder through the API; returns its id. */
export async function createFolderViaApi(page: Page, name: string, parentFolderId: string | null = null): Promise<string> {
  const res = await page.request.post('/api/folders', { data: { name, parentFolderId } });
  if (!res.ok()) throw new Error(`create folder: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { folder: { id: string } }).folder.id;
}

/** Waits until the list shows exactly `count` cards. */
export async function waitForCards(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="project-card"]').length === n, count);
}

/** Waits until the list's heading names this folder ('All Projects' for the root). */
export async function waitForHeading(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => document.querySelector('[data-testid="folder-heading"]')?.textContent === n, name);
}

/** Waits until the cards show exactly these titles, in this order. */
export async function waitForTitles(page: Page, titles: string[]): Promise<void> {
  await page.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('[data-testid="project-card-title"]')].map((el) => el.textContent?.trim())) ===
      JSON.stringify(want),
    titles,
  );
}
