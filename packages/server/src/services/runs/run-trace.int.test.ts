import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../../testing/http-client.js';
import { readEvents } from '../../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../../testing/test-server.js';
import { RUN_TRACE_CHANNEL, type RunStep } from './run-trace.js';

// `BENCH_TRACE=1 pnpm bench stream` reads these marks to say where a run's own time goes; a mark
// that stopped firing (code moved around it) would leave a hole in that table instead of failing.
describe.each(testDatabases())('run trace marks on %s', (kind) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it('marks a run\'s own steps once each, in order, on the wall clock', async () => {
    server = await startTestServer(kind);
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'tracer', password: 'correct-horse' })).status).toBe(201);
    const marks: Array<{ step: RunStep; at: number }> = [];
    const listener = (message: unknown) => void marks.push(message as { step: RunStep; at: number });
    subscribe(RUN_TRACE_CHANNEL, listener);
    const before = Date.now();
    try {
      const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
        body: JSON.stringify({ idea: 'A habit tracker', modelOrder: [], cycles: 1 }),
      });
      expect(events.at(-1)?.event.type).toBe('complete');
    } finally {
      unsubscribe(RUN_TRACE_CHANNEL, listener);
    }
    expect(marks.map((m) => m.step)).toEqual(['session-read', 'route', 'pipeline-done', 'end-begins', 'end-stored']);
    const times = marks.map((m) => m.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The wall clock (the bench compares them with its own process's), not this process's uptime.
    expect(times[0]).toBeGreaterThanOrEqual(before - 1000);
    expect(times.at(-1)).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
