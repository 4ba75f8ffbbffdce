import { afterEach, describe, expect, it } from 'vitest';
import { decodeEventStream, enhancementEvent, promptHistoryReply, type EnhancementEvent } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

async function enhance(server: TestServer, client: TestClient, prompt: string): Promise<EnhancementEvent[]> {
  const res = await fetch(`${server.url}/api/multi-pass-enhancements`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
    body: JSON.stringify({ prompt, attachments: [] }),
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: EnhancementEvent[] = [];
  for await (const { data } of decodeEventStream(res.body!, enhancementEvent)) events.push(data);
  return events;
}

describe.each(testDatabases())('multi-pass enhancement on %s', (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server.dispose();
  });

  it('streams 8 steps and the final prompt, stores every step, and links it to the project the next run builds', async () => {
    server = await startTestServer(kind);
    const client = new TestClient(server.url);
    await client.post('/api/auth/register', { username: 'enhancer', password: 'correct-horse' });
    const events = await enhance(server, client, 'A habit tracker with streaks');
    const steps = events.flatMap((e) => (e.type === 'step' ? [e] : []));
    expect(steps).toHaveLength(8);
    expect(steps.map((s) => s.progress.current)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(steps.map((s) => `${s.passNumber}.${s.engineOrder}`)).size).toBe(8);
    const complete = events.at(-1)!;
    expect(complete).toEqual({ type: 'complete', finalPrompt: expect.any(String) });
    const finalPrompt = complete.type === 'complete' ? complete.finalPrompt : '';
    expect(finalPrompt).toContain('A habit tracker with streaks');
    expect(finalPrompt.length).toBeGreaterThan('A habit tracker with streaks'.length);

    const conn = server.db.orm.em.getConnection();
    const usage = await conn.execute(`select count(*)::int as n from engine_usage where enhancement_id is not null`);
    expect(usage[0]!.n).toBe(9); // 8 steps and the final merge

    // A run from the enhanced prompt links the enhancement to its project.
    const run = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: finalPrompt }),
    });
    const done = run.events.at(-1)!.event;
    const projectId = done.type === 'complete' ? done.projectId : '';
    const history = promptHistoryReply.parse((await client.get(`/api/projects/${projectId}/prompt-history`)).json);
    expect(history.enhancement).toEqual({ sourcePrompt: 'A habit tracker with streaks', finalPrompt, cyclesRun: 2 });
    expect(history.steps).toHaveLength(8);
    expect(history.steps.map((s) => [s.passNumber, s.engineOrder])).toEqual([
      [1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [2, 3], [2, 4],
    ]);
    for (const s of history.steps) {
      expect(s.engineModel).toBe(s.engineKey); // no vendor model reaches the client
      expect(s.inputPrompt).toContain('A habit tracker with streaks');
      expect(s.outputPrompt).not.toBe('');
    }
    expect(history.steps[4]!.inputPrompt).toContain('Proposals from the previous pass');

    // Another user sees nothing of it.
    const intruder = new TestClient(server.url);
    await intruder.post('/api/auth/register', { username: 'intruder', password: 'correct-horse' });
    expect((await intruder.get(`/api/projects/${projectId}/prompt-history`)).status).toBe(404);
  });

  it('answers a project without an enhancement with null, and refuses bad requests', async () => {
    server = await startTestServer(kind);
    const client = new TestClient(server.url);
    expect((await client.post('/api/multi-pass-enhancements', { prompt: 'x', attachments: [] })).status).toBe(401);
    await client.post('/api/auth/register', { username: 'plain', password: 'correct-horse' });
    const blank = await client.post('/api/multi-pass-enhancements', { prompt: '  ', attachments: [] });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe('Please enter a prompt to enhance.');
    const run = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'No enhancement here' }),
    });
    const done = run.events.at(-1)!.event;
    const projectId = done.type === 'complete' ? done.projectId : '';
    expect((await client.get(`/api/projects/${projectId}/prompt-history`)).json).toEqual({ enhancement: null, steps: [] });
  });
});
