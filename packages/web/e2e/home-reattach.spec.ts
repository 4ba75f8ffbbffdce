/**
 * A run outlives its connection: after a reload, a dropped connection or a server restart the page
 * finds the same run again (GET /api/wolfpack/runs/{id}, then .../events with Last-Event-ID) and
 * still sees it complete; after a restart the server continues the run by itself, with no click. This file runs its own
 * server behind a TCP proxy that can cut connections, with an engine on a local OpenAI-compatible
 * fake (answering like the demo engines) whose answers are slow, and which the first test holds
 * at Polishing: a reload on a busy machine still lands mid-run, by construction, not by timing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { delay, demoEngineAnswer, feedMessages, saveShot, signUpViaApi } from './helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

const IDEA = 'A recipe box with shopping lists and a meal planner';
/**
 * Each engine answer waits this long, so a run lasts several seconds: a dropped connection or a
 * restart lands mid-run.
 */
const ANSWER_DELAY_MS = 1500;

/** Polishing's answers wait for this as well, when a test holds them (see `holdPolishing`). */
let polishingHeld: Promise<void> | undefined;
let releasePolishing = () => {};

/** Requests to the reattach endpoint, with their Last-Event-ID header. */
function captureReattach(page: Page): Array<{ url: string; lastEventId: string | undefined }> {
  const seen: Array<{ url: string; lastEventId: string | undefined }> = [];
  page.on('request', (req) => {
    if (/\/api\/wolfpack\/runs\/[^/]+\/events$/.test(new URL(req.url()).pathname)) {
      seen.push({ url: req.url(), lastEventId: req.headers()['last-event-id'] });
    }
  });
  return seen;
}

const completedStages = (page: Page) => page.locator('[data-testid^="stage-row-"][data-status="complete"]').count();

describe('Home: reattaching to a run', () => {
  const browser = useBrowser();
  let dataDir: string;
  let server: TestServer;
  let proxy: TcpProxy;
  let engine: OpenAIFakeServer;
  let serverEnv: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-e2e-reattach-'));
    engine = await startFakeOpenAIServer({
      fallback: (request) => demoEngineAnswer(request, { every: { headersDelayMs: ANSWER_DELAY_MS }, polishing: polishingHeld ? { headersAfter: polishingHeld } : {} }),
    });
    // Free, so that three runs never meet the new account's balance.
    serverEnv = {
      WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
    };
    server = await startTestServer({ env: serverEnv, dataDir });
    proxy = await startTcpProxy(server.url);
  });
  afterAll(async () => {
    releasePolishing();
    await proxy?.close();
    await server?.close();
    await engine?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Signs up, starts a run and waits until it is mid-way (first stage done, more to come). */
  async function startRun(): Promise<Page> {
    const page = await browser.newPage({ baseUrl: proxy.url });
    await signUpViaApi(page, uniqueUsername('reattach'));
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('enhanceTipShown', 'true'));
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('start-button').click();
    await page.locator('[data-testid="stage-row-1"][data-status="complete"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('success-banner').count()).toBe(0);
    return page;
  }

  /** Polishing's answers wait until the returned function is called (afterAll calls it too). */
  function holdPolishing(): () => void {
    let release!: () => void;
    polishingHeld = new Promise<void>((resolve) => (release = resolve));
    releasePolishing = () => {
      release();
      polishingHeld = undefined;
    };
    return releasePolishing;
  }

  it('reattaches after a reload mid-run and sees the run complete', async () => {
    const release = holdPolishing();
    const page = await startRun();
    expect(await page.getByTestId('start-button').textContent()).toBe('Pack in action...');
    await saveShot(page, 'home-running', { fullPage: true });
    const runId = await page.evaluate(() => localStorage.getItem('currentPipelineId'));
    expect(runId).toBeTruthy();
    const reattach = captureReattach(page);

    await page.reload();
    await page.getByTestId('pipeline-progress').waitFor();
    expect(await completedStages(page)).toBeLessThan(5);
    expect(await page.getByTestId('success-banner').count()).toBe(0);
    release();
    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    expect(reattach[0]?.url).toContain(`/api/wolfpack/runs/${runId}/events`);
    // A fresh page has seen nothing yet: the whole run is replayed, then followed live.
    expect(reattach[0]?.lastEventId).toBeUndefined();
    expect(await completedStages(page)).toBe(5);
    expect(await page.getByTestId('progress-percent').textContent()).toBe('100%');
    expect(await feedMessages(page)).toContain('Reconnecting to your run…');
    expect(await page.evaluate(() => localStorage.getItem('currentPipelineId'))).toBeNull();
  });

  it('reconnects with Last-Event-ID when the connection drops mid-run', async () => {
    const page = await startRun();
    const reattach = captureReattach(page);

    proxy.pause();
    proxy.dropAll();
    await page.locator('[data-testid="run-callout"][data-phase="reconnecting"]').waitFor();
    expect(await page.getByTestId('run-phase').textContent()).toBe('Reconnecting…');
    await saveShot(page, 'home-reconnecting');
    await delay(1200);
    proxy.resume();

    await page.getByTestId('success-banner').waitFor({ timeout: 45_000 });
    const last = reattach.at(-1);
    expect(Number(last?.lastEventId)).toBeGreaterThan(1);
    expect(await completedStages(page)).toBe(5);
    expect(await feedMessages(page)).toContain('Connection lost. Reconnecting…');
  });

  it('after a server restart the run continues by itself: no click, the feed says so', async () => {
    const page = await startRun();

    proxy.pause();
    await server.close();
    server = await startTestServer({ env: serverEnv, dataDir });
    proxy.retarget(server.url);
    proxy.resume();

    await page.getByTestId('success-banner').waitFor({ timeout: 60_000 });
    expect(await completedStages(page)).toBe(5);
    const messages = await feedMessages(page);
    expect(messages.some((m) => m.startsWith('The server restarted; continuing'))).toBe(true);
    await saveShot(page, 'home-continued-after-restart');
    // Nothing asked the user to act: the run was never shown as interrupted.
    expect(await page.locator('[data-testid="run-callout"][data-phase="interrupted"]').count()).toBe(0);
  });
});
