// The pipeline stream through the real server (PGlite, demo engines over the OpenAI SDK on
// loopback), measured side by side in one run: (c) time from Start (the POST) to the first event
// and to the first stage event; and a whole run's wall time against the engine time it contains.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { startServer } from '../src/index.js';

const L = Number(process.env.BENCH_LATENCY_MS ?? 250);
const RUNS = 5;
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-'));
const server = await startServer({ port: 0, quiet: true, webDir: false, dataDir, env: { WOLFPACK_DEMO_DELAY_MS: String(L) } });

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
    for await (const { data } of decodeEventStream(res.body!, pipelineEvent)) {
      const t = performance.now() - started;
      if (!sawFirst) {
        sawFirst = true;
        if (i > 0) firstEvent.push(t);
      }
      if (data.type === 'run') runId = data.runId;
      if (data.type === 'stage' && !sawStage) {
        sawStage = true;
        if (i > 0) firstStage.push(t);
      }
    }
    const wall = performance.now() - started;
    // Engine time on the critical path: calls of a stage run one after another, except Building's,
    // which run in parallel (so only the longest counts).
    const rows = await server.db.orm.em.getConnection().execute(
      `select stage, sum(duration_ms)::int as total, max(duration_ms)::int as longest from engine_usage where conversation_id = ? group by stage`,
      [runId],
    );
    const engineMs = rows.reduce((sum, r) => sum + Number(r.stage === 'Building' ? r.longest : r.total), 0);
    if (i > 0) overheadPct.push(((wall - engineMs) / engineMs) * 100);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`Demo engines with ${L} ms latency per call, ${RUNS} runs (after one warm-up), medians\n`);
  console.log('| measure | value | ratio | target |');
  console.log('| --- | ---: | ---: | --- |');
  console.log(`| (c) Start to first event (run id) | ${median(firstEvent).toFixed(1)} ms | ${(median(firstEvent) / L).toFixed(3)} L | |`);
  console.log(`| (c) Start to first stage event | ${median(firstStage).toFixed(1)} ms | ${(median(firstStage) / L).toFixed(3)} L | |`);
  console.log(`| whole run: wall time over critical-path engine time (stored events, checkpoints, HTTP) | ${median(overheadPct).toFixed(2)} % | | |`);
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
