import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineEvent } from '@wolfpack/core';
import { openDatabase } from './db/orm.js';
import { TestClient } from './testing/http-client.js';
import { followWithEventSource, spawnServer, type ServerProcess } from './testing/server-process.js';
import { readEvents } from './testing/sse-client.js';
import { startTestServer, testDatabases } from './testing/test-server.js';
import type { Sql } from './db/plain-sql.js';

/** The live children of a process (the cluster's workers), from /proc. */
function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number).sort((a, b) => a - b) : [];
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a run and leaves as soon as the server names it; the connection is dropped with it. */
async function startRun(url: string, cookie: string, idea: string): Promise<string> {
  const { events } = await readEvents(`${url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    body: JSON.stringify({ idea, modelOrder: [] }),
    stopAfter: (e) => e.event.type === 'run',
  });
  const first = events[0]?.event;
  if (first?.type !== 'run') throw new Error(`the stream did not start with the run event: ${JSON.stringify(events)}`);
  return first.runId;
}

const numbered = (events: Array<{ id: number }>) => events.map((_, i) => i + 1);

describe.runIf(testDatabases().includes('postgres'))('several server processes on one port (WOLFPACK_WORKERS=2, PostgreSQL)', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  });

  it('both answer; runs stream, are followed and taken over across them; SIGTERM closes every one', async () => {
    const seed = await startTestServer('postgres');
    await seed.close();
    cleanup.push(() => seed.dispose());
    const db = await openDatabase({ dataDir: seed.dataDir, databaseUrl: seed.databaseUrl });
    cleanup.push(() => db.close());
    const sql = db.orm.em.getConnection() as unknown as Sql;
    const ownerOf = async (runId: string) => (await sql.execute<Array<{ instance_id: string }>>('select instance_id from conversations where id = ?', [runId]))[0]!.instance_id;

    // A follower on a process that does not run the run reads the database every ten minutes
    // only: whatever reaches it sooner came by NOTIFY from the process running it.
    const server: ServerProcess = await spawnServer({
      WOLFPACK_DATA_DIR: seed.dataDir,
      DATABASE_URL: seed.databaseUrl,
      WOLFPACK_WORKERS: '2',
      WOLFPACK_DEMO_DELAY_MS: '400',
      WOLFPACK_RUN_POLL_SECONDS: '600',
    });
    cleanup.push(async () => {
      const pids = childrenOf(server.child.pid!);
      await server.crash();
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    const [a, b] = server.processes;
    expect(server.processes).toHaveLength(2);
    expect(new Set([a!.pid, b!.pid, server.child.pid]).size).toBe(3);
    expect(a!.instanceId).not.toBe(b!.instanceId);
    expect(childrenOf(server.child.pid!)).toEqual([a!.pid, b!.pid].sort((x, y) => x - y));

    // The session is the database's and the cookie keys are shared: signed up on one, known to both.
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'clustered', password: 'correct-horse' })).status).toBe(201);
    const cookie = client.cookieHeader();

    // A run streamed whole through the connection that started it.
    const whole = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
      body: JSON.stringify({ idea: 'A run streamed in one piece', modelOrder: [] }),
    });
    expect(whole.status).toBe(200);
    expect(whole.events.map((e) => e.id)).toEqual(numbered(whole.events));
    expect(whole.events.at(-1)!.event.type).toBe('complete');
    const firstOwner = await ownerOf((whole.events[0]!.event as Extract<PipelineEvent, { type: 'run' }>).runId);
    expect([a!.instanceId, b!.instanceId]).toContain(firstOwner);

    // Each new connection goes to the next process: within a few, a run is owned by the other one.
    let runId: string | undefined;
    for (let i = 0; i < 6 && !runId; i++) {
      const started = await startRun(server.url, cookie, `A run on a new connection (${i})`);
      if ((await ownerOf(started)) !== firstOwner) runId = started;
    }
    expect(runId, 'both processes answered').toBeDefined();
    const runner = server.processes.find((p) => p.instanceId !== firstOwner)!;

    // Followed on connections opened one after the other, so handed to both processes.
    const followers = [0, 1].map(() => followWithEventSource(`${server.url}/api/wolfpack/runs/${runId}/events`, cookie));
    await until(() => followers.every((f) => f.events.some((e) => e.event.type === 'stage' && e.event.ok)), 60_000, 'a finished stage on both followers');

    // The process running it dies; the primary starts another (its start takes seconds, more on a
    // loaded machine), and one of them takes the run over
    // once its lease expires. The followers reconnect by Last-Event-ID and miss nothing.
    process.kill(runner.pid, 'SIGKILL');
    await until(() => childrenOf(server.child.pid!).length === 2 && !childrenOf(server.child.pid!).includes(runner.pid), 90_000, 'a replacement process');
    const ends = await Promise.all(followers.map((f) => f.ended));
    for (const [i, f] of followers.entries()) {
      expect(ends[i]!.event.type).toBe('complete');
      expect(f.events.map((e) => e.id)).toEqual(numbered(f.events));
    }
    expect(followers[1]!.events.map((e) => e.id)).toEqual(followers[0]!.events.map((e) => e.id));
    const [after] = await sql.execute<Array<{ instance_id: string; takeovers: number; status: string }>>('select instance_id, takeovers, status from conversations where id = ?', [runId]);
    expect(after!.status).toBe('completed');
    expect(after!.instance_id).not.toBe(runner.instanceId);
    expect(Number(after!.takeovers)).toBe(1);

    // SIGTERM to the primary: every process closes and releases the leases of the runs it had.
    const inFlight = await startRun(server.url, cookie, 'A run the shutdown interrupts');
    const workers = childrenOf(server.child.pid!);
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    const [left] = await sql.execute<Array<{ status: string; heartbeat_at: Date | null }>>('select status, heartbeat_at from conversations where id = ?', [inFlight]);
    // No lease is left held by a process that is gone: the run is still running with its lease
    // given back (another server resumes it at once), or it ended before its process did.
    if (left!.status === 'running') expect(left!.heartbeat_at).toBeNull();
    else expect(['completed', 'failed']).toContain(left!.status);
  }, 240_000);
});
