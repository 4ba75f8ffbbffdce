/**
 * `wolfpack build` says what the run cost beside its estimated savings, as the web's result card
 * does, and says when the run cost more than the estimate saves instead of claiming a saving. The
 * engine is priced (a local OpenAI-compatible fake answering like the demo engines), so the run is
 * charged through the server's ledger for real.
 */
import { type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInHome, startTestServer, type SignedInHome, type TestServer } from './testing/cli-harness.js';

/** Cents per 1,000 tokens: the run costs about a dollar (within a new user's credits), its few seconds' estimate cents. */
const PRICE = 20;

let engine: OpenAIFakeServer;
let server: TestServer;
let user: SignedInHome;

beforeAll(async () => {
  engine = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }) });
  const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: PRICE }]);
  server = await startTestServer({ env: { WOLFPACK_ENGINES: engines } });
  user = await signedInHome(server.url, 'cost-reader');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await user?.dispose();
});

/** "$1.23" → 123. */
const centsOf = (dollars: string) => Math.round(Number(dollars.replace(/[^\d.]/g, '')) * 100);

it('prints the run cost beside the savings estimate, and no saving when the run cost more', async () => {
  const result = await user.run(['build', 'A habit tracker with daily streaks']);
  expect(result.code, result.stderr).toBe(0);
  const costLines = result.stdout.split('\n').filter((line) => line.startsWith('[cost] '));
  expect(costLines.length).toBeGreaterThan(0);
  const charged = centsOf(/\$\d+\.\d\d/.exec(costLines.at(-1)!)![0]);
  expect(charged).toBeGreaterThan(0);

  const match = /^Cost (\$\d+\.\d\d) · estimated savings about \d+\.\dh and (\$\d+\.\d\d), (\$\d+\.\d\d) less than the run cost: no money saved\.$/m.exec(result.stdout);
  expect(match, result.stdout).not.toBeNull();
  const [cost, saved, short] = [match![1]!, match![2]!, match![3]!].map(centsOf);
  expect(cost).toBe(charged);
  expect(short).toBe(cost! - saved!);
  // The line sits in the summary, right after the project line.
  const lines = result.stdout.trimEnd().split('\n');
  const project = lines.findIndex((line) => /^Project [0-9a-f-]{36}: \d+ files generated in [\d.]+s\.$/.test(line));
  expect(lines[project + 1]).toBe(match![0]);
}, 120_000);
