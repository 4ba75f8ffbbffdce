// The projects page under load, as users make it: 10,000 projects for one user on PostgreSQL, the
// built server (`wolfpack serve`, its own process) and many signed-in clients at once
// on keep-alive connections, each loading what the web's projects page loads (the first page of
// the root, the sidebar's counts) with `GET /api/health` mixed in, as a load balancer's checks
// are. autocannon drives the clients; every request's latency is kept by path, so each path gets
// its own p50 and p99. When BENCH_BEFORE names a built checkout of another commit, that build runs
// too; the candidates alternate, round by round, so a busy machine slows them alike. A short
// phase of one request at a time (deep pages by cursor, the floor of a signed-in request) comes
// first, with the first page asked again with its ETag, as a browser revalidates it (a 304). The
// load's clients send no If-None-Match: every page is made in full, the list's dearest case.
// Targets: p99 < 20 ms at 10 clients, < 50 ms at 50, no error, counted on each client's
// requests once its connection is open and its first round answered (that round, when all the
// clients connect and ask at the same instant, is shown on its own).
//
// BENCH_PROJECTS (10000), BENCH_PATH_REQUESTS (20000 per path and run), BENCH_WARMUP_REQUESTS (5000 per path, at each number of clients), BENCH_CLIENTS ("10,50"),
// BENCH_ROUNDS (2), BENCH_BEFORE (a built worktree), BENCH_TRY_NODE_ARGS, BENCH_TRY_ENV, BENCH_PG_SOCKET
// (the folder of PostgreSQL's Unix socket, as /var/run/postgresql: a candidate connected through it), BENCH_CPU_PROF, BENCH_DATABASE_URL
// (else DATABASE_URL, else 127.0.0.1:5432: a PostgreSQL server the bench makes its own database in).
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pgAdmin, requirePostgres } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';
import { signIn, signUp } from './bench-user.js';
import { cpuMsBetween, cpuMsOf, benchEnv, benchWords, serveBuilt, THIS_TREE, type BenchServer } from './serve-process.js';
import { percentile } from './latency.js';
import type { Sql } from '../src/db/plain-sql.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
// A run's p99 is its slowest 1 %: at 2,000 requests a path, 20 of them, which a single stall of
// the process or the host (every request in flight waits through it: 50 at 50 clients) decides by
// itself, in a run of 2 s. 20,000 (about 16 s a run) measure the load, not one event.
const PATH_REQUESTS = Number(process.env.BENCH_PATH_REQUESTS ?? 20_000);
const SEQUENTIAL = Number(process.env.BENCH_PROJECTS_REQUESTS ?? 200);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '10,50').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BEFORE = process.env.BENCH_BEFORE;
const WARMUP = 50;
/** Requests a path in the warm-up before the runs, at each number of clients. */
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP_REQUESTS ?? 5_000);
const TARGET_P99_MS: Record<number, number> = { 10: 20, 50: 50 };
/**
 * Sessions the clients share out, one a connection by default: each person signed in has a
 * session of their own, and a server may read many sessions at once (one cookie for all would
 * let it read one row for a crowd). BENCH_SESSIONS=1: every client with the same cookie.
 */
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? Math.max(...CLIENTS));
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? POSTGRES_ADMIN_URL;
/** The folder of PostgreSQL's Unix socket, for one more candidate that connects through it. */
const PG_SOCKET = process.env.BENCH_PG_SOCKET;
if (PG_SOCKET && !existsSync(join(PG_SOCKET, `.s.PGSQL.${new URL(ADMIN_URL).port || '5432'}`))) throw new Error(`BENCH_PG_SOCKET: no PostgreSQL socket in ${PG_SOCKET}`);
/** What a browser sends. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const admin = (sql: string) => pgAdmin(ADMIN_URL, sql);
await requirePostgres(ADMIN_URL, 'Set BENCH_DATABASE_URL or start PostgreSQL on 127.0.0.1:5432.');

const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
/** All cores' CPU time so far, idle and in all (ms). */
const machineTimes = () => cpus().reduce((sum, { times }) => ({ idle: sum.idle + times.idle, all: sum.all + times.user + times.nice + times.sys + times.idle + times.irq }), { idle: 0, all: 0 });
const name = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
await admin(`create database "${name}"`);
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-projects-'));
const databaseUrl = withDatabase(ADMIN_URL, name);
// Migrations run here; the seeding uses this connection too.
const db = await openDatabase({ databaseUrl, dataDir });
const servers: BenchServer[] = [];

const PAGE = '/api/projects?folderId=root';
const COUNTS = '/api/projects?limit=1&counts=true';
const HEALTH = '/api/health';

try {
  // Every server shares the data directory, so its secrets (the cookie keys): one sign-in serves all.
  // BENCH_CPU_PROF=DIR: V8 CPU profiles of every server process, written there when it stops
  // (where the event loop's time goes under load; open them in Chrome DevTools).
  // BENCH_NODE_ARGS: more of Node's flags for the servers (say, a V8 heap setting to try).
  const nodeArgs = [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []), ...benchWords('BENCH_NODE_ARGS')];
  servers.push(await serveBuilt('this build', THIS_TREE, dataDir, { DATABASE_URL: databaseUrl }, nodeArgs));
  // The same server reaching PostgreSQL through its Unix socket, as a server on PostgreSQL's own
  // host may: a query's write then skips loopback TCP (writev, the queries' above all, is the
  // largest part of a request's CPU in the profile).
  if (PG_SOCKET) {
    const tcp = new URL(databaseUrl);
    const socketUrl = `postgres://${tcp.username}@${encodeURIComponent(PG_SOCKET)}:${tcp.port || 5432}${tcp.pathname}`;
    servers.push(await serveBuilt('this build, Unix socket', THIS_TREE, dataDir, { DATABASE_URL: socketUrl }, nodeArgs));
  }
  // BENCH_TRY_NODE_ARGS: one more candidate, this build with those flags of Node's too, beside the
  // one without them (a V8 heap setting measured side by side before any start script sets it).
  const tryArgs = benchWords('BENCH_TRY_NODE_ARGS');
  if (tryArgs.length > 0) {
    servers.push(await serveBuilt(`this build, ${tryArgs.join(' ')}`, THIS_TREE, dataDir, { DATABASE_URL: databaseUrl }, [...nodeArgs, ...tryArgs]));
  }
  // BENCH_TRY_ENV="NAME=VALUE …": one more candidate, this build with those settings on top of
  // what npm start sets (GLIBC_TUNABLES= for glibc's own defaults, say).
  if (process.env.BENCH_TRY_ENV?.trim()) {
    servers.push(await serveBuilt(`this build, ${process.env.BENCH_TRY_ENV.trim()}`, THIS_TREE, dataDir, { DATABASE_URL: databaseUrl, ...benchEnv('BENCH_TRY_ENV') }, nodeArgs));
  }
  if (BEFORE) servers.push(await serveBuilt(`before (${BEFORE})`, BEFORE, dataDir, { DATABASE_URL: databaseUrl }));
  const sql = () => db.orm.em.fork() as Sql;
  // The sign-ins through a server of their own, stopped before anything is measured: each costs the
  // real password hash (a quarter of a second of CPU, 128 MiB), which would leave the candidate
  // that made them 50-200 MB larger and slower than the others.
  const signer = await serveBuilt('sign-ins', THIS_TREE, dataDir, { DATABASE_URL: databaseUrl });
  const cookie = await signUp(signer.url, 'bench');
  // A few at a time.
  const cookies = [cookie];
  while (cookies.length < SESSIONS) {
    cookies.push(...(await Promise.all(Array.from({ length: Math.min(4, SESSIONS - cookies.length) }, () => signIn(signer.url, 'bench')))));
  }
  await signer.stop();
  const [user] = await sql().execute<Array<{ id: string }>>(`select id from users where username = 'bench'`);
  const userId = user!.id;
  // Ten folders hold a fifth of the projects; the root the rest, as a long-time user might have it.
  const folders = Array.from({ length: 10 }, () => randomUUID());
  for (const [i, id] of folders.entries()) {
    await sql().execute(`insert into folders (id, user_id, name, parent_folder_id, created_at) values (?, ?, ?, null, now())`, [id, userId, `Folder ${i}`]);
  }
  // A neighbour with as many projects, so the index must pick one user's rows out of two.
  const neighbour = randomUUID();
  await sql().execute(`insert into users (id, username, username_key, password_hash, plan, created_at) values (?, 'neighbour', 'neighbour', 'x', 'Free', now())`, [neighbour]);
  const seedStarted = performance.now();
  for (const owner of [userId, neighbour]) {
    await sql().execute(
      `insert into projects (id, user_id, idea, file_count, folder_id, total_bytes, version, session_count, total_processing_time_ms, total_cost_millicents, created_at, updated_at)
       select gen_random_uuid(), ?,
              (array['Recipe', 'Chess', 'Habit', 'Budget', 'Weather', 'Kanban', 'Invoice', 'Quiz'])[1 + g % 8] || ' app number ' || g ||
                E'\\nA single-page app with a clean interface, local storage, export to CSV and a dark mode. Built for the bench.',
              1 + g % 12,
              case when g % 5 = 0 then (?::uuid[])[1 + (g / 5) % 10] else null end,
              4096, 1, 1, 1000, 500,
              now() - g * interval '37 seconds', now() - g * interval '37 seconds'
       from generate_series(1, ?) g`,
      // The neighbour's empty array puts every project of theirs in the root.
      [owner, owner === userId ? `{${folders.join(',')}}` : '{}', PROJECTS],
    );
    // Four files each, as the issue measured (the list reads none of them).
    await sql().execute(
      `insert into project_files (project_id, path, content, size)
       select p.id, f.path, 'export default 1;', 17 from projects p cross join (values ('index.html'), ('src/app.ts'), ('src/style.css'), ('README.md')) f(path)
       where p.user_id = ?`,
      [owner],
    );
  }
  // As a table that filled over months is: vacuumed (its visibility map set, so the list's
  // index-only scans skip the heap), not left for autovacuum to do while the runs are measured.
  await sql().execute('vacuum analyze');
  const seeded = (performance.now() - seedStarted) / 1000;

  const get = async (url: string, path: string) => {
    const res = await fetch(url + path, { headers: { cookie } });
    const body = (await res.json()) as { projects?: unknown[]; nextCursor?: string | null };
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  /**
   * The first page with `headers`, read to its end: its status and ETag. Through node:http, as a
   * browser's cache revalidates: fetch() adds `Cache-Control: no-cache` to a request that carries
   * If-None-Match, which asks for the whole page again.
   */
  const plainGet = (url: string, headers: Record<string, string>) =>
    new Promise<{ status: number; etag: string | undefined }>((resolve, reject) => {
      http
        .get(url + PAGE, { headers: { cookie, ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, etag: res.headers.etag }));
        })
        .on('error', reject);
    });
  /** Each server's ETag of the first page, as a browser keeps it (none: that build sends none). */
  const etags = new Map<string, string | undefined>();
  for (const server of servers) etags.set(server.url, (await plainGet(server.url, {})).etag);
  /** The first page asked again with its ETag: a 304 without a body while it is unchanged. */
  const revalidate = async (url: string) => {
    const etag = etags.get(url);
    const { status } = await plainGet(url, etag ? { 'if-none-match': etag } : {});
    if (status !== (etag ? 304 : 200)) throw new Error(`${PAGE} with If-None-Match answered ${status}`);
  };
  /** The cursor after `rows` rows of this list, walked 200 at a time. */
  const cursorAfter = async (query: string, rows: number) => {
    let cursor = '';
    for (let seen = 0; seen < rows; seen += 200) {
      cursor = (await get(servers[0]!.url, `/api/projects?${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`)).nextCursor!;
    }
    return cursor;
  };
  const deepCursor = await cursorAfter('sort=newest', PROJECTS - 200);
  const deepRootAz = await cursorAfter('sort=a-z&folderId=root', Math.floor(PROJECTS * 0.8) - 400);

  /** The first page as a browser gets it: its size on the wire and its encoding. */
  const wire = (url: string) =>
    new Promise<{ bytes: number; encoding: string; vary: string }>((resolve, reject) => {
      http
        .get(url + PAGE, { headers: { cookie, 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity'), vary: String(res.headers.vary ?? '') }));
        })
        .on('error', reject);
    });
  const plainBytes = JSON.stringify(await get(servers[0]!.url, PAGE)).length;

  // One request at a time, the candidates alternating request by request, each server in turn.
  const sequential = [
    { label: "the web's first page (root, newest)", path: PAGE, rows: 50 },
    { label: 'the first page again, with its ETag (304; 200 for a build without ETags)', path: PAGE, rows: -2 },
    { label: "the sidebar's counts", path: COUNTS, rows: 1 },
    { label: 'first page, every folder', path: '/api/projects', rows: 50 },
    { label: `deep page (50 after row ${PROJECTS - 200}, by cursor)`, path: `/api/projects?cursor=${deepCursor}`, rows: 50 },
    { label: 'deep a-z page of the root (by cursor)', path: `/api/projects?sort=a-z&folderId=root&cursor=${deepRootAz}`, rows: 50 },
    { label: 'floor: GET /api/engines (signed in, no query)', path: '/api/engines', rows: -1 },
    { label: 'GET /api/health', path: HEALTH, rows: -1 },
  ];
  const seqSamples = servers.map(() => sequential.map(() => [] as number[]));
  for (let i = 0; i < WARMUP + SEQUENTIAL; i++) {
    for (const [s, server] of servers.entries()) {
      for (const [c, candidate] of sequential.entries()) {
        const t0 = performance.now();
        const body = candidate.rows === -2 ? await revalidate(server.url) : await get(server.url, candidate.path);
        const ms = performance.now() - t0;
        if (body && candidate.rows >= 0 && body.projects?.length !== candidate.rows) throw new Error(`${candidate.path}: ${body.projects?.length} rows, expected ${candidate.rows}`);
        if (i >= WARMUP) seqSamples[s]![c]!.push(ms);
      }
    }
  }

  // Many clients at once. Each connection asks for the page, the counts and health in turn.
  interface LoadResult {
    /** Each client's requests after its first round, by path. */
    byPath: Map<string, number[]>;
    /**
     * Each client's first round (one request a path): its connection opened and every client's
     * first request sent at the same instant, a herd that queues for the pool of database
     * connections at once. Kept apart: the targets are for keep-alive clients, whose connections
     * are open, and these ~150 of 6,000 requests alone would decide a p99 (shown on their own).
     */
    start: number[];
    requests: number;
    errors: number;
    non2xx: number;
    seconds: number;
    load: string;
    rssMb: number;
    /** CPU a request (µs): the server's processes, PostgreSQL's, this bench's own (the clients). */
    cpu: { server: number; postgres: number; clients: number };
    /** Share of the machine's CPU time (all cores) not idle during the run, in %. */
    machineBusy: number;
  }
  const paths = [PAGE, COUNTS, HEALTH];
  const hammer = (server: BenchServer, connections: number, perPath: number) =>
    new Promise<LoadResult>((resolve, reject) => {
      const byPath = new Map(paths.map((p) => [p, [] as number[]]));
      const start: number[] = [];
      const answered = new Map<object, number>();
      let peakRss = 0;
      // autocannon's own duration is counted in whole seconds: the last answer's time is the run's end.
      const started = performance.now();
      let lastAnswer = started;
      let clientsSetUp = 0;
      const cpuBefore = { server: server.cpuMs(), postgres: cpuMsOf((_, command) => command === 'postgres'), clients: process.cpuUsage(), machine: machineTimes() };
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss())), 250);
      const instance = autocannon(
        {
          url: server.url,
          connections,
          amount: perPath * paths.length,
          timeout: 10,
          headers: { cookie, 'accept-encoding': ACCEPT_ENCODING },
          requests: paths.map((path) => ({ method: 'GET', path })),
          // Each connection a session of its own (SESSIONS), as each person signed in has.
          setupClient: (client: { setRequests(requests: Array<{ method: string; path: string; headers: Record<string, string> }>): void }) => {
            const own = cookies[clientsSetUp++ % cookies.length]!;
            client.setRequests(paths.map((path) => ({ method: 'GET', path, headers: { cookie: own, 'accept-encoding': ACCEPT_ENCODING } })));
          },
        },
        (error: Error | null, result: { errors: number; non2xx: number; timeouts: number; duration: number; requests: { total: number } }) => {
          clearInterval(sampler);
          if (error) return reject(error);
          const perRequest = (ms: number) => (ms * 1000) / result.requests.total;
          const clients = process.cpuUsage(cpuBefore.clients);
          const machine = machineTimes();
          const machineBusy = 100 * (1 - (machine.idle - cpuBefore.machine.idle) / Math.max(1, machine.all - cpuBefore.machine.all));
          const cpu = {
            server: perRequest(cpuMsBetween(cpuBefore.server, server.cpuMs())),
            postgres: perRequest(cpuMsBetween(cpuBefore.postgres, cpuMsOf((_, command) => command === 'postgres'))),
            clients: perRequest((clients.user + clients.system) / 1000),
          };
          resolve({ cpu, machineBusy, byPath, start, requests: result.requests.total, errors: result.errors + result.timeouts, non2xx: result.non2xx, seconds: (lastAnswer - started) / 1000, load: load(), rssMb: peakRss / 1024 / 1024 });
        },
      );
      // Pipelining is off, so a client's current request is the one just answered.
      instance.on('response', (client: { requestIterator: { currentRequest: { path: string } } }, _status: number, _bytes: number, ms: number) => {
        lastAnswer = performance.now();
        const n = (answered.get(client) ?? 0) + 1;
        answered.set(client, n);
        if (n <= paths.length) start.push(ms);
        else byPath.get(client.requestIterator.currentRequest.path)?.push(ms);
      });
    });

  const results = new Map<string, LoadResult[]>();
  // Warm-up, at every number of clients: a server that has run for a while, as users meet it. The
  // first few thousand requests of a new process run slower (about 1.5 times the CPU a request
  // while V8 optimizes the hot paths); those are the start's, not the load's.
  for (const server of servers) for (const connections of CLIENTS) await hammer(server, connections, WARMUP_REQUESTS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const connections of CLIENTS) {
      // Alternate the order each round, so neither build always follows the other.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const key = `${server.label}|${connections}`;
        const result = await hammer(server, connections, PATH_REQUESTS);
        results.set(key, [...(results.get(key) ?? []), result]);
      }
    }
  }

  const fmt = (x: number) => x.toFixed(1);
  console.log(`PostgreSQL, ${PROJECTS} projects for one user (and as many for a neighbour), 4 files each, seeded in ${seeded.toFixed(1)} s.`);
  console.log(`The built server (wolfpack serve from packages/cli/dist), ${cpus().length} CPUs shared with PostgreSQL and this bench's clients (autocannon, one process).`);
  console.log(`Load average at the end: ${load()}.\n`);
  console.log('### The first page on the wire (a client that accepts gzip and brotli)\n');
  console.log('| server | bytes | Content-Encoding | Vary |');
  console.log('| --- | ---: | --- | --- |');
  console.log(`| (JSON as sent uncompressed) | ${plainBytes} | identity | |`);
  for (const server of servers) {
    const w = await wire(server.url);
    console.log(`| ${server.label} | ${w.bytes} | ${w.encoding} | ${w.vary} |`);
  }
  console.log(`\n### ${CLIENTS.join(' and ')} clients at once, keep-alive, ${PATH_REQUESTS} requests a path a run, ${ROUNDS} runs each (p50 / p99 ms per run)\n`);
  console.log(`Each server warmed up first with ${WARMUP_REQUESTS} requests a path at each number of clients. Each run opens its clients' connections anew, and every client sends its first request at the same instant: the paths' columns and the target count each client's requests after its first round (one request a path), which has its own column. ${SESSIONS === 1 ? 'Every client sends the same session cookie.' : `The clients take turns at ${SESSIONS} sessions of the user (one a client at ${SESSIONS} clients).`}\n`);
  console.log('CPU a request: the server\'s processes / PostgreSQL\'s / the clients (autocannon, this process), µs, per run; two cores make 2,000,000 µs a second in all. Machine busy: the share of all cores\' time not idle during the run (at 50 clients a closed loop of clients keeps it near saturation, where waits grow long and uneven).\n');
  console.log('| server | clients | first page (root) | sidebar counts | /api/health | each client\'s first round, all paths (p99) | requests/s | CPU a request (µs) | machine busy | errors | server RSS MB (peak) | load (1/5/15 min) | target |');
  console.log('| --- | ---: | --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | --- | --- |');
  for (const connections of CLIENTS) {
    for (const server of servers) {
      const runs = results.get(`${server.label}|${connections}`) ?? [];
      const cell = (path: string) =>
        runs
          .map((r) => {
            const sorted = [...r.byPath.get(path)!].sort((a, b) => a - b);
            return `${fmt(percentile(sorted, 50))} / **${fmt(percentile(sorted, 99))}**`;
          })
          .join(', ');
      const worstP99 = Math.max(...runs.flatMap((r) => paths.map((p) => percentile([...r.byPath.get(p)!].sort((a, b) => a - b), 99))));
      const failures = runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
      const target = TARGET_P99_MS[connections];
      const verdict = target === undefined ? '' : worstP99 < target && failures === 0 ? `p99 < ${target} ms: met` : `p99 < ${target} ms: MISSED (worst ${fmt(worstP99)})`;
      console.log(
        `| ${server.label} | ${connections} | ${cell(PAGE)} | ${cell(COUNTS)} | ${cell(HEALTH)} | ${runs.map((r) => fmt(percentile([...r.start].sort((a, b) => a - b), 99))).join(', ')} | ${runs.map((r) => (r.requests / r.seconds).toFixed(0)).join(', ')} | ${runs.map((r) => `${r.cpu.server.toFixed(0)} / ${r.cpu.postgres.toFixed(0)} / ${r.cpu.clients.toFixed(0)}`).join(', ')} | ${runs.map((r) => `${r.machineBusy.toFixed(0)} %`).join(', ')} | ${failures} | ${runs.map((r) => r.rssMb.toFixed(0)).join(', ')} | ${runs.map((r) => r.load).join('; ')} | ${verdict} |`,
      );
    }
  }
  console.log(`\n### One request at a time (${SEQUENTIAL} each after ${WARMUP} warm-up rounds, alternating; p50 / p99 ms)\n`);
  console.log(`| candidate | ${servers.map((s) => s.label).join(' | ')} |`);
  console.log(`| --- | ${servers.map(() => '---').join(' | ')} |`);
  for (const [c, candidate] of sequential.entries()) {
    const cells = servers.map((_, s) => {
      const sorted = [...seqSamples[s]![c]!].sort((a, b) => a - b);
      return `${percentile(sorted, 50).toFixed(2)} / ${percentile(sorted, 99).toFixed(2)}`;
    });
    console.log(`| ${candidate.label} | ${cells.join(' | ')} |`);
  }
} finally {
  for (const server of servers) await server.stop();
  await db.close();
  if (process.env.BENCH_KEEP === '1') console.log(`Kept database ${name}.`);
  else await admin(`drop database if exists "${name}" with (force)`).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
