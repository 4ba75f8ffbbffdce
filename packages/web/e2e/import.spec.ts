/**
 * Import project (the projects page's dialog): a zip made here is picked, uploaded as it is and
 * becomes a project whose Versions tab says where it came from; what the import left out is
 * listed first. A hostile zip (zip-slip) is refused with the server's sentence naming the entry,
 * the chosen file stays, and no project is added. GitHub without a saved token says where to
 * save one; with one, a repository's branch is read from a local fake GitHub (its own server).
 */
import { startFakeGithub, type FakeGithub } from '@wolfpack/server/testing';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, useBrowser, type TestServer } from './harness';
import { pathOf, saveShot, waitForToast } from './helpers';
import { cardTitles, openSignedIn, waitForCards } from './library-helpers';

/** A zip of these entries, names exactly as given (a hostile name included), deflated: what a user's archiver writes. */
function zipOf(entries: Record<string, string>): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(entries).map(([name, text]) => [name, strToU8(text)]))));
}

const MY_APP: Record<string, string> = {
  'my-app/README.md': '# My App\n\nA tiny counter page with a reset button.\n',
  'my-app/index.html': '<!doctype html>\n<title>Counter</title>\n<button id="count">0</button>\n<script src="app.js"></script>\n',
  'my-app/app.js': "const button = document.getElementById('count');\nbutton.addEventListener('click', () => { button.textContent = String(Number(button.textContent) + 1); });\n",
  'my-app/node_modules/left-pad/index.js': 'module.exports = (s) => s;\n',
};

async function openImportDialog(page: Page) {
  await page.getByTestId('import-project').click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.waitFor();
  return dialog;
}

async function projectCount(page: Page): Promise<number> {
  const res = await page.request.get('/api/projects');
  return ((await res.json()) as { projects: unknown[] }).projects.length;
}

describe('Import project', () => {
  const browser = useBrowser();

  it('imports a zip: lists what was skipped, opens the project with its files, and its version says "Imported from my-app.zip"', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/projects', 'import');
    await page.getByTestId('projects-empty').waitFor();
    const dialog = await openImportDialog(page);
    expect(await dialog.getByText('Leave empty to take it from the README.').isVisible()).toBe(true);

    // Nothing chosen, then something that is not a zip: said at once, nothing sent.
    await dialog.getByTestId('import-submit').click();
    expect(await dialog.getByTestId('import-file-error').textContent()).toBe('Choose a .zip file of the project, or drop one here.');
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    expect(await dialog.getByTestId('import-file-error').textContent()).toContain('notes.txt is not a zip file.');

    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'my-app.zip', mimeType: 'application/zip', buffer: zipOf(MY_APP) });
    expect(await dialog.getByTestId('import-file').textContent()).toMatch(/^my-app\.zip · \d+ B$/);
    expect(await dialog.getByTestId('import-file-error').count()).toBe(0);
    await saveShot(page, 'import-zip-chosen');
    await dialog.getByTestId('import-submit').click();

    // node_modules was left out: the dialog lists it and offers the project.
    await dialog.locator('[data-testid="import-phase"][data-phase="done"]').waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Project imported');
    expect(await dialog.getByText('3 files from my-app.zip are version 1 of a new project.').isVisible()).toBe(true);
    expect(await dialog.getByTestId('import-skipped').textContent()).toBe('node_modules/ (dependencies are installed from the package manifest)');
    await saveShot(page, 'import-zip-skipped');
    // The list behind the dialog already has the project, its idea from the README.
    await waitForCards(page, 1);
    expect(await cardTitles(page)).toEqual(['A tiny counter page with a reset button.']);

    await dialog.getByTestId('import-open').click();
    await page.getByTestId('project-detail').waitFor();
    const projectId = pathOf(page).split('/').at(-1)!;
    expect(pathOf(page)).toBe(`/projects/${projectId}`);
    expect(await page.getByTestId('project-title').textContent()).toBe('A tiny counter page with a reset button.');
    await page.getByTestId('file-tree').waitFor();
    expect((await page.getByTestId('file-item').allTextContents()).map((text) => text.trim()).sort()).toEqual(['README.md', 'app.js', 'index.html']);

    const versions = (await (await page.request.get(`/api/projects/${projectId}/versions`)).json()) as {
      current: number;
      versions: { number: number; label: string; source: { kind: string; origin?: string } }[];
    };
    expect(versions.current).toBe(1);
    expect(versions.versions).toMatchObject([{ number: 1, label: 'Imported from my-app.zip', source: { kind: 'import', origin: 'my-app.zip' } }]);
    await page.goto(`/projects/${projectId}?tab=versions`);
    expect(await page.getByTestId('version-label').first().textContent()).toBe('Imported from my-app.zip');
    await saveShot(page, 'import-zip-versions');
  });

  it('refuses a zip-slip entry with the sentence that names it, keeps the file, adds no project; a clean zip then opens the project at once', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/projects', 'import');
    await page.getByTestId('projects-empty').waitFor();
    const dialog = await openImportDialog(page);
    const hostile = zipOf({ 'index.html': '<p>fine</p>\n', '../evil.js': "require('fs').writeFileSync('/tmp/pwned', 'x');\n" });
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'evil.zip', mimeType: 'application/zip', buffer: hostile });
    await dialog.getByTestId('import-idea').fill('Should never exist');
    await dialog.getByTestId('import-submit').click();

    const error = dialog.getByTestId('import-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('../evil.js');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await dialog.getByTestId('import-phase').getAttribute('data-phase')).toBe('form');
    // The chosen file and the idea stay, so another file can be picked.
    expect(await dialog.getByTestId('import-file').textContent()).toContain('evil.zip');
    expect(await dialog.getByTestId('import-idea').inputValue()).toBe('Should never exist');
    await saveShot(page, 'import-zip-refused');
    expect(await projectCount(page)).toBe(0);

    // Another file: the refusal goes; nothing skipped, so the project opens with a toast.
    const clean = zipOf({ 'index.html': '<p>fine</p>\n', 'style.css': 'p { color: teal; }\n' });
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'clean.zip', mimeType: 'application/zip', buffer: clean });
    expect(await dialog.getByTestId('import-error').count()).toBe(0);
    await dialog.getByTestId('import-idea').fill('A teal paragraph');
    await dialog.getByTestId('import-submit').click();
    expect(await waitForToast(page, '2 files from clean.zip.')).toMatchObject({ title: 'Project imported', variant: 'default' });
    await page.getByTestId('project-detail').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('project-title').textContent()).toBe('A teal paragraph');
    expect(await projectCount(page)).toBe(1);
  });

  it('GitHub without a saved token: says so with a link to Settings', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, '/projects', 'import');
    const dialog = await openImportDialog(page);
    await dialog.getByTestId('tab-github').click();
    await dialog.getByTestId('import-no-github').waitFor();
    expect(await dialog.getByTestId('import-submit').isDisabled()).toBe(true);
    await dialog.getByRole('link', { name: 'Save a GitHub token in Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await dialog.waitFor({ state: 'detached' });
  });

  it('a visitor sees no import button', async () => {
    const page = await browser.newPage();
    await page.goto('/projects');
    await page.getByTestId('projects-sign-in').waitFor();
    expect(await page.getByTestId('import-project').count()).toBe(0);
  });
});

describe('Import project from GitHub', () => {
  const browser = useBrowser();
  let github: FakeGithub;
  let server: TestServer;

  beforeAll(async () => {
    github = await startFakeGithub({ tokens: { ghp_good: 'octocat' } });
    github.addRepo('octocat', 'hello-world', { 'README.md': '# Hello\n\nSays hello on main.\n', 'index.js': "console.log('main');\n" });
    github.addBranch('octocat', 'hello-world', 'next', {
      'README.md': '# Hello\n\nSays hello, next edition.\n',
      'index.js': "console.log('next');\n",
      'dist/bundle.js': 'built();\n',
    });
    server = await startTestServer({ env: { GITHUB_API_URL: github.url } });
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('imports a pasted repository address at a branch with the token saved in Settings', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await openSignedIn(page, '/projects', 'import-gh');
    const saved = await page.request.put('/api/settings/github', { data: { token: 'ghp_good' } });
    expect(saved.status()).toBe(200);
    const dialog = await openImportDialog(page);
    await dialog.getByTestId('tab-github').click();
    await dialog.getByTestId('import-github-account').filter({ hasText: 'octocat' }).waitFor();

    // Not OWNER/REPO: the field says what to type, nothing is sent.
    await dialog.getByTestId('import-repo').fill('hello-world');
    await dialog.getByTestId('import-submit').click();
    await dialog.getByText('github must be OWNER/REPO, e.g. octocat/hello-world').waitFor();
    // A repository GitHub does not have: the server's sentence.
    await dialog.getByTestId('import-repo').fill('octocat/no-such-repo');
    await dialog.getByTestId('import-submit').click();
    await dialog.getByTestId('import-error').waitFor();
    expect(await dialog.getByTestId('import-error').textContent()).toContain('octocat/no-such-repo');
    expect(await projectCount(page)).toBe(0);

    await dialog.getByTestId('import-repo').fill('https://github.com/octocat/hello-world.git');
    await dialog.getByTestId('import-ref').fill('next');
    await dialog.getByTestId('import-submit').click();
    await dialog.locator('[data-testid="import-phase"][data-phase="done"]').waitFor();
    expect(await dialog.getByTestId('import-skipped').textContent()).toBe('dist/ (build output is made again from the source)');
    await saveShot(page, 'import-github-skipped');
    await dialog.getByTestId('import-open').click();
    await page.getByTestId('project-detail').waitFor();
    expect(await page.getByTestId('project-title').textContent()).toBe('Says hello, next edition.');
    const projectId = pathOf(page).split('/').at(-1)!;
    const versions = (await (await page.request.get(`/api/projects/${projectId}/versions`)).json()) as { versions: { label: string }[] };
    expect(versions.versions.map((version) => version.label)).toEqual(['Imported from github:octocat/hello-world@next']);
  });
});
