/**
 * Settings and publishing (spec core §2 Publish dialog, §4, §5, §8; companion §2 Settings): the
 * GitHub token saved in Settings, then the publish dialog from the project page against a local
 * fake GitHub, its form, publishing and success states, and its failures. This file starts its own
 * Wolfpack server pointed at the fake.
 */
import { suggestRepoName } from '@wolfpack/core';
import { startFakeGithub, type FakeGithub } from '@wolfpack/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, saveShot, waitForToast } from './helpers';
import { openSignedIn } from './library-helpers';

const IDEA = 'Recipe Box: save & tag recipes\nWith a shopping list';

async function saveToken(page: Page, token: string): Promise<void> {
  await page.getByTestId('github-token').fill(token);
  await page.getByTestId('github-save').click();
}

async function openPublishDialog(page: Page, projectId: string) {
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId('project-detail').waitFor();
  await page.getByTestId('copy-replit').click();
  const dialog = page.getByTestId('publish-dialog');
  await dialog.waitFor();
  return dialog;
}

describe('Settings and publishing to GitHub', () => {
  const browser = useBrowser();
  let github: FakeGithub;
  let server: TestServer;

  beforeAll(async () => {
    github = await startFakeGithub({ tokens: { ghp_good: 'octocat' } });
    server = await startTestServer({ env: { GITHUB_API_URL: github.url } });
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('changes theme and brand colour in Settings', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await page.goto('/settings');
    await page.getByTestId('settings-appearance').waitFor();
    await page.getByTestId('theme-dark').click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.getByTestId('theme-dark').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('brand-color-text').fill('#6366F1');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe('#6366f1');
    expect(await page.getByTestId('brand-color-picker').inputValue()).toBe('#6366f1');
    // A half-typed value keeps the colour while it is typed; left invalid, the colour falls back to
    // the default hue (companion §4) and the box says why and what is expected.
    await page.getByTestId('brand-color-text').fill('#63');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe('#6366f1');
    await page.getByTestId('brand-color-text').blur();
    await page.getByText('Enter a hex colour such as #10b981').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('brandColor'))).toBe('#10b981');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe('#10b981');
    // A visitor is asked to sign in for GitHub.
    await page.getByTestId('github-sign-in').waitFor();
    await saveShot(page, 'publish-settings-dark', { fullPage: true });
  });

  it('saves a token in Settings, publishes from the project page, and reports failures', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await openSignedIn(page, '/', 'publish');
    const projectId = await buildProjectViaApi(page, IDEA);

    // Without a saved token the dialog warns, and publishing fails with the server's sentence.
    let dialog = await openPublishDialog(page, projectId);
    await dialog.getByTestId('publish-no-token').waitFor();
    expect(await dialog.getByTestId('repo-name').inputValue()).toBe(suggestRepoName(IDEA));
    expect(await dialog.getByText('lowercase letters, numbers and hyphens only').isVisible()).toBe(true);
    await dialog.getByTestId('publish-submit').click();
    const noToken = await waitForToast(page, 'Failed to publish to GitHub');
    expect(noToken.title).toBe('Publish Failed');
    expect(noToken.description).toContain('Save a GitHub token in Settings first');
    await dialog.getByTestId('publish-error').getByRole('link', { name: 'Open Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');

    // Settings: a rejected token is explained; a good one connects the account.
    await page.getByTestId('github-token-form').waitFor();
    await saveShot(page, 'publish-settings-form', { fullPage: true });
    await page.getByTestId('github-save').click();
    await page.getByText('Paste a GitHub token').waitFor();
    await saveToken(page, 'ghp_wrong');
    await page.getByText('GitHub rejected the token (401 Bad credentials).', { exact: false }).waitFor();
    await saveToken(page, 'ghp_good');
    await page.getByTestId('github-connected').waitFor();
    expect(await page.getByTestId('github-login').textContent()).toBe('octocat');
    await saveShot(page, 'publish-settings-connected');
    // Disconnect and connect again.
    await page.getByTestId('github-disconnect').click();
    await page.getByTestId('github-token-form').waitFor();
    expect(((await (await page.request.get('/api/settings/github')).json()) as { connected: boolean }).connected).toBe(false);
    await saveToken(page, 'ghp_good');
    await page.getByTestId('github-connected').waitFor();

    // A blank name is refused before anything is sent.
    dialog = await openPublishDialog(page, projectId);
    await dialog.getByTestId('publish-account').filter({ hasText: 'octocat' }).waitFor();
    await dialog.getByTestId('repo-name').fill('  ');
    await dialog.getByTestId('publish-submit').click();
    expect((await waitForToast(page, 'Please enter a name for your GitHub repository')).title).toBe('Repository Name Required');

    // Publish: form, publishing, success with both links; the repository has the files.
    await dialog.getByTestId('repo-name').fill('recipe-box');
    await dialog.getByTestId('repo-description').fill('Recipes and a shopping list');
    await dialog.getByTestId('repo-private').click();
    expect(await dialog.getByTestId('repo-private').getAttribute('aria-checked')).toBe('true');
    await saveShot(page, 'publish-form');
    await dialog.getByTestId('publish-submit').click();
    await dialog.locator('[data-testid="publish-phase"][data-phase="success"]').waitFor();
    expect((await waitForToast(page, 'Your project is on GitHub')).title).toBe('Published Successfully!');
    expect(await dialog.getByRole('heading').textContent()).toBe('Published Successfully!');
    const repoLink = dialog.getByTestId('publish-repo-link');
    expect(await repoLink.getAttribute('href')).toMatch(/\/octocat\/recipe-box$/);
    expect(await repoLink.getAttribute('target')).toBe('_blank');
    const replit = dialog.getByTestId('publish-replit-link');
    expect(await replit.textContent()).toContain('Open in Replit');
    expect(await replit.getAttribute('href')).toBe('https://replit.com/github/octocat/recipe-box');
    await saveShot(page, 'publish-success');
    const repo = github.repos.get('octocat/recipe-box')!;
    expect(repo.private).toBe(true);
    expect(repo.description).toBe('Recipes and a shopping list');
    const detail = (await (await page.request.get(`/api/projects/${projectId}`)).json()) as { project: { fsIndex: Record<string, string> } };
    expect(github.filesAt('octocat', 'recipe-box')).toEqual(detail.project.fsIndex);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A taken name: another project published under the same name fails with GitHub's reason.
    const otherId = await buildProjectViaApi(page, 'Another recipe idea');
    dialog = await openPublishDialog(page, otherId);
    await dialog.getByTestId('repo-name').fill('recipe-box');
    await dialog.getByTestId('publish-submit').click();
    const taken = await waitForToast(page, 'already exists');
    expect(taken).toMatchObject({ title: 'Publish Failed', variant: 'destructive' });
    expect(taken.description).toContain('Failed to publish to GitHub');
    expect(await dialog.getByTestId('publish-phase').getAttribute('data-phase')).toBe('form');
    expect(await dialog.getByTestId('publish-error').textContent()).toContain('A repository named "recipe-box" already exists');
    await saveShot(page, 'publish-failed');
  });
});
