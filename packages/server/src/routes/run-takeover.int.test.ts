import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINE_STAGES, runInfoReply, type PipelineEvent } from '@wolfpack/core';
import { openDatabase } from '../db/orm.js';
import { startDemoEngineServer, type DemoEngineServer } from '../demo/demo-engine-server.js';
import { MAX_TAKEOVERS } from '../services/runs/run-takeover.js';
import { TestClient } from '../testing/http-client.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../testing/round-robin-proxy.js';
import { followWithEventSource, spawnServer, type ServerProcess } from '../testing/server-process.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const RESTARTED = 'The server restarted; continuing';

/** A priced engine (1¢ per 1k tokens) that answers like the demo engines, slowly enough to kill a server mid-run. */
function pricedEnv(engine: DemoEngineServer, db: { dataDir: string; databaseUrl: string | undefined }): Record<string, string | undefined> {
  return {
    WOLFPACK_DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'wolfpack-demo', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
  };
}

async function register(url: string, username: string): Promise<TestClient> {
  const client = new TestClient(url);
  const res = await client.post('/api/auth/register', { username, password: 'correct-horse' });
  expect(res.status).toBe(201);
  return client;
}

/** Starts a run through POST /api/wolfpack/stream and leaves as soon as the server names it. */
async function startRun(client: TestClient, url: string, idea: string, modelOrder = ['alpha']): Promise<string> {
  const { events } = await readEvents(`${url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie: client.cookieHeader() },
    body: JSON.stringify({ idea, modelOrder }),
    stopAfter: (e) => e.event.type === 'run',
  });
  const first = events[0]?.event;
  if (first?.type !== 'run') throw new Error(`the stream did not start with the run event: ${JSON.stringify(events)}`);
  return first.runId;
}

const building = (e: { event: PipelineEvent }) => e.event.type === 'stage' && e.event.role === 'Building' && e.event.ok;

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * What a careful user checks after a crash: every stored event reached the follower exactly once
 * and in order, the project has every file, and the money adds up with no stage charged twice.
 */
async function expectWholeProject(followed: Array<{ id: number; event: PipelineEvent }>, client: TestClient) {
  const ids = followed.map((e) => e.id);
  expect(ids).toEqual(ids.map((_, i) => i + 1));
  expect(followed.some((e) => e.event.type === 'log' && e.event.message.startsWith(RESTARTED))).toBe(true);
  const done = followed.at(-1)!.event;
  expect(done.type).toBe('complete');
  if (done.type !== 'complete') return;
  const project = (await client.get(`/api/projects/${done.projectId}`)).json as { project: { fsIndex: Record<string, unknown> } };
  expect(Object.keys(project.project.fsIndex)).toHaveLength(done.filesGenerated);
  expect(done.filesGenerated).toBeGreaterThan(0);
}

async function expectStoredOnce(sql: Sql, runId: string, followed: Array<{ id: number }>) {
  const stored = await sql.execute<Array<{ seq: number }>>('select seq from run_events where conversation_id = ? order by seq', [runId]);
  expect(stored.map((r) => Number(r.seq))).toEqual(followed.map((e) => e.id));
  const [conversation] = await sql.execute<Array<{ stages: Array<{ role: string }>; status: string }>>('select stages, status from conversations where id = ?', [runId]);
  expect(conversation!.status).toBe('completed');
  expect(conversation!.stages.map((s) => s.role)).toEqual([...PIPELINE_STAGES]);

  // Each finished stage is charged once: Planning made one call, whatever happened after it.
  const usage = await sql.execute<Array<{ stage: string; calls: number; billed: number }>>(
    `select stage, count(*)::int as calls, sum(billed_cents)::int as billed from engine_usage where conversation_id = ? and purpose = 'stage' group by stage`,
    [runId],
  );
  expect(usage.find((u) => u.stage === 'Planning')?.calls).toBe(1);
  const [billed] = await sql.execute<Array<{ total: number }>>('select coalesce(sum(billed_cents), 0)::int as total from engine_usage where conversation_id = ?', [runId]);
  const [moved] = await sql.execute<Array<{ total: number }>>('select coalesce(sum(amount_cents), 0)::int as total from ledger_entries where conversation_id = ?', [runId]);
  // Holds and their releases cancel out; what is left is exactly what the usage rows were billed.
  expect(moved!.total).toBe(-billed!.total);
  expect(billed!.total).toBeGreaterThan(0);
  const [dupes] = await sql.execute<Array<{ n: number }>>(
    `select count(*)::int as n from (select reference from ledger_entries where conversation_id = ? group by reference having count(*) > 1) d`,
    [runId],
  );
  expect(dupes!.n).toBe(0);
}

describe.each(testDatabases())('runs continue by themselves on %s', (kind) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  });

  async function fixture() {
    const seed = await startTestServer(kind);
    await seed.close();
    cleanup.push(() => seed.dispose());
    const engine = await startDemoEngineServer({ delayMs: 200 });
    cleanup.push(() => engine.close());
    // A balancer keeps retrying while the crashed server's replacement starts; on a loaded machine
    // that start took 15 s and more, so the client's reconnection waits as long as the test may.
    const proxy = await startRoundRobinProxy([], 120_000);
    cleanup.push(() => proxy.close());
    const spawnOne = async () => {
      const server = await spawnServer(pricedEnv(engine, seed));
      cleanup.push(() => server.crash());
      return server;
    };
    return { seed, proxy, spawnOne };
  }

  it('kill -9 mid-run: the restarted server continues the run, and an EventSource client gets every event once', async () => {
    const { seed, proxy, spawnOne } = await fixture();
    const t0 = Date.now();
    // Where the time went, if it ever runs out on a loaded machine.
    const step = (what: string) => console.log(`[kill -9 on ${kind}] +${Date.now() - t0} ms ${what}`);
    const first = await spawnOne();
    proxy.targets = [first.url];
    const client = await register(proxy.url, 'crasher');
    const runId = await startRun(client, proxy.url, 'Crash test dummy');
    const follower = followWithEventSource(`${proxy.url}/api/wolfpack/runs/${runId}/events`, client.cookieHeader());
    await until(() => follower.events.some(building), 60_000, 'the Building stage');
    step('Building finished; killing the server');
    await first.crash();

    const second = await spawnOne();
    proxy.targets = [second.url];
    step('restarted');
    await follower.ended;
    step(`the follower saw the end (${follower.connections()} connections)`);
    expect(follower.connections()).toBeGreaterThanOrEqual(2);
    await expectWholeProject(follower.events, client);
    // PGlite admits one process per data directory: stop the server before reading its database.
    await second.stop();
    const db = await openSql(seed);
    cleanup.push(() => db.close());
    await expectStoredOnce(db.sql, runId, follower.events);
  }, 180_000);

  it(`gives a run up after ${MAX_TAKEOVERS} takeovers and leaves it resumable`, async () => {
    const seed = await startTestServer(kind, { env: { WOLFPACK_DEMO_DELAY_MS: '300' } });
    cleanup.push(() => seed.dispose());
    const client = await register(seed.url, 'unlucky');
    const runId = await startRun(client, seed.url, 'A run that keeps crashing its server', []);
    // As if the server had died three times already: the next takeover is one too many.
    await seed.close();
    const conn = await openSql(seed);
    await conn.sql.execute(`update conversations set takeovers = ?, heartbeat_at = null, instance_id = 'gone' where id = ?`, [MAX_TAKEOVERS, runId]);
    await conn.close();
    const again = await startTestServer(kind, { reuse: { dataDir: seed.dataDir, databaseUrl: seed.databaseUrl }, env: { WOLFPACK_DEMO_DELAY_MS: '0' } });
    cleanup.push(() => again.close());
    const viewer = withUrl(client, again.url);
    let info = runInfoReply.parse((await viewer.get(`/api/wolfpack/runs/${runId}`)).json).run;
    for (let i = 0; i < 100 && info.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      info = runInfoReply.parse((await viewer.get(`/api/wolfpack/runs/${runId}`)).json).run;
    }
    expect(info.status).toBe('interrupted');
    expect(info.error).toContain('Resume it to try once more');
    const resumed = await readEvents(`${again.url}/api/wolfpack/runs/${runId}/resume`, { method: 'POST', headers: { cookie: client.cookieHeader() } });
    expect(resumed.events.at(-1)!.event.type).toBe('complete');
  }, 90_000);

  /** A server with slow demo engines and the given lease, running one run of a new user's; its database at hand. */
  async function runningRun(leaseSeconds: number, username: string, idea: string) {
    const server = await startTestServer(kind, { env: { WOLFPACK_DEMO_DELAY_MS: '300', WOLFPACK_RUN_LEASE_SECONDS: String(leaseSeconds) } });
    cleanup.push(() => server.dispose());
    const client = await register(server.url, username);
    const runId = await startRun(client, server.url, idea, []);
    return { runId, sql: server.db.orm.em.getConnection() as unknown as Sql };
  }

  it('a server that lost its lease stops the run at once and stores nothing more of it', async () => {
    const { runId, sql } = await runningRun(1, 'fenced', 'A run another server steals');
    // Another process takes the run (as if this one had stalled past its lease).
    await sql.execute(`update conversations set instance_id = 'another-server', heartbeat_at = now() + interval '1 hour' where id = ?`, [runId]);
    const count = async (table: string) => (await sql.execute<Array<{ n: number }>>(`select count(*)::int as n from ${table} where conversation_id = ?`, [runId]))[0]!.n;
    const before = await count('run_events');
    const usageBefore = await count('engine_usage');
    await new Promise((r) => setTimeout(r, 3000));
    const after = await count('run_events');
    const usageAfter = await count('engine_usage');
    // At most the batch and the stage that were in flight when it was taken are refused, never stored.
    expect(after).toBe(before);
    expect(usageAfter).toBe(usageBefore);
    const [row] = await sql.execute<Array<{ status: string; instance_id: string }>>('select status, instance_id from conversations where id = ?', [runId]);
    expect(row).toEqual({ status: 'running', instance_id: 'another-server' });
  }, 60_000);

  it('a server asked to close while it starts takes no run over: the run stays claimable, its lease free', async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_DEMO_DELAY_MS: '300' } });
    const client = await register(server.url, 'closing-start');
    const runId = await startRun(client, server.url, 'A run left to the next server', []);
    // A clean stop gives the run back: still running, no lease.
    await server.close();
    cleanup.push(() => server.dispose());
    const next = async (closing?: AbortSignal) => {
      const started = await startTestServer(kind, { env: { WOLFPACK_DEMO_DELAY_MS: '300' }, reuse: server, ...(closing ? { closing } : {}) });
      const sql = started.db.orm.em.getConnection() as unknown as Sql;
      const [row] = await sql.execute<Array<{ status: string; instance_id: string; heartbeat_at: unknown }>>('select status, instance_id, heartbeat_at from conversations where id = ?', [runId]);
      await started.close();
      return { row: row!, instanceId: started.instanceId };
    };
    // Asked to close while it was starting (a SIGTERM during start-up): it may be killed before
    // it could give a run back, so it takes none.
    const asked = await next(AbortSignal.abort());
    expect(asked.row).toMatchObject({ status: 'running', heartbeat_at: null });
    expect(asked.row.instance_id).not.toBe(asked.instanceId);
    // Not asked to close, the next server takes it over at once.
    const taking = await next();
    expect(taking.row.instance_id).toBe(taking.instanceId);
  }, 60_000);

  it('a lease given back stays given back: a stage that ends after the release leaves the run claimable', async () => {
    // A shutdown releases its runs' leases after waiting a while for them to stop; on a loaded
    // machine a stage may still end after that. Renewals are 20 s apart here: none comes between.
    const { runId, sql } = await runningRun(60, 'released', 'A run whose lease is given back');
    const stagesDone = async () =>
      (await sql.execute<Array<{ n: number }>>(`select count(*)::int as n from run_events where conversation_id = ? and data->>'type' = 'stage' and (data->>'ok')::boolean`, [runId]))[0]!.n;
    await until(async () => (await stagesDone()) >= 1, 30_000, 'a first finished stage');
    // As the shutdown's release does.
    await sql.execute(`update conversations set heartbeat_at = null where id = ?`, [runId]);
    const released = await stagesDone();
    await until(async () => (await stagesDone()) > released, 30_000, 'a stage that ends after the release');
    const [row] = await sql.execute<Array<{ status: string; heartbeat_at: unknown }>>('select status, heartbeat_at from conversations where id = ?', [runId]);
    if (row!.status === 'running') expect(row!.heartbeat_at).toBeNull();
    else expect(row!.status).toBe('completed');
  }, 90_000);
});

describe.runIf(testDatabases().includes('postgres'))('two servers on one PostgreSQL behind a round-robin proxy', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  });

  it('a run started through one is followed live through the other, and survives the death of the one running it', async () => {
    const seed = await startTestServer('postgres');
    await seed.close();
    cleanup.push(() => seed.dispose());
    const engine = await startDemoEngineServer({ delayMs: 200 });
    cleanup.push(() => engine.close());
    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      // A follower on the other server would read the database every ten minutes only: whatever
      // reaches it sooner came by NOTIFY.
      const server = await spawnServer({ ...pricedEnv(engine, seed), WOLFPACK_RUN_POLL_SECONDS: '600' });
      cleanup.push(() => server.crash());
      servers.push(server);
    }
    const proxy: RoundRobinProxy = await startRoundRobinProxy(servers.map((s) => s.url));
    cleanup.push(() => proxy.close());
    const db = await openSql(seed);
    cleanup.push(() => db.close());
    const sql = db.sql;

    // Sign-up through one server, the run through the other: the session is the database's.
    const client = await register(proxy.url, 'scaled');
    const runId = await startRun(client, proxy.url, 'A run across two servers');
    const [owner] = await sql.execute<Array<{ instance_id: string }>>('select instance_id from conversations where id = ?', [runId]);
    const runner = findRunner(servers, owner!.instance_id);
    const survivor = servers.find((s) => s !== runner)!;
    // Followed through the server that does not run it: live events must cross processes.
    proxy.targets = [survivor.url];
    const follower = followWithEventSource(`${proxy.url}/api/wolfpack/runs/${runId}/events`, client.cookieHeader());
    // Live events crossed processes by NOTIFY: with the fallback poll at ten minutes, nothing
    // else brings them to the survivor within this wait (was: each event's lag < 2 s).
    await until(() => follower.events.some(building), 60_000, 'the Building stage');

    await runner.crash();
    await follower.ended;
    // The survivor took the run over and finished it (a takeover that never comes would leave the
    // follower waiting into the test's timeout); how fast is `pnpm bench takeover`'s business.
    const [after] = await sql.execute<Array<{ instance_id: string; takeovers: number }>>('select instance_id, takeovers from conversations where id = ?', [runId]);
    expect({ instanceId: after!.instance_id, takeovers: Number(after!.takeovers) }).toEqual({ instanceId: survivor.instanceId, takeovers: 1 });
    await expectWholeProject(follower.events, client);
    await expectStoredOnce(sql, runId, follower.events);
  }, 150_000);
});

describe.runIf(testDatabases().includes('postgres'))('PostgreSQL dropping every connection mid-run', () => {
  it('the run continues or fails cleanly: numbered events without gaps, a final status, no open holds', async () => {
    const engine = await startDemoEngineServer({ delayMs: 200 });
    const seed = await startTestServer('postgres');
    await seed.close();
    const server = await startTestServer('postgres', { reuse: { dataDir: seed.dataDir, databaseUrl: seed.databaseUrl }, env: pricedEnv(engine, seed) as Record<string, string> });
    const admin = await openSql(seed);
    try {
      const client = await register(server.url, 'unplugged');
      const runId = await startRun(client, server.url, 'A run while the database restarts');
      const follower = followWithEventSource(`${server.url}/api/wolfpack/runs/${runId}/events`, client.cookieHeader());
      await until(() => follower.events.some((e) => e.event.type === 'stage' && e.event.role === 'Planning' && e.event.ok), 60_000, 'Planning');
      // What a restart looks like from here: every connection of the server (pool and LISTEN) is cut.
      const name = (await admin.sql.execute<Array<{ name: string }>>('select current_database() as name'))[0]!.name;
      await admin.sql.execute(`select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()`, [name]);
      const end = await follower.ended;
      console.log(`after PostgreSQL cut every connection mid-run, the run ended with: ${end.event.type === 'error' ? `error (${end.event.error})` : end.event.type}`);
      expect(['complete', 'error']).toContain(end.event.type);
      const [row] = await admin.sql.execute<Array<{ status: string }>>('select status from conversations where id = ?', [runId]);
      expect(['completed', 'failed']).toContain(row!.status);
      const stored = await admin.sql.execute<Array<{ seq: number }>>('select seq from run_events where conversation_id = ? order by seq', [runId]);
      expect(stored.map((r) => Number(r.seq))).toEqual(stored.map((_, i) => i + 1));
      // Every hold was settled or released: the ledger's movements for the run equal what was billed.
      const [billed] = await admin.sql.execute<Array<{ total: number }>>('select coalesce(sum(billed_cents), 0)::int as total from engine_usage where conversation_id = ?', [runId]);
      const [moved] = await admin.sql.execute<Array<{ total: number }>>('select coalesce(sum(amount_cents), 0)::int as total from ledger_entries where conversation_id = ?', [runId]);
      expect(moved!.total + billed!.total).toBe(0);
      // And the server still serves.
      expect((await client.get('/api/health')).status).toBe(200);
    } finally {
      await admin.close();
      await server.close();
      await seed.dispose();
      await engine.close();
    }
  }, 120_000);
});

function withUrl(client: TestClient, url: string): TestClient {
  const moved = new TestClient(url);
  moved.setCookieHeader(client.cookieHeader());
  return moved;
}

/** The test's own connection to a server's database (no server: nothing that could take runs over). */
async function openSql(seed: { dataDir: string; databaseUrl: string | undefined }) {
  const db = await openDatabase({ dataDir: seed.dataDir, databaseUrl: seed.databaseUrl });
  return { sql: db.orm.em.getConnection() as unknown as Sql, close: () => db.close() };
}

function findRunner(servers: ServerProcess[], instanceId: string): ServerProcess {
  const runner = servers.find((s) => s.instanceId === instanceId);
  if (!runner) throw new Error(`no server is instance ${instanceId}`);
  return runner;
}
