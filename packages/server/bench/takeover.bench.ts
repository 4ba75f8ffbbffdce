// Time from a server's death (kill -9) to another server continuing its run, on PostgreSQL: two
// server processes share one database; a run is started on one, the test kills that one mid-run,
// and the time to the other's "The server restarted; continuing" event (stored, by the database's
// clock) is measured, beside the target of 5 s. Also a clean stop (SIGTERM), which releases the
// lease at once. Loopback only; about a minute.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { pgAdmin, requirePostgres } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';
import { spawnServer, type ServerProcess } from '../src/testing/server-process.js';
import { START_ENV } from './serve-process.js';

const ROUNDS = Number(process.env.BENCH_TAKEOVER_ROUNDS ?? 3);
await requirePostgres(POSTGRES_ADMIN_URL, 'Start PostgreSQL (or set WOLFPACK_TEST_POSTGRES_URL) to measure takeovers.');
const name = `wolfpack_bench_takeover_${randomBytes(4).toString('hex')}`;
await pgAdmin(POSTGRES_ADMIN_URL, `create database ${name}`);
const databaseUrl = withDatabase(POSTGRES_ADMIN_URL, name);
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-takeover-bench-'));
// Migrations once, before the servers start.
await (await openDatabase({ databaseUrl, dataDir })).close();
const db = await openDatabase({ databaseUrl, dataDir });
const sql = db.orm.em.getConnection();
const env = { WOLFPACK_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, WOLFPACK_DEMO_DELAY_MS: '400' };
const servers: ServerProcess[] = [];

async function oneRound(how: 'kill -9' | 'SIGTERM', round: number): Promise<number> {
  while (servers.length < 2) servers.push(await spawnServer({ ...START_ENV, ...env }));
  const [a] = servers;
  const reg = await fetch(`${a!.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench-${how === 'kill -9' ? 'k' : 't'}-${round}`, password: 'bench-password' }),
  });
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const controller = new AbortController();
  const res = await fetch(`${a!.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ idea: `Takeover bench ${round}` }),
    signal: controller.signal,
  });
  let runId = '';
  try {
    for await (const { data } of decodeEventStream(res.body!, pipelineEvent)) {
      if (data.type === 'run') runId = data.runId;
      if (data.type === 'stage' && data.role === 'Building' && !data.ok) break;
    }
  } catch {
    // the stream is left on purpose
  }
  controller.abort();
  const [row] = await sql.execute<Array<{ instance_id: string }>>('select instance_id from conversations where id = ?', [runId]);
  const runner = servers.find((s) => s.instanceId === row!.instance_id)!;
  const [{ now }] = await sql.execute<Array<{ now: Date }>>('select now() as now');
  const stoppedAt = new Date(now).getTime();
  if (how === 'kill -9') await runner.crash();
  else await runner.stop();
  servers.splice(servers.indexOf(runner), 1);
  for (let waited = 0; waited < 30_000; waited += 50) {
    const rows = await sql.execute<Array<{ at: Date }>>(
      `select created_at as at from run_events where conversation_id = ? and data->>'message' like 'The server restarted; continuing%' limit 1`,
      [runId],
    );
    if (rows[0]) return new Date(rows[0].at).getTime() - stoppedAt;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} was not taken over within 30 s`);
}

try {
  const killed: number[] = [];
  const stopped: number[] = [];
  for (let i = 0; i < ROUNDS; i++) killed.push(await oneRound('kill -9', i));
  for (let i = 0; i < ROUNDS; i++) stopped.push(await oneRound('SIGTERM', i));
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`Two servers on one PostgreSQL, lease 3 s renewed every second, ${ROUNDS} rounds each, medians (all rounds in brackets)\n`);
  console.log('| measure | value | target |');
  console.log('| --- | ---: | --- |');
  console.log(`| kill -9 of the running server → the other continues the run | ${median(killed)} ms (${killed.join(', ')}) | < 5000 ms |`);
  console.log(`| SIGTERM (clean stop: lease released) → the other continues the run | ${median(stopped)} ms (${stopped.join(', ')}) | |`);
} finally {
  for (const s of servers) await s.crash().catch(() => undefined);
  await db.close();
  await pgAdmin(POSTGRES_ADMIN_URL, `drop database if exists ${name} with (force)`).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
}
