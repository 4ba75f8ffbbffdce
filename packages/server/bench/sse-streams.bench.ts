// One server process holding 1,000 concurrent SSE streams: GET /api/wolfpack/runs/:id/events
// on runs that are still running, 100 streams per run. By default the runs move while measured,
// as users see them: demo engines answer in BENCH_SSE_ENGINE_MS (1,500 ms) a call and each run
// has 5 cycles, so events flow to every stream; BENCH_SSE_ENGINE_MS=30000 freezes them (no event
// after the first ones). The server is the built one (packages/server/dist; BENCH_SSE_FROM=src
// runs the TypeScript sources instead) in a child process of its own, so its memory is the
// server's alone: RSS as the system sees it while holding every stream (no forced GC), and heap
// after a full GC, idle with the runs started, while holding the streams, and per stream; plus how
// long opening them all takes and each one's open to its first event, loopback only, in three
// windows: the first crowd after the server started (100 openers, each opening its next stream
// once its last one had its first event; V8 compiles the open's path meanwhile), the same crowd
// again once those are closed, and streams arriving on their own at BENCH_SSE_ARRIVALS a second,
// each window with the CPU of the server, PostgreSQL, this client and the host's steal. PostgreSQL
// when it is reachable (BENCH_DATABASE_URL, else DATABASE_URL, else 127.0.0.1:5432; the process
// then holds no database), PGlite otherwise. The server first runs RUNS runs like the measured
// ones to their end (BENCH_SSE_WARM=0 skips it): what runs load and hold (TypeScript for the type
// check, a WebAssembly memory, their working heap: about 100 MB of RSS over 30 s, measured with 10
// streams in all) is then in the baseline, not counted as the streams'. Bounded: the whole bench
// stops within 180 s (BENCH_SSE_DEADLINE_S). BENCH_SSE_TRY_ENV="NAME=VALUE …" adds a second
// candidate, this build with those settings, alternating with it sitting by sitting
// (BENCH_SSE_SITTINGS each, default 2), and prints both candidates' p99s side by side at the end.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeEventStream, pipelineEvent } from '@wolfpack/core';
import { pgAdmin } from './pg-admin.js';
import { cpuMsBetween, cpuMsOf, machineShareBetween, machineTicks, benchEnv, benchWords, processTree, START_ENV, syscallsOf, threadCpuMsOf } from './serve-process.js';
import { signIn, signUp } from './bench-user.js';
import { HTTP_CLIENT, type Held } from './sse-client.js';
import { openArriving, openCrowd, StreamTally, type StreamTarget } from './sse-crowd.js';
import { percentile } from './latency.js';

const STREAMS = Number(process.env.BENCH_SSE_STREAMS ?? 1_000);
const RUNS = Number(process.env.BENCH_SSE_RUNS ?? 10);
/** Streams being opened at once: a crowd arriving, not one SYN flood into the listen backlog. */
const OPENING_AT_ONCE = 100;
/** Streams a second when they arrive on their own (BENCH_SSE_ARRIVALS): 1,000 in 2 s by default. */
const ARRIVALS_PER_SECOND = Number(process.env.BENCH_SSE_ARRIVALS ?? 500);
const HOLD_MS = 3_000;
/**
 * Sessions the streams take turns at (BENCH_SSE_SESSIONS), each a sign-in of the bench's user: a
 * crowd is many people, each with a session of their own, and a server may read many sessions at
 * once (one cookie for all would let it read one row for a crowd). 1: every stream the same cookie.
 */
const SESSIONS = Math.max(1, Number(process.env.BENCH_SSE_SESSIONS ?? OPENING_AT_ONCE));
/** The whole bench stops after this long (BENCH_SSE_DEADLINE_S; a busy machine needs longer). */
const DEADLINE_MS = Number(process.env.BENCH_SSE_DEADLINE_S ?? 180) * 1000;
const WARM = process.env.BENCH_SSE_WARM !== '0';
/** The longest the warm-up runs may take to end. */
const WARM_MS = 90_000;
const ENGINE_DELAY_MS = Number(process.env.BENCH_SSE_ENGINE_MS ?? 1_500);
const MOVING = ENGINE_DELAY_MS < 10_000;
const FROM_SOURCES = process.env.BENCH_SSE_FROM === 'src';
const BUILT = new URL('../dist/index.js', import.meta.url);
/**
 * BENCH_SSE_HALF_CORE=1: the server process (every thread of it, and what it spawns) runs on the
 * first CPU only, beside a busy loop there, so it gets about half a core: a way to see on a fast
 * machine what a machine half as fast for this work does (PostgreSQL and this client keep the
 * other CPU). Needs taskset (util-linux).
 */
const HALF_CORE = process.env.BENCH_SSE_HALF_CORE === '1';
const TRY_ENV = benchEnv('BENCH_SSE_TRY_ENV');
const SITTINGS = Math.max(1, Number(process.env.BENCH_SSE_SITTINGS ?? 2));
interface Memory {
  /** CPU time the process has used so far (user + system), in microseconds. */
  cpuMicros: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}
/** Messages to and from the server process (bench/sse-server-child.mjs). */
type ToChild = { kind: 'memory'; measure: Measure } | { kind: 'loop'; watch: boolean } | { kind: 'close' };
/** The server's event-loop delay while watched (ms): how long a request that came then could wait behind one task. */
type LoopDelay = { p99: number; max: number };
/** V8's collections while watched, by kind (young, full, incremental...): how many, and their pauses on the main thread. */
type Collections = Record<string, { count: number; ms: number }>;
type FromChild = { kind: 'ready'; url: string } | { kind: 'memory'; memory: Memory } | { kind: 'loop'; delay: LoopDelay; collections: Collections };
type Measure = 'rss' | 'gc';
/** One window of streams opening, and what the server, the machine and this client did meanwhile. */
interface Window {
  ms: number;
  /** Each stream's open to first event by the order opened (ms); `sorted` ascending. */
  openMs: number[];
  sorted: number[];
  /** CPU time (ms): the server process, what it spawned, PostgreSQL, this bench. */
  server: number;
  spawned: number;
  postgres: number;
  client: number;
  machine: { busy: number; steal: number };
  writes: number;
  reads: number;
  threads: ReadonlyArray<readonly [string, number]>;
  serverDelay: LoopDelay;
  clientDelay: LoopDelay;
  collections: Collections;
  bytes: { all: number; first: number };
}

/** What a sitting gives the side-by-side summary: each window's open-to-first-event p99, and RSS a stream. */
interface Sitting {
  p99: number[];
  perStreamKb: number;
}

const candidates = Object.keys(TRY_ENV).length > 0 ? [{ label: 'this build', env: {} }, { label: `this build, ${process.env.BENCH_SSE_TRY_ENV!.trim()}`, env: TRY_ENV }] : [{ label: 'this build', env: {} }];
const sittings: Array<{ label: string; sitting: number; result: Sitting }> = [];
for (let sitting = 1; sitting <= (candidates.length > 1 ? SITTINGS : 1); sitting++) {
  for (const candidate of candidates) {
    if (candidates.length > 1) console.log(`\n### ${candidate.label}: sitting ${sitting}\n`);
    const result = await parent(candidate.env);
    if (result) sittings.push({ label: candidate.label, sitting, result });
  }
}
if (candidates.length > 1) {
  console.log('\n### Side by side: one stream\'s open to its first event, p99 (target ≤ 200 ms in each window)\n');
  console.log('| candidate | sitting | the first crowd | the crowd again | arriving on their own | RSS a stream |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const { label, sitting, result } of sittings) {
    console.log(`| ${label} | ${sitting} | ${result.p99.map((p) => `${p.toFixed(1)} ms${p <= 200 ? '' : ' (missed)'}`).join(' | ')} | ${result.perStreamKb.toFixed(1)} KB |`);
  }
}

async function parent(tryEnv: Record<string, string>): Promise<Sitting | undefined> {
  const started = performance.now();
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (!FROM_SOURCES && !existsSync(BUILT)) {
    console.log(`Skipped: ${fileURLToPath(BUILT)} does not exist. Run pnpm build first (or BENCH_SSE_FROM=src).`);
    return undefined;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-sse-'));
  let database = `PGlite (in the server process; ${dataDir})`;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  try {
    await pgAdmin(adminUrl, 'select 1');
    const name = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
    await pgAdmin(adminUrl, `create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    database = 'PostgreSQL (its own process)';
    dropDatabase = () => pgAdmin(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => {});
  } catch {
    // PGlite then: the figures include the embedded database, which the deltas leave out.
  }

  const tsx = import.meta.resolve('tsx');
  // Without the source condition the server and @wolfpack/core load from their dist.
  const conditions = FROM_SOURCES ? ['--conditions=@wolfpack/source'] : [];
  // BENCH_CPU_PROF=DIR: a V8 CPU profile of the server process, written there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // BENCH_NODE_ARGS: more of Node's flags for the server (say, --trace-gc or a V8 heap setting to try).
  const nodeArgs = benchWords('BENCH_NODE_ARGS');
  const loader = FROM_SOURCES ? ['--import', tsx] : [];
  const childScript = fileURLToPath(new URL('./sse-server-child.mjs', import.meta.url));
  const serverArgs = ['--expose-gc', ...profile, ...nodeArgs, ...conditions, ...loader, childScript];
  // taskset execs the server in its own process: the pid, the IPC channel and the signals stay the server's.
  const pinned = HALF_CORE && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  if (HALF_CORE && !pinned) console.log('BENCH_SSE_HALF_CORE: taskset is missing or refused, so the server runs unpinned.');
  const hog = pinned ? spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }) : undefined;
  const server = spawn(pinned ? 'taskset' : process.execPath, pinned ? ['-c', '0', process.execPath, ...serverArgs] : serverArgs, {
    env: {
      ...START_ENV,
      ...process.env,
      WOLFPACK_SSE_BENCH_SERVER: FROM_SOURCES ? new URL('../src/index.ts', import.meta.url).href : BUILT.href,
      WOLFPACK_SSE_BENCH_ENGINE_MS: String(ENGINE_DELAY_MS),
      WOLFPACK_SSE_BENCH_RUNS: String(RUNS),
      WOLFPACK_DATA_DIR: dataDir,
      // BENCH_OPEN_PROF=DIR: a CPU profile of the opening window alone (sse-server-child.mjs).
      ...(process.env.BENCH_OPEN_PROF ? { WOLFPACK_SSE_BENCH_OPEN_PROFILE: process.env.BENCH_OPEN_PROF } : {}),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...tryEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const deadline = setTimeout(() => {
    console.log(`Stopped: the bench passed its ${DEADLINE_MS / 1000} s limit.`);
    server.kill('SIGKILL');
    hog?.kill('SIGKILL');
    process.exit(1);
  }, DEADLINE_MS);
  const streams: Held[] = [];
  try {
    const url = await nextMessage(server, 'ready').then((m) => m.url);
    const memory = async (measure: Measure = 'gc') => (await ask(server, { kind: 'memory', measure }, 'memory')).memory;

    const cookie = await signUp(url, 'bench');
    const idle = await memory();

    // Start the runs: read each start's stream up to its run id, then leave (the run goes on).
    const startRuns = async (label: string) => {
      const ids: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        const abort = new AbortController();
        const res = await fetch(`${url}/api/wolfpack/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ idea: `Streams bench ${label} ${i}`, cycles: 5 }),
          signal: abort.signal,
        });
        ids.push(await firstRunId(res));
        abort.abort();
      }
      return ids;
    };
    /** A run's status as GET /api/wolfpack/runs/:id says it. */
    const runStatus = async (id: string) => (await fetch(`${url}/api/wolfpack/runs/${id}`, { headers: { cookie } }).then((r) => r.json() as Promise<{ run?: { status?: string } }>)).run?.status ?? 'unknown';
    let warmMs = 0;
    if (WARM) {
      const warmStarted = performance.now();
      for (const id of await startRuns('warm-up')) {
        while ((await runStatus(id)) === 'running') {
          if (performance.now() - warmStarted > WARM_MS) throw new Error(`the warm-up runs did not end within ${WARM_MS / 1000} s`);
          await delay(500);
        }
      }
      warmMs = performance.now() - warmStarted;
    }
    // Signed in after the warm-up: each session then went unseen for less than the minute after
    // which a request pushes its idle deadline back (a write), as for people active just before.
    const cookies = [cookie];
    while (cookies.length < SESSIONS) cookies.push(...(await Promise.all(Array.from({ length: Math.min(4, SESSIONS - cookies.length) }, () => signIn(url, 'bench')))));
    const runIds = await startRuns('measured');
    await delay(500);
    const withRunsRss = await memory('rss');
    const withRuns = await memory();

    const target: StreamTarget = { url, cookies, runIds };
    const tally = new StreamTally();
    // Where the machine's CPU goes while streams open: the server, what it runs (a run's sandboxed
    // checks, a browser), PostgreSQL, this bench's own client side, and the host (steal).
    const serverPid = server.pid!;
    const cpuNow = () => {
      const tree = new Set(processTree(serverPid));
      return {
        server: cpuMsOf((pid) => pid === serverPid),
        spawned: cpuMsOf((pid) => pid !== serverPid && tree.has(pid)),
        postgres: cpuMsOf((_pid, command) => command === 'postgres'),
        client: process.cpuUsage(),
        syscalls: syscallsOf(serverPid),
        threads: threadCpuMsOf(serverPid),
        machine: machineTicks(),
        bytes: tally.bytes,
        firstChunkBytes: tally.firstChunkBytes,
      };
    };
    /** Runs `open` (streams opening) and says what the server, the machine and this client did meanwhile. */
    const watched = async (open: () => Promise<number[]>): Promise<Window> => {
      await ask(server, { kind: 'loop', watch: true }, 'loop');
      const before = cpuNow();
      // The client side's own stalls (its collections, its turn on the CPU) stretch what it measures.
      const clientLoop = monitorEventLoopDelay({ resolution: 5 });
      clientLoop.enable();
      const openStarted = performance.now();
      const openMs = await open();
      const ms = performance.now() - openStarted;
      clientLoop.disable();
      const { delay: serverDelay, collections } = await ask(server, { kind: 'loop', watch: false }, 'loop');
      const after = cpuNow();
      const { user, system } = process.cpuUsage(before.client);
      return {
        ms,
        openMs,
        sorted: openMs.filter((one) => one !== undefined).sort((a, b) => a - b),
        server: cpuMsBetween(before.server, after.server),
        spawned: cpuMsBetween(before.spawned, after.spawned),
        postgres: cpuMsBetween(before.postgres, after.postgres),
        client: (user + system) / 1000,
        machine: machineShareBetween(before.machine, after.machine),
        writes: after.syscalls.writes - before.syscalls.writes,
        reads: after.syscalls.reads - before.syscalls.reads,
        // Threads that ended meanwhile take their time with them (as in cpuMsBetween).
        threads: [...after.threads].map(([name, used]) => [name, Math.max(0, used - (before.threads.get(name) ?? 0))] as const).filter(([, used]) => used > 0).sort((a, b) => b[1] - a[1]),
        serverDelay,
        clientDelay: { p99: clientLoop.percentile(99) / 1e6, max: clientLoop.max / 1e6 },
        collections,
        bytes: { all: after.bytes - before.bytes, first: after.firstChunkBytes - before.firstChunkBytes },
      };
    };

    // The first crowd after the server started: V8 compiles the path a stream's open takes while
    // it serves them (a server restarted, its clients reconnecting at once).
    const firstCrowd = await watched(() => openCrowd(target, tally, STREAMS, OPENING_AT_ONCE, streams));
    const opened = await memory();
    const holdStarted = performance.now();
    const receivedBefore = tally.received;
    const chunksBefore = tally.chunksWithEvents;
    await delay(HOLD_MS);
    const eventsPerSecond = ((tally.received - receivedBefore) / (performance.now() - holdStarted)) * 1000;
    const chunksPerSecond = ((tally.chunksWithEvents - chunksBefore) / (performance.now() - holdStarted)) * 1000;
    const holdingRss = await memory('rss');
    const holding = await memory();
    // CPU between the two readings (the second one's full GC included: an upper bound).
    const holdCpuPct = ((holding.cpuMicros - opened.cpuMicros) / 1000 / (performance.now() - holdStarted)) * 100;
    const stillOpen = STREAMS - tally.ended;
    const holdingStatus = await runStatus(runIds[0]!);
    const closeAll = () => {
      for (const req of streams.splice(0)) req.destroy();
    };
    closeAll();
    await delay(1_000);
    const released = await memory();

    // The same crowd again, on a server that has served one (as a server that has been up a
    // while serves the next): after the full collection just above, as before the first.
    const againCrowd = await watched(() => openCrowd(target, tally, STREAMS, OPENING_AT_ONCE, streams));
    const againStatus = await runStatus(runIds[0]!);
    closeAll();
    await delay(1_000);

    // The same number of streams again, each arriving on its own at the rate the target names
    // (1,000 in 2 s), as users open them: none waits for another's first event before it arrives.
    // A crowd queues every stream behind the 99 others, so its open to first event is about 100
    // times the server's CPU a stream, however fast the server serves them.
    const arrivals = await watched(() => openArriving(target, tally, STREAMS, ARRIVALS_PER_SECOND, streams));
    const arrivalsStatus = await runStatus(runIds[0]!);
    closeAll();

    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const runsWere = MOVING ? `moving (demo engines answer in ${ENGINE_DELAY_MS} ms, 5 cycles)` : `frozen (demo engines answer in ${ENGINE_DELAY_MS / 1000} s)`;
    console.log(`${STREAMS} SSE streams (GET /api/wolfpack/runs/:id/events) on ${RUNS} running runs, ${runsWere}, loopback, one server process`);
    console.log(`from ${FROM_SOURCES ? 'the TypeScript sources (tsx)' : 'the built dist'}; database: ${database}. Heap after a full GC in the server process; RSS as the system sees it.`);
    console.log(WARM ? `Warmed up: ${RUNS} runs like these ran to their end first (${(warmMs / 1000).toFixed(1)} s).` : 'Cold server (BENCH_SSE_WARM=0): what the runs themselves load while measured counts as the streams\'.');
    console.log(SESSIONS === 1 ? 'Every stream sends the same session cookie (BENCH_SSE_SESSIONS=1).' : `The streams take turns at ${SESSIONS} sessions of the user (stream i the session i mod ${SESSIONS}), as a crowd of people each signed in.`);
    console.log(HTTP_CLIENT ? "The streams' client: Node's HTTP client (BENCH_SSE_CLIENT=http), a connection a stream." : "The streams' client: plain sockets, a connection a stream, scanned for events (BENCH_SSE_CLIENT=http: Node's HTTP client).");
    if (pinned) console.log('BENCH_SSE_HALF_CORE: the server runs on the first CPU beside a busy loop (about half a core); PostgreSQL and this client are not pinned, and the scheduler gives them the other.');
    console.log(`Load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} CPUs.\n`);
    console.log('| server process | RSS MB | heap used MB | heap total MB | external MB |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const [label, m] of [
      ['idle, signed in', idle],
      [`${RUNS} runs running, no stream`, withRuns],
      [`holding ${stillOpen} streams (after ${HOLD_MS / 1000} s)`, holding],
      ['streams closed again', released],
    ] as const) {
      console.log(`| ${label} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.heapTotal)} | ${mb(m.external)} |`);
    }
    console.log('');
    console.log('| measure | value |');
    console.log('| --- | ---: |');
    const perStream = (holdingRss.rss - withRunsRss.rss) / STREAMS;
    console.log(`| RSS per stream, as the system sees it (no forced GC), against the target of 100 KB | ${kb(perStream)} KB = ${(perStream / (100 * 1024)).toFixed(2)} × the target (${mb(withRunsRss.rss)} → ${mb(holdingRss.rss)} MB) |`);
    console.log(`| RSS per stream after a full GC | ${kb((holding.rss - withRuns.rss) / STREAMS)} KB |`);
    console.log(`| heap per stream | ${kb((holding.heapUsed - withRuns.heapUsed) / STREAMS)} KB |`);
    console.log(`| events reaching the streams while holding them | ${eventsPerSecond.toFixed(0)} a second, all streams together, in ${chunksPerSecond.toFixed(0)} chunks a second (about the server's writes) |`);
    console.log(`| server CPU while holding them (${HOLD_MS / 1000} s) | ${holdCpuPct.toFixed(1)} % of one core |`);
    console.log(`| streams still open after ${HOLD_MS / 1000} s | ${stillOpen} of ${STREAMS} (run status: ${holdingStatus}) |`);
    console.log('');
    const windows = [firstCrowd, againCrowd, arrivals];
    console.log(`| ${STREAMS} streams opening | the first crowd after the server started (${OPENING_AT_ONCE} opening at a time) | the crowd again, the server warm | arriving on their own, ${ARRIVALS_PER_SECOND} a second |`);
    console.log('| --- | ---: | ---: | ---: |');
    const row = (label: string, cell: (w: Window) => string) => console.log(`| ${label} | ${windows.map(cell).join(' | ')} |`);
    row('time to open all', (w) => `${w.ms.toFixed(0)} ms`);
    row("**one stream's open, to its first event: p50 / p99**", (w) => `**${percentile(w.sorted, 50).toFixed(1)} / ${percentile(w.sorted, 99).toFixed(1)} ms**`);
    row('the same p50, each hundred in the order opened', (w) => `${byHundred(w.openMs).join(' · ')} ms`);
    const cores = (w: Window, ms: number) => `${ms.toFixed(0)} ms (${((ms / w.ms) * 100).toFixed(0)} %)`;
    row('CPU meanwhile (% of one core): server / what it spawned / PostgreSQL / this client', (w) => `${cores(w, w.server)} / ${cores(w, w.spawned)} / ${cores(w, w.postgres)} / ${cores(w, w.client)}`);
    // What else kept the machine busy: its busy time less the four above (other services here, a
    // cron job, and processes that ended within the window, the runs' sandboxed checks among them).
    const others = (w: Window) => Math.max(0, (w.machine.busy / 100) * cpus().length * w.ms - w.server - w.spawned - w.postgres - w.client);
    row('the machine meanwhile: busy / taken by the host (steal), % of all its CPUs; CPU of the other processes (and of those that ended meanwhile)', (w) => `${w.machine.busy.toFixed(0)} % / ${w.machine.steal.toFixed(1)} %; ${others(w).toFixed(0)} ms`);
    row('server CPU a stream opened', (w) => `${((w.server / STREAMS) * 1000).toFixed(0)} µs`);
    row("the server's CPU by thread", (w) => w.threads.map(([name, ms]) => `${name} ${ms} ms`).join(' · '));
    row('event-loop delay p99 / max: server / this client', (w) => `${w.serverDelay.p99.toFixed(0)} / ${w.serverDelay.max.toFixed(0)} ms / ${w.clientDelay.p99.toFixed(0)} / ${w.clientDelay.max.toFixed(0)} ms`);
    row("the server's collections (their pauses on its main thread)", (w) => Object.entries(w.collections).map(([kind, { count, ms }]) => `${count} ${kind} (${ms.toFixed(0)} ms)`).join(' · ') || 'none');
    row("the server's system calls a stream opened (the runs' own included): writes / reads", (w) => `${(w.writes / STREAMS).toFixed(2)} / ${(w.reads / STREAMS).toFixed(2)}`);
    row('bytes a stream received meanwhile: in all / in the chunk with its first event', (w) => `${kb(w.bytes.all / STREAMS)} / ${kb(w.bytes.first / STREAMS)} KB`);
    console.log(`| run status after each | ${[holdingStatus, againStatus, arrivalsStatus].join(' | ')} |`);
    console.log(`\nEvent streams ${perStream <= 100 * 1024 ? 'meet' : 'MISS'} the target of at most 100 KB each${MOVING ? ' while events flow' : ' (runs frozen: not the target\'s case)'}: ${kb(perStream)} KB.`);
    console.log(`Bench wall time ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    return { p99: windows.map((w) => percentile(w.sorted, 99)), perStreamKb: perStream / 1024 };
  } finally {
    for (const req of streams) req.destroy();
    clearTimeout(deadline);
    server.send({ kind: 'close' } satisfies ToChild);
    const exited = await Promise.race([new Promise((resolve) => server.once('exit', resolve)).then(() => true), delay(10_000).then(() => false)]);
    if (!exited) server.kill('SIGKILL');
    hog?.kill('SIGKILL');
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The median of each hundred, in the order opened: a stall shows as a slow hundred. */
function byHundred(openMs: readonly number[]): string[] {
  return Array.from({ length: Math.ceil(openMs.length / 100) }, (_, h) => {
    const part = openMs.slice(h * 100, h * 100 + 100).sort((a, b) => a - b);
    return part[Math.floor(part.length / 2)]!.toFixed(0);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The child's next message of this kind (it fails when the child dies first). */
function nextMessage<K extends FromChild['kind']>(child: ChildProcess, kind: K): Promise<Extract<FromChild, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromChild) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<FromChild, { kind: K }>);
    };
    const onExit = (code: number | null) => reject(new Error(`the server process exited (${code}) before answering`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function ask<K extends FromChild['kind']>(child: ChildProcess, message: ToChild, kind: K) {
  const answer = nextMessage(child, kind);
  child.send(message);
  return answer;
}

/** Reads a POST /api/wolfpack/stream reply until its run event. */
async function firstRunId(res: Response): Promise<string> {
  if (!res.ok || !res.body) throw new Error(`starting a run: HTTP ${res.status} ${await res.text()}`);
  for await (const { data } of decodeEventStream(res.body, pipelineEvent)) {
    if (data.type === 'run') return data.runId;
    if (data.type === 'error') throw new Error(`the run failed to start: ${data.error}`);
  }
  throw new Error('the run ended without a run event');
}
