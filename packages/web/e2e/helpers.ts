/** Small page helpers shared by the spec files (playwright-core has no test runner or expect). */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import type { FakeStreamBehaviour, RecordedRequest } from '@wolfpack/core/engines/testing';
import type { Locator, Page } from 'playwright-core';
import { screenshotDir } from './harness';

/** The toast currently shown (one at a time). */
export function openToast(page: Page): Locator {
  return page.locator('li.toast[data-state="open"]');
}

/** Waits for a toast with this description; returns its title, description and variant. */
export async function waitForToast(page: Page, description: string) {
  const toast = openToast(page).filter({ hasText: description });
  await toast.waitFor();
  return {
    title: (await toast.getByTestId('toast-title').textContent())?.trim(),
    description: (await toast.getByTestId('toast-description').textContent())?.trim(),
    variant: await toast.getAttribute('data-variant'),
  };
}

/**
 * A local OpenAI-compatible fake's answer in the demo engines' words (its `fallback`), with `every`
 * added to each answer and `polishing` to Polishing's (known by its system prompt): a delay or a
 * hold that lets a test see a run under way.
 */
export function demoEngineAnswer(
  request: RecordedRequest,
  extra: { every?: Partial<FakeStreamBehaviour<never>>; polishing?: Partial<FakeStreamBehaviour<never>> } = {},
): FakeStreamBehaviour<never> {
  const messages = (request.body as { messages: ChatMessage[] }).messages;
  const polishing = messages.some((m) => m.role === 'system' && typeof m.content === 'string' && m.content.includes('Polishing engine'));
  return { ...extra.every, ...(polishing ? extra.polishing : {}), kind: 'stream', deltas: [demoReply(messages)] };
}

/** Registers an account straight through the API (a fresh context's cookies are untouched). */
export async function registerViaApi(page: Page, username: string, password: string): Promise<void> {
  const res = await page.request.post('/api/auth/register', { data: { username, password } });
  if (!res.ok()) throw new Error(`register ${username}: ${res.status()} ${await res.text()}`);
  // Start the browser signed out: the API call shares the context's cookie jar.
  await page.request.post('/api/auth/logout');
}

/** The path part of the page's URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Saves a screenshot for a human to look at. */
export async function saveShot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string | undefined> {
  if (screenshotDir === undefined) return undefined;
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  // A full-page picture taken while scrolled shows the sticky header in the middle of the page.
  if (options.fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates an account through the API and stays signed in (the context shares the cookie). */
export async function signUpViaApi(page: Page, username: string, password = 'correct-horse-battery'): Promise<void> {
  const res = await page.request.post('/api/auth/register', { data: { username, password } });
  if (!res.ok()) throw new Error(`register ${username}: ${res.status()} ${await res.text()}`);
}

/** The Activity Feed's messages, newest first. */
export async function feedMessages(page: Page): Promise<string[]> {
  const items = page.getByTestId('feed-message');
  return (await items.allTextContents()).map((text) => text.trim());
}

/**
 * Runs the pack through the API with the page's session (the stream ends with the run) and
 * returns the new project's id.
 */
export async function buildProjectViaApi(page: Page, idea: string): Promise<string> {
  const res = await page.request.post('/api/wolfpack/stream', { data: { idea, modelOrder: [], cycles: 1 }, timeout: 60_000 });
  if (!res.ok()) throw new Error(`run: ${res.status()} ${await res.text()}`);
  const body = await res.text();
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6)) as { type: string; projectId?: string; error?: string };
    if (event.type === 'complete' && event.projectId) return event.projectId;
    if (event.type === 'error') throw new Error(`run failed: ${event.error}`);
  }
  throw new Error('The run ended without a complete event.');
}

/** Turns the one-time AI Enhance tip off for this page's origin (call after the first goto). */
export async function skipEnhanceTip(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('enhanceTipShown', 'true'));
}

/**
 * Resolves once what the last move of Playwright's page clock (runFor, pauseAt) set off has
 * rendered: React renders the state a timer changed in a task it posts on a MessageChannel, and
 * that task runs before this one's. A positive signal to read the page by, not a wait.
 */
export async function renderedAfterClockMove(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}
