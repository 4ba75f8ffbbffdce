// Start-up and first-load costs, each beside its target and a baseline measured in the same run:
// `wolfpack --help` (target < 300 ms) beside a bare `node -e ''`; a server's time from spawn to a
// healthy /api/health, on a fresh data directory (migrations included) and on an existing one;
// and the web app's initial JavaScript (the entry and what index.html preloads, target < 250 KB
// gzip) beside all of its JavaScript (the routes load on demand); a command's own path (`wolfpack
// projects` signed out: the program, the command and its modules, up to the login check), and
// with BENCH_BEFORE (a built checkout of another commit) that checkout's, runs alternating. Needs
// `pnpm build` first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { START_ENV } from './serve-process.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cliBin = join(root, 'packages/cli/dist/bin.js');
const webDist = join(root, 'packages/web/dist');
if (!existsSync(cliBin) || !existsSync(join(webDist, 'index.html'))) {
  console.log('Build first: `pnpm build` (this benchmark runs the built CLI, server and web app).');
  process.exit(1);
}

const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeSpawn(args: string[], expect: { status: number; env?: NodeJS.ProcessEnv } = { status: 0 }): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...expect.env } });
  if (r.status !== expect.status) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return performance.now() - started;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Spawns `wolfpack serve` and answers the time until /api/health says 200. */
async function spawnToHealthy(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [cliBin, 'serve', '--port', String(port), '--data-dir', dataDir], { stdio: 'ignore', env: { ...START_ENV, PATH: process.env.PATH ?? '' } });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 10));
      if (performance.now() - started > 60_000) throw new Error('the server was not healthy within 60 s');
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const row = (name: string, value: string, baseline: string, target: string) => console.log(`| ${name} | ${value} | ${baseline} | ${target} |`);
console.log(`medians of ${RUNS} runs (server start: 3 runs each)\n`);
console.log('| measure | value | baseline in this run | target |');
console.log('| --- | ---: | ---: | --- |');

const node = median(Array.from({ length: RUNS }, () => timeSpawn(['-e', ''])));
const help = median(Array.from({ length: RUNS }, () => timeSpawn([cliBin, '--help'])));
row('`wolfpack --help`', `${help.toFixed(0)} ms`, `\`node -e ''\` ${node.toFixed(0)} ms`, '< 300 ms');

// A command as a script runs it: no terminal, not signed in (a config file that is not there), so
// it ends at the login check with exit 1, having loaded everything its command needs.
const signedOut = { status: 1, env: { WOLFPACK_CONFIG: join(tmpdir(), 'wolfpack-bench-no-config.json') } };
const commandArgs = (bin: string) => [bin, '--server', 'http://127.0.0.1:9', 'projects'];
const before = process.env.BENCH_BEFORE ? join(process.env.BENCH_BEFORE, 'packages/cli/dist/bin.js') : undefined;
const commandTimes: number[] = [];
const beforeTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  commandTimes.push(timeSpawn(commandArgs(cliBin), signedOut));
  if (before) beforeTimes.push(timeSpawn(commandArgs(before), signedOut));
}
const command = median(commandTimes);
row('`wolfpack projects`, signed out, no terminal', `${command.toFixed(0)} ms`, `\`node -e ''\` ${node.toFixed(0)} ms${before ? `; BENCH_BEFORE ${median(beforeTimes).toFixed(0)} ms` : ''}`, '');

// The npm tarball's CLI (pnpm pack:cli), bundled: its --help against the issue's 2.5 × node -e ''.
const tarball = join(root, 'dist-cli', `wolfpack-cli-${(JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as { version: string }).version}.tgz`);
if (existsSync(tarball)) {
  const unpacked = await mkdtemp(join(tmpdir(), 'wolfpack-bench-cli-'));
  spawnSync('tar', ['xzf', tarball, '-C', unpacked]);
  const packedHelp = median(Array.from({ length: RUNS }, () => timeSpawn([join(unpacked, 'package/dist/bin.js'), '--help'])));
  row('`wolfpack --help`, npm tarball', `${packedHelp.toFixed(0)} ms (${(packedHelp / node).toFixed(2)} ×)`, `\`node -e ''\` ${node.toFixed(0)} ms`, '≤ 2.5 × node');
  await rm(unpacked, { recursive: true, force: true });
} else {
  console.log('(no dist-cli tarball: `pnpm pack:cli` adds the npm CLI\'s --help to this table)');
}

const fresh: number[] = [];
const existing: number[] = [];
for (let i = 0; i < 3; i++) {
  const dir = await mkdtemp(join(tmpdir(), 'wolfpack-startup-bench-'));
  try {
    fresh.push(await spawnToHealthy(dir));
    existing.push(await spawnToHealthy(dir));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
row('spawn to healthy, new data directory (PGlite created and migrated)', `${median(fresh).toFixed(0)} ms`, `\`node -e ''\` ${node.toFixed(0)} ms`, '');
row('spawn to healthy, existing data directory', `${median(existing).toFixed(0)} ms`, `\`node -e ''\` ${node.toFixed(0)} ms`, '');

// What a first visit downloads before the app can render: the entry script and its preloads.
const html = readFileSync(join(webDist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((m) => m[1] ?? m[2]!);
const gz = (file: string) => gzipSync(readFileSync(join(webDist, file))).length;
const raw = (file: string) => readFileSync(join(webDist, file)).length;
const initialGzip = initial.reduce((sum, f) => sum + gz(f), 0);
const initialRaw = initial.reduce((sum, f) => sum + raw(f), 0);
const allJs = spawnSync('find', [join(webDist, 'assets'), '-name', '*.js'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map((p) => p.slice(webDist.length + 1));
const allGzip = allJs.reduce((sum, f) => sum + gz(f), 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
row(`web app initial JavaScript (${initial.length} files), gzip`, kb(initialGzip), `all ${allJs.length} JS files ${kb(allGzip)}`, '< 250 KB');
row('web app initial JavaScript, uncompressed', kb(initialRaw), '', '');
