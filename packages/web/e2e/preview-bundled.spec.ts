/**
 * "Open Preview" of a React + Vite app: the scripted engine writes the app, the run's Proven Code
 * builds and renders it in the sandbox, and the preview shows the running app on its own origin:
 * its heading, an input that takes text, a result that changes, storage that works. The app installs the real Vite and
 * React from a local registry (packed from this workspace), so everything runs offline.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { BUNDLED_CASES, needTool, replyForRequest, sandboxCheck, startFakeNpmRegistry, workspaceTree, type FakeNpmRegistry } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { signUpViaApi, skipEnhanceTip } from './helpers';

const sandboxed = needTool(await sandboxCheck(), 'the preview of a bundled app (it is built in the sandbox)');
const app = BUNDLED_CASES.find((c) => c.id === 'correct-react-js')!;

describe.skipIf(!sandboxed)('Open Preview of a React + Vite app', () => {
  const browser = useBrowser();
  let engine: OpenAIFakeServer;
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let server: TestServer;

  beforeAll(async () => {
    registry = await startFakeNpmRegistry({}, await workspaceTree(['vite@8', 'react@19', 'react-dom@19', '@vitejs/plugin-react@6']));
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    engine = await startFakeOpenAIServer({
      fallback: (request) => {
        const reply = replyForRequest(app, (request.body as { messages: ChatMessage[] }).messages);
        return { kind: 'stream', deltas: [typeof reply === 'string' ? reply : 'I cannot answer that.'] };
      },
    });
    server = await startTestServer({
      env: {
        WOLFPACK_SANDBOX: 'on',
        // The project's build, a development build and the render: on a busy 2-core machine (the suites run
        // side by side) they can pass 20 s, and the verdict would then rightly be unproven. This file
        // is about the preview; the budget has tests of its own.
        WOLFPACK_PROOF_TIME_LIMIT_MS: '60000',
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
        npm_config_registry: registry.url,
        WOLFPACK_PROOF_CACHE_DIR: cacheDir,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await engine?.close();
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('builds the app, proves it by rendering it, and the preview runs it: heading, input, a result that changes', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('react'));
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill('A tally of the things I need to buy');
    await page.getByTestId('start-button').click();
    const banner = page.getByTestId('success-banner');
    await banner.waitFor({ timeout: 90_000 });
    // Built and rendered in the sandbox: passed, not merely "the dev server stayed up".
    expect(await banner.getAttribute('data-verdict')).toBe('passed');

    const [preview] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('open-preview').click()]);
    // The build is cached from the run's own or made now; until it is ready the page says so.
    await preview.getByRole('heading', { name: 'Tally' }).waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\nThe preview showed: ${await preview.locator('body').innerText().catch(() => '(nothing)')}`);
    });
    expect(preview.url()).toMatch(/^http:\/\/p-[\w-]+\.localhost:\d+\/$/);
    await expect.poll(() => preview.getByText('No items yet').count()).toBe(1);
    await preview.getByRole('textbox', { name: 'Item' }).fill('apples');
    await preview.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => preview.getByText('1 item').count()).toBe(1);
    await preview.getByRole('textbox', { name: 'Item' }).fill('pears');
    await preview.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => preview.getByText('2 items').count()).toBe(1);
    // Its own origin: storage works, and holds nothing of Wolfpack's.
    await preview.evaluate(() => localStorage.setItem('kept', 'yes'));
    expect(await preview.evaluate(() => [localStorage.getItem('kept'), localStorage.length])).toEqual(['yes', 1]);
  });
});
