// The server's overhead on a whole run, measured side by side in one run. The server runs in its
// own process (as in production: the client's and the engines' work cannot stall it, nor its work
// the client); the engines are the demo engines (OpenAI wire format over loopback, a fixed latency
// per call) in this process, which timestamps each call as the engine sees it. The engine time on a
// run's critical path is the time at least one call was in flight (stages run one after another;
// Building's calls in parallel), so what a run costs beyond its engines is its wall time (POST to the
// `complete` event) minus that, including the engine client's own work. Alternating with the
// server's runs, the core pipeline alone drives the same engines from this process. PGlite always;
// PostgreSQL too when it is reachable (BENCH_DATABASE_URL, else DATABASE_URL, else 127.0.0.1:5432).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { runPipeline } from '@wolfpack/core/pipeline';
import { pgAdmin } from './pg-admin.js';
import { startDemoEngineServer } from '../src/demo/demo-engine-server.js';
import { DEMO_ENGINE_KEYS, EngineRegistry } from '../src/services/engine-registry.js';
import { spawnServer, type ServerProcess } from '../src/testing/server-process.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/global-setup.js';
import { signUp } from './bench-user.js';

const LATENCIES = (process.env.BENCH_LATENCY_MS ?? '250,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_PCT = 2;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? POSTGRES_ADMIN_URL;

let delayMs = 0;
let calls: Array<[number, number]> = [];
// The delay is read per call, so one engine server serves every latency.
const engine = await startDemoEngineServer({ delayMs: () => delayMs, onCall: (s, e) => calls.push([s, e]) });
const enginesEnv = JSON.stringify(
  DEMO_ENGINE_KEYS.map((key) => ({ key, provider: 'openai', model: 'wolfpack-demo', baseURL: engine.baseURL, apiKey: 'demo', pricePer1kTokensCents: 0 })),
);
const registry = await EngineRegistry.create({ WOLFPACK_ENGINES: enginesEnv });

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
  engine: number;
  firstEvent: number;
}

async function serverRun(server: ServerProcess, cookie: string, idea: string): Promise<RunFigures> {
  calls = [];
  const started = performance.now();
  const res = await fetch(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ idea }),
  });
  let firstEvent = 0;
  let completedAt = 0;
  for await (const { data } of decodeEventStream(res.body!, pipelineEvent)) {
    if (!firstEvent) firstEvent = performance.now() - started;
    // The run is over for its user when the result arrives.
    if (data.type === 'complete') completedAt = performance.now();
    if (data.type === 'error') throw new Error(`the run failed: ${data.error}`);
  }
  return { wall: completedAt - started, engine: busyMs(), firstEvent };
}

async function coreRun(idea: string): Promise<RunFigures> {
  calls = [];
  const started = performance.now();
  const gen = runPipeline({ idea, engines: registry.resolve([]) });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  return { wall: performance.now() - started, engine: busyMs(), firstEvent: 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (r: RunFigures) => ((r.wall - r.engine) / r.engine) * 100;

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
try {
  for (const db of databases) {
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-stream-'));
    const server = await spawnServer({ ...(await db.env()), WOLFPACK_DATA_DIR: dataDir, WOLFPACK_ENGINES: enginesEnv });
    try {
      const cookie = await signUp(server.url, 'bench');
      for (const latency of LATENCIES) {
        delayMs = latency;
        const through: RunFigures[] = [];
        const alone: RunFigures[] = [];
        for (let i = 0; i < RUNS + 1; i++) {
          const s = await serverRun(server, cookie, `Benchmark idea ${i}`);
          const c = await coreRun(`Benchmark idea ${i} (core)`);
          // The first pair warms both up.
          if (i > 0) (through.push(s), alone.push(c));
        }
        const added = through.map((s) => s.wall - s.engine);
        const overhead = median(through.map(pct));
        rows.push(
          `| ${db.label} | ${latency} ms | ${median(through.map((r) => r.engine)).toFixed(0)} ms | ${median(added).toFixed(1)} ms | ${median(through.map((r) => r.firstEvent)).toFixed(1)} ms | +${median(alone.map(pct)).toFixed(2)} % | +${overhead.toFixed(2)} % | ≤ ${TARGET_PCT} %: ${overhead <= TARGET_PCT ? 'met' : 'MISSED'} |`,
        );
      }
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
      await db.drop?.();
    }
  }
  console.log(`Demo engines answering after a fixed latency per call; ${RUNS} runs per row after one warm-up, medians.`);
  console.log(`The server in its own process; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} CPUs.\n`);
  console.log('| database | engine latency per call | engine time on the critical path | what the run adds (wall − engine time) | Start to first event | core pipeline alone: over engine time | through the server: over engine time | target |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of rows) console.log(row);
} finally {
  await registry.close();
  await engine.close();
}
