/**
 * A server shutting down (SIGTERM, a deploy) ends the event streams it holds as finished
 * responses: the client reads to the end without a network error (a destroyed socket would show
 * as undici's "terminated" and nginx's "upstream prematurely closed"), and the run is left
 * for whoever continues it, followed again by Last-Event-ID.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEventStream, pipelineEvent, type PipelineEvent } from '@wolfpack/core';
import { openDatabase } from '../db/orm.js';
import { startDemoEngineServer } from '../demo/demo-engine-server.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases } from '../testing/test-server.js';

describe.each(testDatabases())('shutdown with event streams open on %s', (kind) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  });

  it('ends a run\'s stream and its follower\'s stream cleanly, and the run stays to be continued', async () => {
    const engine = await startDemoEngineServer({ delayMs: 150 });
    cleanup.push(() => engine.close());
    const server = await startTestServer(kind, {
      env: { WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'wolfpack-demo', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]) },
    });
    cleanup.push(() => server.dispose());
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'shutdown', password: 'correct-horse' })).status).toBe(201);

    const starter = await fetch(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: ['alpha'] }),
    });
    const started = decodeEventStream(starter.body!, pipelineEvent)[Symbol.asyncIterator]();
    const first = (await started.next()).value as { data: PipelineEvent };
    if (first.data.type !== 'run') throw new Error(`the stream did not start with the run event: ${JSON.stringify(first)}`);
    const runId = first.data.runId;
    const follower = await fetch(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader() } });
    expect(follower.status).toBe(200);

    // Both readers run to the end of their streams; a dropped socket would reject here.
    const readAll = async (next: () => Promise<IteratorResult<{ id?: string; data: PipelineEvent }>>) => {
      const seen: Array<{ id: number; type: string }> = [];
      for (let r = await next(); !r.done; r = await next()) seen.push({ id: Number(r.value.id), type: r.value.data.type });
      return seen;
    };
    const followed = decodeEventStream(follower.body!, pipelineEvent)[Symbol.asyncIterator]();
    const reading = [readAll(() => started.next()), readAll(() => followed.next())];
    // Mid-run: Planning done, later stages still to come.
    const sql = server.db.orm.em.getConnection();
    const deadline = Date.now() + 30_000;
    const stagesDone = async () =>
      ((await sql.execute(`select count(*)::int as n from run_events where conversation_id = ? and data->>'type' = 'stage'`, [runId])) as Array<{ n: number }>)[0]!.n;
    while ((await stagesDone()) < 1) {
      if (Date.now() > deadline) throw new Error('the run finished no stage');
      await new Promise((r) => setTimeout(r, 25));
    }
    await server.close();

    for (const seen of await Promise.all(reading)) {
      expect(seen.map((e) => e.type)).toContain('stage');
      expect(seen.map((e) => e.type)).not.toContain('complete');
      expect(seen.map((e) => e.type)).not.toContain('error');
      // In order, none twice: what a client needs to follow again from the last id it has.
      const ids = seen.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    }
    // Left as it was, for the next server to continue (read again: the server closed its database).
    const db = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
    cleanup.push(() => db.close());
    const [run] = (await db.orm.em.getConnection().execute('select status, error from conversations where id = ?', [runId])) as Array<{ status: string; error: string | null }>;
    expect(run?.status, run?.error ?? undefined).toBe('running');
  }, 60_000);
});
