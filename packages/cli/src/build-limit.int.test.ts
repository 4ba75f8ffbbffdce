/**
 * `wolfpack build` while the user's builds already run at the server's limit
 * (WOLFPACK_CONCURRENT_RUNS_PER_USER): the server's sentence, with the number, and a failing exit.
 */
import { decodeEventStream, pipelineEvent, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInHome, startTestServer, storedToken, type SignedInHome, type TestServer } from './testing/cli-harness.js';

let engine: OpenAIFakeServer;
let server: TestServer;
let user: SignedInHome;

beforeAll(async () => {
  // A priced-at-nothing engine (at the network boundary) that answers no call within the test, so
  // the first build is still running whenever the second is asked for, however slow the machine
  // (a build that could finish raced the CLI's start). Closing the server stops it.
  engine = await startFakeOpenAIServer({
    fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)], headersAfter: new Promise(() => {}) }),
  });
  const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]);
  server = await startTestServer({ env: { WOLFPACK_ENGINES: engines, WOLFPACK_CONCURRENT_RUNS_PER_USER: '1' } });
  user = await signedInHome(server.url, 'busy-builder');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await user?.dispose();
});

it('prints the server\'s sentence with the limit and exits non-zero while a build of the user runs', async () => {
  const token = await storedToken(user.configFile, server.url);
  // One build started and left running (its stream is dropped after the first event; the run goes on).
  const res = await fetch(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ idea: 'A habit tracker' }),
  });
  expect(res.status).toBe(200);
  for await (const message of decodeEventStream(res.body!, pipelineEvent)) {
    expect(message.data.type).toBe('run');
    break;
  }

  const result = await user.run(['build', 'a recipe box']);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('You already have 1 build running, the most one account may run at once. Wait for one to finish, then start this one.');
  expect(result.stdout).toBe('');
}, 120_000);
