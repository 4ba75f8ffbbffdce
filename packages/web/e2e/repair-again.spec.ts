/**
 * "Repair again" on screen: after a build whose Proven Code gate failed, the banner and
 * the project's Proven Code tab start a new run of Proven Code alone (POST
 * /api/projects/{id}/repair), and the build screen follows it like a build: the stages the run
 * does not do read "Not in this run", Proven Code runs, a reload reattaches, and the banner says
 * honestly what the repair did. The server's refusals show as they come.
 *
 * The engine is a local OpenAI-compatible fake answering like the demo engines, except that until
 * `mode.fixes` is set every app.js it writes starts with a syntax error, so the gate fails for
 * real (the sandbox is off, as for every spec but the sandbox ones: a fixed project is "not
 * proven", never "passed").
 */
import { balanceReply, conversationsReply, projectDetailReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer, type RecordedRequest } from '@wolfpack/core/engines/testing';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adjustBalance } from './billing-helpers';
import { startTestServer, uniqueUsername, useBrowser, type TestServer } from './harness';
import { saveShot, signUpViaApi, skipEnhanceTip, waitForToast } from './helpers';

const IDEA = 'A habit tracker with daily streaks';
const messagesOf = (request: RecordedRequest) => (request.body as { messages: ChatMessage[] }).messages;
/** A repair round's prompt (core's stage-repair) as opposed to a build stage's. */
const isRepair = (request: RecordedRequest) =>
  /Automated checks found problems/.test(String(messagesOf(request).find((m) => m.role === 'system')?.content ?? ''));

const row = (page: Page, n: number) => page.getByTestId(`stage-row-${n}`);
const statusOf = (page: Page, n: number) => row(page, n).getAttribute('data-status');

async function stageStatuses(page: Page): Promise<Array<string | null>> {
  return Promise.all([1, 2, 3, 4, 5].map((n) => statusOf(page, n)));
}

describe('Repair again', () => {
  const browser = useBrowser();
  /** `repairHeld`: repair rounds' answers wait for it, so a run is seen running by construction, not by a delay a slow machine outruns. */
  const mode: { fixes: boolean; repairHeld?: Promise<void> } = { fixes: false };
  let engine: OpenAIFakeServer;
  let server: TestServer;

  beforeAll(async () => {
    engine = await startFakeOpenAIServer({
      fallback: (request) => {
        let text = demoReply(messagesOf(request));
        if (!mode.fixes) text = text.replaceAll('```js app.js\n', '```js app.js\nconst = ;\n');
        return { kind: 'stream', deltas: [text], headersAfter: isRepair(request) ? mode.repairHeld : undefined };
      },
    });
    server = await startTestServer({
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });
  beforeEach(() => {
    mode.fixes = false;
    mode.repairHeld = undefined;
  });

  // A test that fails while it holds the repairs lets them go, so nothing waits on it at close.
  let releaseHeld = () => {};
  afterEach(() => releaseHeld());

  /** Holds repair rounds' answers until the returned function is called. */
  function holdRepairs(): () => void {
    mode.repairHeld = new Promise<void>((resolve) => (releaseHeld = resolve));
    return releaseHeld;
  }

  /** Signs up and builds through the build screen; the gate fails. */
  async function buildFailing(page: Page): Promise<{ projectId: string; username: string }> {
    const username = uniqueUsername('repair');
    await signUpViaApi(page, username);
    await page.goto('/');
    await skipEnhanceTip(page);
    await page.getByTestId('prompt-input').fill(IDEA);
    await page.getByTestId('start-button').click();
    const banner = page.getByTestId('success-banner');
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.getAttribute('data-verdict')).toBe('failed');
    expect(await banner.getAttribute('data-run')).toBe('build');
    const projectId = await page.evaluate(() => localStorage.getItem('completedProjectId'));
    if (!projectId) throw new Error('The run completed without a project id.');
    return { projectId, username };
  }

  /** The banner of the repair run that ends next, once it is there. */
  async function repairBanner(page: Page, verdict: string) {
    const banner = page.locator(`[data-testid="success-banner"][data-run="repair"][data-verdict="${verdict}"]`);
    await banner.waitFor({ timeout: 60_000 });
    return banner;
  }

  it('repairs from the banner: Proven Code alone runs, the other stages are not in this run, the banner stays honest', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const { projectId } = await buildFailing(page);
    // The failed gate ends the build's Proven Code stage as failed, not spinning.
    expect(await stageStatuses(page)).toEqual(['complete', 'complete', 'complete', 'complete', 'failed']);
    expect(await row(page, 5).getByTestId('stage-status').textContent()).toBe('Did not pass');

    // A repair that still does not make it pass; held so it is seen running.
    const releaseRepair = holdRepairs();
    const callsBefore = engine.requests.length;
    await page.getByTestId('repair-again').click();
    await page.locator('[data-testid="stage-row-5"][data-status="running"]').waitFor({ timeout: 20_000 });
    expect(await stageStatuses(page)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'running']);
    expect(await row(page, 1).getByTestId('stage-status').textContent()).toBe('Not in this run');
    expect(await page.getByTestId('run-scope').textContent()).toContain('this run does Proven Code only');
    expect(await page.getByTestId('success-banner').count()).toBe(0);
    await saveShot(page, 'repair-again-running');
    releaseRepair();

    let banner = await repairBanner(page, 'failed');
    expect(await page.getByTestId('success-title').textContent()).toBe('Repair again did not make it pass Proven Code');
    expect(await page.getByTestId('success-summary').textContent()).toMatch(/^Repair run: Proven Code alone on the project's \d+ files?, in /);
    expect((await page.getByTestId('verification-problem').allTextContents()).some((text) => text.startsWith('app.js'))).toBe(true);
    expect(await stageStatuses(page)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'failed']);
    expect(await page.getByTestId('progress-percent').textContent()).toBe('100%');
    // Only repair rounds ran: no engine call of another stage went out for this run.
    const calls = engine.requests.slice(callsBefore);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every(isRepair)).toBe(true);
    await waitForToast(page, 'Proven Code still fails; the banner lists what failed.');
    await saveShot(page, 'repair-again-still-failed');

    // Once more, and this time the rounds fix it: nothing fails, but nothing could run here either.
    mode.fixes = true;
    mode.repairHeld = undefined;
    await banner.getByTestId('repair-again').click();
    banner = await repairBanner(page, 'unproven');
    expect(await page.getByTestId('success-title').textContent()).toBe('Repaired — not proven');
    expect(await banner.getByTestId('repair-again').count()).toBe(0);
    expect(await banner.locator('.lucide-circle-check').count()).toBe(0);
    expect(await stageStatuses(page)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'complete']);
    await saveShot(page, 'repair-again-fixed');

    // The project keeps what the screen says: a new version whose record is not failed.
    const detail = projectDetailReply.parse(await (await page.request.get(`/api/projects/${projectId}`)).json());
    expect(detail.verification).toMatchObject({ version: 3, verdict: 'unproven' });
  });

  it('starts from the Proven Code tab, and a reload mid-run reattaches without starting another', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const { projectId } = await buildFailing(page);
    await page.goto(`/projects/${projectId}?tab=proven-code`);
    const panel = page.getByTestId('proven-code');
    await panel.waitFor();
    expect(await panel.getAttribute('data-verdict')).toBe('failed');
    expect(await page.getByTestId('proven-repair-note').textContent()).toContain('charged like a stage');

    const releaseRepair = holdRepairs();
    await page.getByTestId('proven-repair-again').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('[data-testid="stage-row-5"][data-status="running"]').waitFor({ timeout: 20_000 });

    // The run is kept by its id: after a reload the replay says again which stages it does.
    await page.reload();
    await page.locator('[data-testid="run-scope"]').waitFor({ timeout: 20_000 });
    expect((await stageStatuses(page)).slice(0, 4)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    // The scope comes with the replay's run event, the running stage with a later event.
    await expect.poll(() => statusOf(page, 5)).toBe('running');
    releaseRepair();
    await repairBanner(page, 'failed');
    expect(await stageStatuses(page)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'failed']);

    // One build and one repair: neither the reload nor Back started a second repair.
    await page.goBack();
    await page.goForward();
    await page.getByTestId('success-banner').waitFor();
    const runs = conversationsReply.parse(await (await page.request.get('/api/conversations')).json()).conversations;
    expect(runs.filter((run) => run.projectId === projectId)).toHaveLength(2);
  });

  it("shows the server's refusal as it came when there is nothing to repair any more", async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const { projectId } = await buildFailing(page);
    // Meanwhile (another tab, the CLI) a repair fixed it; this banner still offers Repair again.
    mode.fixes = true;
    const res = await page.request.post(`/api/projects/${projectId}/repair`, { data: {}, timeout: 60_000 });
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('"type":"complete"');

    await page.getByTestId('repair-again').click();
    const callout = page.locator('[data-testid="run-callout"][data-phase="failed"]');
    await callout.waitFor();
    const sentence = (await callout.textContent()) ?? '';
    expect(sentence).toMatch(/nothing to repair/);
    expect(sentence).toMatch(/Re-check it instead/);
    const toast = await waitForToast(page, sentence.trim());
    expect(toast.title).toBe('Repair Not Started');
    expect(await page.getByTestId('success-banner').count()).toBe(0);
  });

  it('out of credits: the run stops before Proven Code and links to Settings', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    const { projectId, username } = await buildFailing(page);
    const { balanceCents } = balanceReply.parse(await (await page.request.get('/api/billing/balance')).json());
    await adjustBalance(server, username, -balanceCents);

    await page.getByTestId('repair-again').click();
    const callout = page.locator('[data-testid="run-callout"]').filter({ has: page.getByTestId('add-credits-link') });
    await callout.waitFor({ timeout: 30_000 });
    expect(await callout.textContent()).toMatch(/Not enough credits/);
    expect(await callout.getByTestId('add-credits-link').getAttribute('href')).toBe('/settings#buy-credits');
    expect(await statusOf(page, 5)).not.toBe('complete');
    await saveShot(page, 'repair-again-no-credits');
    const detail = projectDetailReply.parse(await (await page.request.get(`/api/projects/${projectId}`)).json());
    expect(detail.verification?.verdict).toBe('failed');
  });
});
