// The server's overhead on a whole run, measured side by side in one run. The server runs in its
// own process (as in production: the client's and the engines' work cannot stall it, nor its work
// the client); the engines are the demo engines (OpenAI wire format over loopback, a fixed latency
// per call) in this process, which timestamps each call as the engine sees it. The engine time on a
// run's critical path is the time at least one call was in flight (stages run one after another;
// Building's calls in parallel), so what a run costs beyond its engines is its wall time (POST to the
// `complete` event) minus that, including the engine client's own work. Beside it, the measure a
// run's own records give, in which the 2 % target is stated: each call's duration as the
// pipeline's engine client records it (engine_usage.duration_ms: the SDK's request and the
// answer's parsing on loopback count as the call's), stage by stage, Building's parallel calls by
// the longest.
// Alternating with the server's runs, the core pipeline alone drives the same engines from this
// process. PGlite always; PostgreSQL too when it is reachable (BENCH_DATABASE_URL, else
// DATABASE_URL, else 127.0.0.1:5432). With BENCH_TRACE=1 it also prints where each run's own time
// goes through the server, step by step (bench/run-steps.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { runPipeline } from '@wolfpack/core/pipeline';
import { pgAdmin } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { plainSql } from '../src/db/plain-sql.js';
import { startDemoEngineServer } from '../src/demo/demo-engine-server.js';
import { DEMO_ENGINE_KEYS, EngineRegistry } from '../src/services/runs/engine-registry.js';
import { loadConfig } from '../src/config/env.js';
import { spawnServer, type ServerProcess } from '../src/testing/server-process.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';
import { signUp } from './bench-user.js';
import { readTrace, runSteps, STEP_COLUMNS, TRACE, traceEnv } from './run-steps.js';
import { START_ENV } from './serve-process.js';

const LATENCIES = (process.env.BENCH_LATENCY_MS ?? '250,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_PCT = 2;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? POSTGRES_ADMIN_URL;

// How the engines send their answers: 0, all of it when the call's latency is up (the server idles
// meanwhile); N, streamed over the latency, a delta every N ms, as a real engine streams tokens
// while it generates them (the server wakes for each). Both are printed; neither replaces the other.
const PACES = (process.env.BENCH_PACE_MS ?? '0,25').split(',').map(Number);

let delayMs = 0;
let paceMs = 0;
let calls: Array<[number, number]> = [];
// The delay and pace are read per call, so one engine server serves every row.
const engine = await startDemoEngineServer({ delayMs: () => delayMs, paceMs: () => paceMs, onCall: (s, e) => calls.push([s, e]) });
// Free engines move no money; priced ones (as every paying user's are) hold each stage's worst
// case before it starts and settle it after: the ledger's transactions are part of what a run adds.
const PRICINGS = [
  { label: 'free', keys: [...DEMO_ENGINE_KEYS], pricePer1kTokensCents: 0 },
  { label: 'priced (1 ¢ / 1k tokens)', keys: DEMO_ENGINE_KEYS.map((k) => `${k}-priced`), pricePer1kTokensCents: 1 },
];
const enginesEnv = JSON.stringify(
  PRICINGS.flatMap((p) => p.keys.map((key) => ({ key, provider: 'openai', model: 'wolfpack-demo', baseURL: engine.baseURL, apiKey: 'demo', pricePer1kTokensCents: p.pricePer1kTokensCents }))),
);
const registry = await EngineRegistry.create(loadConfig({}, { WOLFPACK_ENGINES: enginesEnv }).engines);

/** The time at least one engine call was in flight: the engine time on the critical path. */
function busyMs(): number {
  const sorted = [...calls].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = sorted[0] ?? [0, 0];
  for (const [s, e] of sorted.slice(1)) {
    if (s > end) {
      total += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  return total + (end - start);
}

interface RunFigures {
  wall: number;
  /** Engine time on the critical path as the engine saw its calls. */
  engine: number;
  /** The same as the pipeline's engine client recorded its calls (filled in for server runs once the server stopped). */
  recorded: number;
  firstEvent: number;
  /** From the POST (or the pipeline's start) to the first engine call, and from the last engine answer to the result. */
  head: number;
  tail: number;
  runId: string;
  /** The POST and the `complete` event's arrival on the wall clock (server runs), for BENCH_TRACE's steps. */
  window?: [number, number];
}

/** Where the run's own time sits: before the first engine call and after the last answer (the engine's clock is this process's). */
function edges(started: number, finished: number): { head: number; tail: number } {
  return { head: Math.min(...calls.map((c) => c[0])) - started, tail: finished - Math.max(...calls.map((c) => c[1])) };
}

interface RecordedCall {
  stage: string;
  durationMs: number;
}

/** Engine time on the critical path from the recorded durations: stages one after another, Building's calls in parallel. */
function recordedMs(records: readonly RecordedCall[]): number {
  const byStage = new Map<string, number[]>();
  for (const r of records) byStage.set(r.stage, [...(byStage.get(r.stage) ?? []), r.durationMs]);
  let total = 0;
  for (const [stage, ds] of byStage) total += stage === 'Building' ? Math.max(...ds) : ds.reduce((a, b) => a + b, 0);
  return total;
}

async function serverRun(server: ServerProcess, cookie: string, idea: string, modelOrder: string[]): Promise<RunFigures> {
  calls = [];
  const started = performance.now();
  const posted = performance.timeOrigin + started;
  const res = await fetch(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ idea, modelOrder }),
  });
  let firstEvent = 0;
  let completedAt = 0;
  let runId = '';
  for await (const { data } of decodeEventStream(res.body!, pipelineEvent)) {
    if (!firstEvent) firstEvent = performance.now() - started;
    if (data.type === 'run') runId = data.runId;
    // The run is over for its user when the result arrives.
    if (data.type === 'complete') completedAt = performance.now();
    if (data.type === 'error') throw new Error(`the run failed: ${data.error}`);
  }
  return { wall: completedAt - started, engine: busyMs(), recorded: 0, firstEvent, ...edges(started, completedAt), runId, window: [posted, performance.timeOrigin + completedAt] };
}

async function coreRun(idea: string, modelOrder: string[]): Promise<RunFigures> {
  calls = [];
  const started = performance.now();
  const records: RecordedCall[] = [];
  // Rounded as the server stores them.
  const gen = runPipeline({ idea, engines: registry.resolve(modelOrder), onCheckpoint: (_cp, stageCalls) => void records.push(...stageCalls.map((c) => ({ stage: c.stage, durationMs: Math.round(c.durationMs) }))) });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  const finished = performance.now();
  return { wall: finished - started, engine: busyMs(), recorded: recordedMs(records), firstEvent: 0, ...edges(started, finished), runId: '' };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (r: RunFigures) => ((r.wall - r.engine) / r.engine) * 100;
const pctRecorded = (r: RunFigures) => ((r.wall - r.recorded) / r.recorded) * 100;

/** Fills in the server runs' recorded engine time from engine_usage, read once the server has stopped (PGlite has one owner). */
async function fillRecorded(env: Record<string, string | undefined>, dataDir: string, runs: RunFigures[]): Promise<void> {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  try {
    const rows = await plainSql(db.orm.em.fork()).execute<Array<{ conversation_id: string; stage: string; duration_ms: number }>>(
      'select conversation_id, stage, duration_ms from engine_usage',
    );
    for (const run of runs) {
      run.recorded = recordedMs(rows.filter((r) => r.conversation_id === run.runId).map((r) => ({ stage: r.stage, durationMs: Number(r.duration_ms) })));
    }
  } finally {
    await db.close();
  }
}

const databases: Array<{ label: string; env: () => Promise<Record<string, string | undefined>>; drop?: () => Promise<void> }> = [
  { label: 'PGlite (embedded)', env: async () => ({ DATABASE_URL: undefined }) },
];
const pgName = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
try {
  await pgAdmin(ADMIN_URL, `create database "${pgName}"`);
  databases.push({
    label: 'PostgreSQL',
    env: async () => ({ DATABASE_URL: withDatabase(ADMIN_URL, pgName) }),
    drop: () => pgAdmin(ADMIN_URL, `drop database if exists "${pgName}" with (force)`).catch(() => {}),
  });
} catch (error) {
  console.log(`PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}): PGlite only.`);
}

const rows: string[] = [];
const stepRows: string[] = [];
try {
  for (const db of databases) {
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-stream-'));
    const env = await db.env();
    const server = await spawnServer({ ...START_ENV, ...env, ...traceEnv(dataDir), WOLFPACK_DATA_DIR: dataDir, WOLFPACK_ENGINES: enginesEnv });
    const measured: Array<{ latency: number; pace: number; pricing: string; through: RunFigures[]; alone: RunFigures[] }> = [];
    try {
      const cookie = await signUp(server.url, 'bench');
      for (const pricing of PRICINGS) {
        for (const latency of LATENCIES) {
          for (const pace of PACES) {
            delayMs = latency;
            paceMs = pace;
            const through: RunFigures[] = [];
            const alone: RunFigures[] = [];
            for (let i = 0; i < RUNS + 1; i++) {
              const s = await serverRun(server, cookie, `Benchmark idea ${i}`, pricing.keys);
              const c = await coreRun(`Benchmark idea ${i} (core)`, pricing.keys);
              // The first pair warms both up.
              if (i > 0) (through.push(s), alone.push(c));
            }
            measured.push({ latency, pace, pricing: pricing.label, through, alone });
          }
        }
      }
    } finally {
      await server.stop();
    }
    try {
      await fillRecorded(env, dataDir, measured.flatMap((m) => m.through));
      const marks = TRACE ? await readTrace(dataDir) : [];
      for (const { latency, pace, pricing, through, alone } of measured) {
        const added = through.map((s) => s.wall - s.engine);
        const atEngine = median(through.map(pct));
        const recorded = median(through.map(pctRecorded));
        const verdict = (p: number) => (p <= TARGET_PCT ? 'met' : 'MISSED');
        const row = `| ${db.label} | ${pricing} | ${latency} ms | ${pace ? `streamed, a delta every ${pace} ms` : 'at the end'} |`;
        if (TRACE) {
          const steps = through.map((r) => runSteps(marks, r.window!));
          stepRows.push(`${row} ${STEP_COLUMNS.map((_, i) => {
            const xs = steps.map((s) => s[i]!).filter(Number.isFinite);
            return xs.length > 0 ? `${median(xs).toFixed(1)} ms` : 'not marked';
          }).join(' | ')} |`);
        }
        rows.push(
          `${row} ${median(through.map((r) => r.engine)).toFixed(0)} / ${median(through.map((r) => r.recorded)).toFixed(0)} ms | ${median(added).toFixed(1)} ms | ${median(through.map((r) => r.firstEvent)).toFixed(1)} ms | ${median(through.map((r) => r.head)).toFixed(1)} / ${median(alone.map((r) => r.head)).toFixed(1)} ms | ${median(through.map((r) => r.tail)).toFixed(1)} / ${median(alone.map((r) => r.tail)).toFixed(1)} ms | +${median(alone.map(pct)).toFixed(2)} % / +${median(alone.map(pctRecorded)).toFixed(2)} % | +${atEngine.toFixed(2)} % / +${recorded.toFixed(2)} % | ≤ ${TARGET_PCT} %: ${verdict(atEngine)} / ${verdict(recorded)} |`,
        );
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await db.drop?.();
    }
  }
  console.log(`Demo engines answering after a fixed latency per call, all at its end or streamed over it; ${RUNS} runs per row after one warm-up, medians.`);
  console.log(`The server in its own process; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} CPUs.\n`);
  console.log('Each "a / b" pair: a = engine time as the engine saw its calls; b = as the engine client recorded them (the issue\'s measure).\n');
  console.log('| database | engines | latency per call | answer | engine time on the critical path (a / b) | what the run adds (wall − a) | Start to first event | start to first engine call (server / core) | last engine answer to result (server / core) | core pipeline alone: over engine time (a / b) | through the server: over engine time (a / b) | target (a / b) |');
  console.log('| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of rows) console.log(row);
  if (TRACE) {
    console.log('\nWhere the run\'s own time goes through the server (BENCH_TRACE=1: marks taken inside the server; medians):\n');
    console.log(`| database | engines | latency per call | answer | ${STEP_COLUMNS.join(' | ')} |`);
    console.log(`| --- | --- | ---: | --- |${' ---: |'.repeat(STEP_COLUMNS.length)}`);
    for (const row of stepRows) console.log(row);
  }
} finally {
  await registry.close();
  await engine.close();
}
