/**
 * The steps of Checking and Proven Code in the Activity Feed, in Chromium, for a real project run
 * in the sandbox: while its slow test runs (it sleeps on purpose), the line 'Running the tests…'
 * shows an elapsed time that the page counts on by itself, past 3 s; when the step ends its line
 * stops counting and the end line says how long it took.
 *
 * The engine is a local OpenAI-compatible fake that builds the project of core's stepped fixture;
 * its one dependency comes from a fake npm registry.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { needTool, sandboxCheck, startFakeNpmRegistry, STEPPED_PACKAGES, steppedProject, steppedReply, type FakeNpmRegistry } from '@wolfpack/core/testing';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { delay, feedMessages, saveShot, signUpViaApi, skipEnhanceTip } from './helpers';

const sandboxed = needTool(await sandboxCheck(), "the Activity Feed's live step lines (a project run in the sandbox)");

/** The project's test sleeps this long: a step slow by construction. */
const TEST_MS = 8000;

/** The whole seconds a running step's line shows ("4 s"). */
async function secondsShown(elapsed: Locator): Promise<number> {
  const text = (await elapsed.textContent()) ?? '';
  const match = /^(\d+) s$/.exec(text.trim());
  if (!match) throw new Error(`the running step shows "${text}", not whole seconds`);
  return Number(match[1]);
}

describe.skipIf(!sandboxed)('step lines in the Activity Feed', () => {
  const browser = useBrowser();
  let engine: OpenAIFakeServer;
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let server: TestServer;

  beforeAll(async () => {
    const files = steppedProject(TEST_MS);
    registry = await startFakeNpmRegistry(STEPPED_PACKAGES);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-steps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    engine = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [steppedReply(files, (request.body as { messages: ChatMessage[] }).messages)] }) });
    server = await startTestServer({
      env: {
        WOLFPACK_SANDBOX: 'on',
        // The sleeping test, the start and the machine's other suites: more than the default 20 s may be needed.
        WOLFPACK_PROOF_TIME_LIMIT_MS: '60000',
        // One command (the sleeping test) gets as long: a loaded machine runs it past the default 15 s.
        WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS: '60000',
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
        npm_config_registry: registry.url,
        WOLFPACK_PROOF_CACHE_DIR: cacheDir,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it("shows the running step's time counting on, then the step's end line with its time", async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await signUpViaApi(page, uniqueUsername('steps'));
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill('A greeter');
    await page.getByTestId('start-button').click();

    const running = page.getByTestId('feed-item').filter({ hasText: 'Running the tests…' });
    const elapsed = running.getByTestId('step-elapsed');
    await elapsed.waitFor({ timeout: 60_000 });
    // The line counts on by itself (the server sends no ticks): past 3 s, and still on after that.
    let shown = await secondsShown(elapsed);
    while (shown < 3) {
      await delay(250);
      shown = await secondsShown(elapsed);
    }
    await running.scrollIntoViewIfNeeded();
    await saveShot(page, 'pipeline-step-running');
    await delay(1500);
    expect(await secondsShown(elapsed)).toBeGreaterThan(shown);
    // The other steps' lines are there, ended: the install before the tests.
    const messages = await feedMessages(page);
    expect(messages).toContain('Installing 1 dependency…');
    expect(messages.some((m) => /^Installed 1 dependency( from the cache)? in \d+\.\d s$/.test(m))).toBe(true);

    // The step ends: its end line says how long it took (at least the test's sleep), and nothing counts on.
    const ended = page.getByTestId('feed-message').filter({ hasText: /^1 test passed in \d+\.\d s$/ });
    await ended.waitFor({ timeout: 30_000 });
    const seconds = Number(/in (\d+\.\d) s$/.exec((await ended.textContent()) ?? '')![1]);
    expect(seconds).toBeGreaterThanOrEqual(TEST_MS / 1000);
    expect(await elapsed.count()).toBe(0);
    await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('step-elapsed').count()).toBe(0);
    expect((await feedMessages(page)).some((m) => /^Type check passed in \d+\.\d s$/.test(m))).toBe(true);
    await saveShot(page, 'pipeline-step-ended');
  });
});
