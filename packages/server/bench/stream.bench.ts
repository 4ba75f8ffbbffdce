// The pipeline stream through the real server (PGlite, demo engines over the OpenAI SDK on
// loopback), measured side by side in one run: (c) time from Start (the POST) to the first event
// and to the first stage event; and a whole run's wall time against the engine time on its
// critical path, through the server and, alternating with it, for the core pipeline alone driving
// the same engines (so what the server adds is the difference, measured under the same load).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { runPipeline, type EngineCallRecord } from '@wolfpack/core/pipeline';
import { startServer } from '../src/index.js';
import { EngineRegistry } from '../src/services/engine-registry.js';

const L = Number(process.env.BENCH_LATENCY_MS ?? 250);
const RUNS = 5;
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-'));
const server = await startServer({ port: 0, quiet: true, webDir: false, dataDir, env: { WOLFPACK_DEMO_DELAY_MS: String(L) } });
const registry = await EngineRegistry.create({ WOLFPACK_DEMO_DELAY_MS: String(L) });

/** Engine time on the critical path: a stage's calls run one after another, except Building's (in parallel: the longest). */
function criticalPath(calls: Array<{ stage: string; durationMs: number }>): number {
  const byStage = new Map<string, number[]>();
  for (const c of calls) byStage.set(c.stage, [...(byStage.get(c.stage) ?? []), c.durationMs]);
  let total = 0;
  for (const [stage, ds] of byStage) total += stage === 'Building' ? Math.max(...ds) : ds.reduce((a, b) => a + b, 0);
  return total;
}

/** The core pipeline alone, in this process, with the server's demo engines over HTTP. */
async function coreRun(idea: string): Promise<number> {
  const calls: EngineCallRecord[] = [];
  const started = performance.now();
  const gen = runPipeline({ idea, engines: registry.resolve([]), onCheckpoint: (_cp, stageCalls) => void calls.push(...stageCalls) });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  const wall = performance.now() - started;
  const engineMs = criticalPath(calls);
  return ((wall - engineMs) / engineMs) * 100;
}

try {
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
  });
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const firstEvent: number[] = [];
  const firstStage: number[] = [];
  const overheadPct: number[] = [];
  const corePct: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ idea: `Benchmark idea ${i}` }),
    });
    let runId = '';
    let sawFirst = false;
    let sawStage = false;
    // The run is over for its user when the result arrives (the stream then closes).
    let completedAt = 0;
    for await (const { data } of decodeEventStream(res.body!, pipelineEvent)) {
      const t = performance.now() - started;
      if (!sawFirst) {
        sawFirst = true;
        if (i > 0) firstEvent.push(t);
      }
      if (data.type === 'run') runId = data.runId;
      if (data.type === 'complete') completedAt = performance.now();
      if (data.type === 'stage' && !sawStage) {
        sawStage = true;
        if (i > 0) firstStage.push(t);
      }
    }
    const wall = completedAt - started;
    // Engine time on the critical path: calls of a stage run one after another, except Building's,
    // which run in parallel (so only the longest counts).
    const rows = await server.db.orm.em.getConnection().execute(
      `select stage, sum(duration_ms)::int as total, max(duration_ms)::int as longest from engine_usage where conversation_id = ? group by stage`,
      [runId],
    );
    const engineMs = rows.reduce((sum, r) => sum + Number(r.stage === 'Building' ? r.longest : r.total), 0);
    if (i > 0) overheadPct.push(((wall - engineMs) / engineMs) * 100);
    const core = await coreRun(`Benchmark idea ${i} (core)`);
    if (i > 0) corePct.push(core);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`Demo engines with ${L} ms latency per call, ${RUNS} runs (after one warm-up), medians\n`);
  console.log('| measure | value | ratio | target |');
  console.log('| --- | ---: | ---: | --- |');
  console.log(`| (c) Start to first event (run id) | ${median(firstEvent).toFixed(1)} ms | ${(median(firstEvent) / L).toFixed(3)} L | |`);
  console.log(`| (c) Start to first stage event | ${median(firstStage).toFixed(1)} ms | ${(median(firstStage) / L).toFixed(3)} L | |`);
  console.log(`| whole run through the server: wall time over critical-path engine time | +${median(overheadPct).toFixed(2)} % | | |`);
  console.log(`| the core pipeline alone, same engines, alternating with the server's runs | +${median(corePct).toFixed(2)} % | | |`);
  const added = overheadPct.map((o, i) => o - corePct[i]!);
  console.log(`| what the server adds (stored events, checkpoints, billing, project save, HTTP), run by run | +${median(added).toFixed(2)} % | | ≤ 2 % |`);
} finally {
  await registry.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
