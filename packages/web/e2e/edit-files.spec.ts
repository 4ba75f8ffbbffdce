/**
 * Editing a project's files in the browser, with no run: the Files tab's CodeMirror editor saves
 * a new version ("Edited by you") that stays after a reload, Proven Code checks it and the preview
 * serves it; a stale save (another tab made a version meanwhile) gets the server's sentence and
 * keeps the text until Reload; new files, renames and deletes are versions too. Runs on the shared
 * server (sandbox off: Proven Code's verdict is honestly "Not proven").
 */
import { projectDetailReply, versionsReply } from '@wolfpack/core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueUsername, useBrowser } from './harness';
import { buildProjectViaApi, openToast, saveShot, signUpViaApi } from './helpers';

async function projectOf(page: Page, projectId: string) {
  const res = await page.request.get(`/api/projects/${projectId}`);
  if (!res.ok()) throw new Error(`GET project: ${res.status()} ${await res.text()}`);
  return projectDetailReply.parse(await res.json());
}

/** The editor's text, line by line as CodeMirror shows it (the files here are small: every line is drawn). */
async function editorText(page: Page): Promise<string> {
  return (await page.locator('[data-testid="code-editor"] .cm-line').allTextContents()).join('\n');
}

/** Puts the cursor at the end of the first line holding `text` and inserts `insert` there. */
async function insertAfterLine(page: Page, text: string, insert: string): Promise<void> {
  await page.locator('[data-testid="code-editor"] .cm-line', { hasText: text }).first().click();
  await page.keyboard.press('End');
  // One input of the whole text: CodeMirror's HTML support closes a tag typed key by key.
  await page.keyboard.insertText(insert);
}

async function openEditor(page: Page, projectId: string, file: string): Promise<void> {
  await page.goto(`/projects/${projectId}?file=${encodeURIComponent(file)}`);
  await page.locator(`[data-testid="code-editor"][data-path="${file}"] .cm-content`).waitFor();
}

function toastWith(page: Page, title: string) {
  return openToast(page).filter({ hasText: title });
}

describe('Editing files in the browser', () => {
  const browser = useBrowser();

  it('saves an edit as version 2: it stays after a reload, Proven Code checks it and the preview shows it', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('edit'));
    const projectId = await buildProjectViaApi(page, 'A habit tracker');
    expect((await projectOf(page, projectId)).version).toBe(1);

    await openEditor(page, projectId, 'index.html');
    expect(await editorText(page)).toBe((await projectOf(page, projectId)).project.fsIndex['index.html']);
    // The HTML grammar arrived: tags are highlighted as such.
    await page.locator('[data-testid="code-editor"] .cm-line span').first().waitFor();
    expect(await page.getByTestId('save-file').isDisabled()).toBe(true);

    await insertAfterLine(page, '<main class="app">', '\n      <p id="edited">Edited in the browser</p>');
    await page.getByTestId('unsaved-marker').waitFor();
    expect(await page.getByTestId('file-editor').getAttribute('data-dirty')).toBe('true');
    await saveShot(page, 'edit-files-unsaved');

    // Ctrl-S saves on the version the editor opened; Proven Code then checks version 2.
    const put = page.waitForRequest((req) => req.method() === 'PUT' && new URL(req.url()).pathname === `/api/projects/${projectId}/files/index.html`);
    const recheck = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === `/api/projects/${projectId}/verification`,
      { timeout: 45_000 },
    );
    await page.keyboard.press('Control+s');
    expect((await put).postDataJSON()).toMatchObject({ expectedVersion: 1 });
    await toastWith(page, 'Saved as version 2').waitFor();
    await page.getByTestId('unsaved-marker').waitFor({ state: 'detached' });
    expect((await recheck).status()).toBe(200);
    const badge = page.locator('[data-testid="proven-badge"][data-state="checked"][data-version="2"]');
    await badge.waitFor({ timeout: 45_000 });
    expect(await badge.getAttribute('data-verdict')).toMatch(/^(passed|unproven)$/);
    await saveShot(page, 'edit-files-saved');

    const saved = await projectOf(page, projectId);
    expect(saved.version).toBe(2);
    expect(saved.project.fsIndex['index.html']).toContain('<main class="app">\n      <p id="edited">Edited in the browser</p>\n');
    expect(saved.verification?.version).toBe(2);
    const versions = versionsReply.parse(await (await page.request.get(`/api/projects/${projectId}/versions`)).json());
    expect(versions.versions.map((v) => [v.number, v.label])).toEqual([
      [2, 'Edited by you'],
      [1, 'Build'],
    ]);

    // After a reload the editor shows the saved text (here in the dark theme, which the editor
    // follows), and the Proven Code tab the new version's verdict.
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.locator('[data-testid="code-editor"] .cm-line', { hasText: 'Edited in the browser' }).waitFor();
    expect(await page.locator('[data-testid="code-editor"] .cm-editor').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(40, 44, 52)');
    await saveShot(page, 'edit-files-dark');
    await page.getByTestId('tab-proven-code').click();
    expect(await page.getByTestId('proven-checked-at').textContent()).toContain('Version 2');

    // The preview serves the new version.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('open-preview').click()]);
    await tab!.locator('#edited').waitFor();
    expect(await tab!.locator('#edited').textContent()).toBe('Edited in the browser');
  });

  it("a second tab's stale save gets the server's sentence and keeps its text until Reload", async () => {
    const first = await browser.newPage();
    await signUpViaApi(first, uniqueUsername('stale'));
    const projectId = await buildProjectViaApi(first, 'A reading list');
    const second = await first.context().newPage();
    await openEditor(first, projectId, 'README.md');
    await openEditor(second, projectId, 'README.md');

    await insertAfterLine(first, '# ', '\n\nFrom the first tab.');
    await first.getByTestId('save-file').click();
    await toastWith(first, 'Saved as version 2').waitFor();

    await insertAfterLine(second, '# ', '\n\nFrom the second tab.');
    const refused = second.waitForResponse((res) => res.request().method() === 'PUT');
    await second.keyboard.press('Control+s');
    const response = await refused;
    expect(response.status()).toBe(409);
    const sentence = ((await response.json()) as { error: string }).error;
    await second.getByTestId('edit-conflict').waitFor();
    expect(await second.getByTestId('edit-conflict-message').textContent()).toBe(sentence);
    // Nothing was lost: the text is still there, still unsaved.
    expect(await editorText(second)).toContain('From the second tab.');
    await second.getByTestId('unsaved-marker').waitFor();
    await saveShot(second, 'edit-files-conflict');

    // Moving to another file with unsaved text asks first; Cancel stays.
    await second.locator('[data-testid="file-item"][data-path="app.js"]').click();
    await second.getByTestId('unsaved-dialog').waitFor();
    await second.getByTestId('unsaved-dialog').getByRole('button', { name: 'Cancel' }).click();
    await second.getByTestId('unsaved-dialog').waitFor({ state: 'detached' });
    expect(new URL(second.url()).searchParams.get('file')).toBe('README.md');
    expect(await editorText(second)).toContain('From the second tab.');
    // Closing the tab asks too (the browser's own question); staying keeps the text.
    const asked = second.waitForEvent('dialog');
    await second.close({ runBeforeUnload: true });
    const question = await asked;
    expect(question.type()).toBe('beforeunload');
    await question.dismiss();
    expect(second.isClosed()).toBe(false);
    expect(await editorText(second)).toContain('From the second tab.');

    // Reload: the first tab's version replaces the text, and a save now makes version 3.
    await second.getByTestId('edit-conflict-reload').click();
    await second.getByTestId('edit-conflict').waitFor({ state: 'detached' });
    await second.getByTestId('unsaved-marker').waitFor({ state: 'detached' });
    // The alert and the marker go in the reload's render; CodeMirror takes the text in an effect after it.
    await expect.poll(() => editorText(second)).toContain('From the first tab.');
    expect(await editorText(second)).not.toContain('From the second tab.');
    await insertAfterLine(second, 'From the first tab.', '\nAnd the second.');
    await second.getByTestId('save-file').click();
    await toastWith(second, 'Saved as version 3').waitFor();
    expect((await projectOf(second, projectId)).project.fsIndex['README.md']).toContain('From the first tab.\nAnd the second.');
  });

  it('makes a new file, renames it and deletes it, each as a version; a bad path gets the server sentence', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('files'));
    const projectId = await buildProjectViaApi(page, 'A recipe box');
    await openEditor(page, projectId, 'README.md');

    await page.getByTestId('new-file').click();
    const input = page.getByTestId('file-path-input');
    await input.fill('../outside.js');
    const refused = page.waitForResponse((res) => res.request().method() === 'PUT');
    await page.getByTestId('file-path-submit').click();
    const response = await refused;
    expect(response.status()).toBe(400);
    const sentence = ((await response.json()) as { error: string }).error;
    await page.getByTestId('file-path-dialog').getByText(sentence).waitFor();
    // A taken name is refused before anything is overwritten.
    await input.fill('app.js');
    await page.getByTestId('file-path-submit').click();
    await page.getByTestId('file-path-dialog').getByText('app.js exists already').waitFor();

    await input.fill('src/util.js');
    await page.getByTestId('file-path-submit').click();
    await toastWith(page, 'Created as version 2').waitFor();
    await page.locator('[data-testid="code-editor"][data-path="src/util.js"] .cm-content').waitFor();
    expect(new URL(page.url()).searchParams.get('file')).toBe('src/util.js');
    await page.locator('[data-testid="code-editor"] .cm-content').click();
    await page.keyboard.insertText('export const answer = 42;');
    await page.getByTestId('save-file').click();
    await toastWith(page, 'Saved as version 3').waitFor();

    await page.getByTestId('rename-file').click();
    await input.fill('lib/util.js');
    await page.getByTestId('file-path-submit').click();
    await toastWith(page, 'Renamed as version 4').waitFor();
    await page.locator('[data-testid="code-editor"][data-path="lib/util.js"] .cm-content').waitFor();
    expect(await editorText(page)).toBe('export const answer = 42;');
    let files = (await projectOf(page, projectId)).files;
    expect(files).toContain('lib/util.js');
    expect(files).not.toContain('src/util.js');

    await page.getByTestId('delete-file').click();
    await page.getByTestId('delete-file-dialog').waitFor();
    await page.getByTestId('confirm-delete').click();
    await toastWith(page, 'Deleted as version 5').waitFor();
    await page.locator('[data-testid="file-item"][data-path="lib/util.js"]').waitFor({ state: 'detached' });
    files = (await projectOf(page, projectId)).files;
    expect(files).not.toContain('lib/util.js');
    expect((await projectOf(page, projectId)).version).toBe(5);
  });

  it('opens a file larger than a file may be read-only, with a sentence', async () => {
    const page = await browser.newPage();
    await signUpViaApi(page, uniqueUsername('huge'));
    const projectId = await buildProjectViaApi(page, 'A big data dump');
    // 1025 lines of 1 KiB: just over the 1 MiB a file may hold.
    const big = `${'x'.repeat(1023)}\n`.repeat(1025);
    await page.route(`**/api/projects/${projectId}`, async (route) => {
      const res = await route.fetch();
      const reply = (await res.json()) as { project: { fsIndex: Record<string, string> }; files: string[] };
      reply.project.fsIndex['big.txt'] = big;
      reply.files = [...reply.files, 'big.txt'].sort();
      await route.fulfill({ response: res, json: reply });
    });
    await page.goto(`/projects/${projectId}?file=big.txt`);
    await page.getByTestId('file-read-only').waitFor();
    expect(await page.getByTestId('file-read-only').textContent()).toContain('so it opens read-only');
    expect(await page.getByTestId('code-editor').count()).toBe(0);
    expect(await page.getByTestId('save-file').count()).toBe(0);
    expect(await page.getByTestId('file-viewer').count()).toBe(1);
  });

  it('loads the editor only when a file is opened: the home page asks for none of it', async () => {
    const page = await browser.newPage();
    const editorChunks: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/\/assets\/(codemirror|code-editor)-/.test(path)) editorChunks.push(path);
    });
    await signUpViaApi(page, uniqueUsername('lazy-editor'));
    await page.goto('/');
    await page.getByTestId('learn-more').waitFor();
    await page.waitForLoadState('load');
    expect(editorChunks).toEqual([]);
    const projectId = await buildProjectViaApi(page, 'A habit tracker');
    await openEditor(page, projectId, 'index.html');
    expect(editorChunks.some((path) => path.includes('/codemirror-'))).toBe(true);
  });
});
