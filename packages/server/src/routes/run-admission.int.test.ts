import { afterEach, describe, expect, it } from 'vitest';
import { runInfoReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const LIMIT_SENTENCE = 'You already have 2 builds running, the most one account may run at once. Wait for one to finish, then start this one.';

/** One user's builds running at once are bounded (WOLFPACK_CONCURRENT_RUNS_PER_USER). */
describe.each(testDatabases())('builds running at once on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((dispose) => dispose()));
  });

  async function setup() {
    // An engine (at the network boundary) that answers nothing until the test lets it, so builds
    // stay running however slow the machine is, and then answers at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const engine = await startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)], headersAfter: held }),
    });
    cleanup.push(() => engine.close());
    const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]);
    const server = await startTestServer(kind, { env: { WOLFPACK_ENGINES: engines, WOLFPACK_CONCURRENT_RUNS_PER_USER: '2' } });
    cleanup.push(() => server.dispose());
    return { server, release };
  }
  const member = async (server: TestServer, username: string) => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    return client;
  };
  /** Starts a build and leaves its stream after the first event (the run goes on): its id, or the refusal. */
  const startBuild = async (server: TestServer, client: TestClient, idea: string) => {
    const res = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea }),
      stopAfter: () => true,
    });
    const first = res.events[0]?.event;
    return { status: res.status, runId: first?.type === 'run' ? first.runId : undefined, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : undefined };
  };
  const finished = async (client: TestClient, runId: string) => {
    const deadline = Date.now() + 60_000;
    while (runInfoReply.parse((await client.get(`/api/wolfpack/runs/${runId}`)).json).run.status === 'running') {
      if (Date.now() > deadline) throw new Error(`run ${runId} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('refuses a third build while two run, with a 429 that says the number; another user is not affected', async () => {
    const { server, release } = await setup();
    const alice = await member(server, 'alice');
    const first = await startBuild(server, alice, 'A habit tracker');
    const second = await startBuild(server, alice, 'A reading list');
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await startBuild(server, alice, 'A recipe box');
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: LIMIT_SENTENCE, code: 'TOO_MANY_REQUESTS' });
    // Someone else's builds are counted on their own.
    const bob = await member(server, 'bob');
    expect((await startBuild(server, bob, 'A packing list')).status).toBe(200);
    // Once one of hers has finished, Alice may start another.
    release();
    await finished(alice, first.runId!);
    await finished(alice, second.runId!);
    expect((await startBuild(server, alice, 'A recipe box')).status).toBe(200);
  }, 120_000);

  it('admits exactly the limit out of six builds started at once by one user', async () => {
    const { server, release } = await setup();
    const carol = await member(server, 'carol');
    const starts = await Promise.all(Array.from({ length: 6 }, (_, i) => startBuild(server, carol, `A parallel idea ${i}`)));
    expect(starts.map((s) => s.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    for (const refused of starts.filter((s) => s.status === 429)) expect(refused.body).toMatchObject({ error: LIMIT_SENTENCE });
    release();
    for (const admitted of starts.filter((s) => s.status === 200)) await finished(carol, admitted.runId!);
  }, 120_000);
});
