// `pnpm bench proof-thread`: what Proven Code's work costs the other requests of the process, with its
// thread and its turns (as shipped: WOLFPACK_PROOF_CONCURRENCY projects at once, half the CPUs), with
// every project at once (WOLFPACK_PROOF_CONCURRENCY=RUNS), and without the thread
// (WOLFPACK_PROOF_THREAD_IDLE_SECONDS=0), side by side, with how long each build took to its verdict.
// Three built servers (`wolfpack serve`, the sandbox on, demo engines answering fast, so that Proven
// Code, which runs each project and loads its page in Chromium, is a large share of each run);
// on each in turn, RUNS builds run to their end while a client asks /api/health one request after
// another, as a load balancer or a user's page would. Rounds alternate between the two servers.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEventStream, pipelineEvent, summaryVerdict } from '@wolfpack/core';
import { signUp } from './bench-user.js';
import { serveBuilt, THIS_TREE, type BenchServer } from './serve-process.js';
import { askHealth, percentile } from './latency.js';

const RUNS = Number(process.env.BENCH_PROOF_RUNS ?? 4);
const ROUNDS = Number(process.env.BENCH_PROOF_ROUNDS ?? 3);
/** The demo engines' answer time: short, so the runs' own time is mostly the checks'. */
const ENGINE_MS = 200;

if (!existsSync('/usr/bin/bwrap')) {
  console.log('Skipped: bubblewrap is not installed (Debian: apt-get install bubblewrap); without a sandbox Proven Code runs nothing.');
  process.exit(0);
}

type Round = { wallMs: number; health: number[]; serverCpuMs: number; verdicts: string[]; buildMs: number[] };

/** One build through the API, read to its end; answers its verdict and how long it took. */
async function build(url: string, cookie: string, idea: string): Promise<{ verdict: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ idea, cycles: 1 }),
  });
  if (!res.ok || !res.body) throw new Error(`starting a run: HTTP ${res.status} ${await res.text()}`);
  let verdict = 'no verdict';
  for await (const { data } of decodeEventStream(res.body, pipelineEvent)) {
    if (data.type === 'complete') verdict = summaryVerdict(data.verification);
    if (data.type === 'error') throw new Error(`the run failed: ${data.error}`);
  }
  return { verdict, ms: performance.now() - started };
}

async function round(server: BenchServer, cookie: string, n: number): Promise<Round> {
  const cpuBefore = server.cpuMs().get(server.child.pid!) ?? 0;
  const started = performance.now();
  let going = true;
  const asking = askHealth(server.url, () => going);
  const builds = await Promise.all(Array.from({ length: RUNS }, (_, i) => build(server.url, cookie, `A habit tracker page ${n}.${i}`)));
  const wallMs = performance.now() - started;
  going = false;
  const health = await asking;
  // The server's process, its threads included (what it spawned has exited by now).
  const serverCpuMs = (server.cpuMs().get(server.child.pid!) ?? 0) - cpuBefore;
  return { wallMs, health, serverCpuMs, verdicts: builds.map((b) => b.verdict), buildMs: builds.map((b) => b.ms).sort((a, b) => a - b) };
}


const dirs: string[] = [];
const servers: BenchServer[] = [];
try {
  const candidates = [
    { label: `as shipped: Proven Code on its own thread, ${Math.max(1, Math.floor(availableParallelism() / 2))} project(s) at once`, env: {} },
    { label: `WOLFPACK_PROOF_CONCURRENCY=${RUNS}: every project at once`, env: { WOLFPACK_PROOF_CONCURRENCY: String(RUNS) } },
    { label: 'WOLFPACK_PROOF_THREAD_IDLE_SECONDS=0: on the requests\' thread', env: { WOLFPACK_PROOF_THREAD_IDLE_SECONDS: '0' } },
  ];
  const started: Array<{ label: string; server: BenchServer; cookie: string; rounds: Round[] }> = [];
  for (const candidate of candidates) {
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-proof-'));
    dirs.push(dataDir);
    const server = await serveBuilt(candidate.label, THIS_TREE, dataDir, {
      WOLFPACK_SANDBOX: undefined,
      WOLFPACK_DEMO_DELAY_MS: String(ENGINE_MS),
      WOLFPACK_CONCURRENT_RUNS_PER_USER: String(RUNS),
      ...candidate.env,
    });
    servers.push(server);
    const cookie = await signUp(server.url, 'bench');
    // Warm-up: the first checks start Chromium's and the sandbox's caches, and the thread.
    await round(server, cookie, 0);
    started.push({ label: candidate.label, server, cookie, rounds: [] });
  }
  for (let r = 1; r <= ROUNDS; r++) for (const c of started) c.rounds.push(await round(c.server, c.cookie, r));

  console.log(`${RUNS} builds at once (demo engines answering in ${ENGINE_MS} ms; Proven Code runs each project in the sandbox and loads its page in Chromium), a client asking /api/health one request after another meanwhile; PGlite; the built server. ${ROUNDS} rounds a server, alternating, after one warm-up round each.`);
  console.log(`Load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${availableParallelism()} cores at the end.\n`);
  console.log('| server | /api/health meanwhile: p50 / p99 / max ms, per round | health answers | builds\' wall time, per round | each build to its verdict: first / median / last, per round | CPU of the server\'s process (its threads included), per round | verdicts |');
  console.log('| --- | --- | ---: | --- | --- | --- | --- |');
  for (const c of started) {
    const health = c.rounds.map((x) => `${percentile(x.health, 50).toFixed(1)} / **${percentile(x.health, 99).toFixed(1)}** / ${(x.health.at(-1) ?? 0).toFixed(0)}`).join(', ');
    const counts = c.rounds.map((x) => x.health.length).join(', ');
    const walls = c.rounds.map((x) => `${(x.wallMs / 1000).toFixed(1)} s`).join(', ');
    const cpu = c.rounds.map((x) => `${(x.serverCpuMs / 1000).toFixed(2)} s`).join(', ');
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    const each = c.rounds.map((x) => `${seconds(x.buildMs[0]!)} / ${seconds(percentile(x.buildMs, 50))} / ${seconds(x.buildMs.at(-1)!)} s`).join(', ');
    const verdicts = [...new Set(c.rounds.flatMap((x) => x.verdicts))].join(', ');
    console.log(`| ${c.label} | ${health} | ${counts} | ${walls} | ${each} | ${cpu} | ${verdicts} |`);
  }
} finally {
  for (const server of servers) await server.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
