/**
 * A re-check refused for the sandboxes' shares, on screen: while a project is being checked in the
 * real sandbox (its test never ends until the time limit), Re-check on its page says it did not
 * start and what to wait for, in the server's words; once the first check is done, Re-check runs.
 */
import { randomUUID } from 'node:crypto';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { buildProjectViaApi, saveShot, signUpViaApi } from './helpers';

const sandboxed = needTool(await sandboxCheck(), 'the re-check refused while its project is being checked (it runs in the sandbox)');

describe.skipIf(!sandboxed)('Re-check while the project is being checked', () => {
  const browser = useBrowser();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { WOLFPACK_SANDBOX: 'on', WOLFPACK_PROOF_TIME_LIMIT_MS: '5000' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says the re-check did not start and what to wait for, then re-checks once the first one is done', async () => {
    const { processesWith } = await import('@wolfpack/server/testing');
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('recheck'));
    const projectId = await buildProjectViaApi(page, 'A notes app');
    // The project becomes one whose test never ends: each check of it takes the whole time limit.
    const tag = `endless-${randomUUID()}`;
    const files = { 'package.json': JSON.stringify({ name: 'endless', version: '1.0.0', scripts: { test: `node endless.js ${tag}` } }), 'endless.js': 'setInterval(() => {}, 1000);\n' };
    const sql = server.db.orm.em.getConnection();
    await sql.execute('delete from project_files where project_id = ?', [projectId]);
    for (const [path, content] of Object.entries(files)) await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, path, content, content.length]);
    await sql.execute('update projects set version = version + 1 where id = ?', [projectId]);

    await page.goto(`/projects/${projectId}?tab=proven-code`);
    await page.getByTestId('recheck-button').waitFor();
    // Another tab of the same user re-checks it, and its test is running in the sandbox.
    const first = page.request.post(`/api/projects/${projectId}/verification`, { data: {}, timeout: 60_000 });
    const deadline = Date.now() + 30_000;
    while (processesWith(tag).length === 0) {
      if (Date.now() > deadline) throw new Error('the first re-check never started its test');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    await page.getByTestId('recheck-button').click();
    const error = page.getByTestId('recheck-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'The re-check did not start: This project is already being checked: a re-check or a repair of it is running or waiting for a sandbox, and a project is checked one at a time. Wait for it to finish (its result is shown when it does), then re-check again if you still need to.',
    );
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.getAttribute('class')).toContain('bg-amber-50');
    await saveShot(page, 'recheck-refused');

    // Once the first is done, the same button re-checks it.
    expect((await first).status()).toBe(200);
    const answered = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === `/api/projects/${projectId}/verification`, { timeout: 60_000 });
    await page.getByTestId('recheck-button').click();
    expect((await answered).status()).toBe(200);
    await error.waitFor({ state: 'detached' });
    await page.getByTestId('recheck-progress').waitFor({ state: 'detached' });
    expect(await page.getByTestId('recheck-button').textContent()).toBe('Re-check');
  });
});
