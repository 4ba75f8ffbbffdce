// The server process of `pnpm bench sse` (sse-streams.bench.ts): starts the server, says where it
// listens, answers questions about its memory and event loop, closes on request. Plain JavaScript,
// so that the built server runs as shipped: under a TypeScript loader every stack trace an Error
// gets (the engines' SDK makes some on each call) is mapped through source maps, work the shipped
// server does not do. WOLFPACK_SSE_BENCH_SERVER names the module (dist, or the sources with tsx).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const { startServer } = await import(process.env.WOLFPACK_SSE_BENCH_SERVER);
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  quiet: true,
  webDir: false,
  dataDir: process.env.WOLFPACK_DATA_DIR,
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  // The bench's environment (WOLFPACK_SANDBOX=off, say, to compare), then what the bench sets.
  // Every run is the bench user's: the per-user limit on running builds would refuse the fourth.
  env: { ...process.env, WOLFPACK_DEMO_DELAY_MS: process.env.WOLFPACK_SSE_BENCH_ENGINE_MS, WOLFPACK_CONCURRENT_RUNS_PER_USER: process.env.WOLFPACK_SSE_BENCH_RUNS },
});
const send = (message) => process.send(message);
const loop = monitorEventLoopDelay({ resolution: 5 });
// The collections V8 made while watched, by kind: their count and their pauses on this thread
// (V8's helper threads do much of their work beside it, unseen here).
const GC_KINDS = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'young', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'full', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks' };
let collections = {};
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = GC_KINDS[entry.detail?.kind] ?? 'other';
    const seen = (collections[kind] ??= { count: 0, ms: 0 });
    seen.count++;
    seen.ms += entry.duration;
  }
});
// WOLFPACK_SSE_BENCH_OPEN_PROFILE=DIR: a V8 CPU profile of the window the streams open in only
// (the bench's BENCH_CPU_PROF covers the whole process, warm-up and forced collections included).
const openProfileDir = process.env.WOLFPACK_SSE_BENCH_OPEN_PROFILE;
const inspector = openProfileDir ? new Session() : undefined;
/** Windows profiled so far: 1, the first crowd; 2, the crowd again; 3, the streams arriving on their own. */
let windows = 0;
inspector?.connect();
process.on('message', async (message) => {
  if (message.kind === 'loop') {
    if (message.watch) {
      if (inspector) {
        await inspector.post('Profiler.enable');
        await inspector.post('Profiler.setSamplingInterval', { interval: 250 });
        await inspector.post('Profiler.start');
      }
      loop.reset();
      loop.enable();
      collections = {};
      gcObserver.observe({ entryTypes: ['gc'] });
    } else {
      loop.disable();
      // The last entries are delivered on a later turn.
      await new Promise((resolve) => setTimeout(resolve, 20));
      gcObserver.disconnect();
      if (inspector) {
        const { profile } = await inspector.post('Profiler.stop');
        writeFileSync(join(openProfileDir, `sse-open-${process.pid}-${(windows += 1)}.cpuprofile`), JSON.stringify(profile));
      }
    }
    send({ kind: 'loop', delay: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 }, collections });
  } else if (message.kind === 'memory') {
    // Twice: the first pass may only queue finalizers. What is left is what the streams hold.
    // Not for RSS as the system sees it: that is what a server holding streams really uses.
    if (message.measure === 'gc') {
      globalThis.gc?.();
      globalThis.gc?.();
    }
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    send({ kind: 'memory', memory: { cpuMicros: user + system, rss, heapUsed, heapTotal, external, arrayBuffers } });
  } else {
    void server.close().finally(() => process.exit(0));
  }
});
send({ kind: 'ready', url: server.url });
