// The project list at 10,000 projects for one user, on PostgreSQL, through the real HTTP server:
// GET /api/projects's first page and a page 9,800 rows deep (by cursor), the web's first page
// (root folder, with counts) and a deep a-z page of the root, beside the unpaginated list the
// route answered before it was paged (every project in one reply). The server runs in its own
// process, as in production, so the bench's own garbage (and the 3 MB unpaginated replies) cannot
// pause it. One request at a time after a warm-up, the paged candidates alternating request by
// request; the unpaginated comparison runs after them. The target is a page p99 under 20 ms.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { projectsQuery } from '@wolfpack/core';
import { pgAdmin, requirePostgres } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { spawnServer } from '../src/testing/server-process.js';
import { ProjectService } from '../src/services/project-service.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/global-setup.js';
import { signUp } from './bench-user.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_PROJECTS_REQUESTS ?? 400);
/** The unpaginated list moves ~3 MB a request: fewer samples keep the bench short. */
const OLD_REQUESTS = Math.max(20, Math.floor(REQUESTS / 10));
const WARMUP = 50;
const TARGET_P99_MS = 20;
const ADMIN_URL = process.env.DATABASE_URL ?? POSTGRES_ADMIN_URL;

type Sql = EntityManager & { execute<T = Array<Record<string, unknown>>>(sql: string, params?: unknown[]): Promise<T> };

const admin = (sql: string) => pgAdmin(ADMIN_URL, sql);
await requirePostgres(ADMIN_URL, 'Set DATABASE_URL or start PostgreSQL on 127.0.0.1:5432.');

const name = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
await admin(`create database "${name}"`);
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-projects-'));
const databaseUrl = withDatabase(ADMIN_URL, name);
// Migrations run here; the in-process comparisons use this connection too.
const db = await openDatabase({ databaseUrl, dataDir });
const server = await spawnServer({ DATABASE_URL: databaseUrl, WOLFPACK_DATA_DIR: dataDir });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

try {
  const sql = () => db.orm.em.fork() as Sql;
  const cookie = await signUp(server.url, 'bench');
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
  }
  await sql().execute('analyze projects');
  const seeded = (performance.now() - seedStarted) / 1000;

  const get = async (path: string) => {
    const res = await fetch(server.url + path, { headers: { cookie } });
    const body = (await res.json()) as { projects?: unknown[]; nextCursor?: string | null };
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  /** The cursor after `rows` rows of this list, walked 200 at a time. */
  const cursorAfter = async (query: string, rows: number) => {
    let cursor = '';
    for (let seen = 0; seen < rows; seen += 200) {
      cursor = (await get(`/api/projects?${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`)).nextCursor!;
    }
    return cursor;
  };
  const deepCursor = await cursorAfter('sort=newest', PROJECTS - 200);
  const deepRootAz = await cursorAfter('sort=a-z&folderId=root', Math.floor(PROJECTS * 0.8) - 400);

  // The old GET /api/projects: every project in one reply. GET /api/folders/root/projects still
  // answers the root that way; when it pages too, the service's unpaginated list stands in.
  const rootReply = await get('/api/folders/root/projects');
  const rootUnpaged = rootReply.nextCursor === undefined && (rootReply.projects?.length ?? 0) >= PROJECTS * 0.8;
  const projects = new ProjectService(db.orm);

  interface Candidate {
    label: string;
    run: () => Promise<number>;
    requests: number;
  }
  const timed = (path: string, rows: number) => async () => {
    const t0 = performance.now();
    const body = await get(path);
    const ms = performance.now() - t0;
    if (body.projects?.length !== rows) throw new Error(`${path}: ${body.projects?.length} rows, expected ${rows}`);
    return ms;
  };
  const firstPageQuery = projectsQuery.parse({});
  const candidates: Candidate[] = [
    { label: 'first page (50, newest, every folder)', run: timed('/api/projects', 50), requests: REQUESTS },
    {
      label: 'floor: GET /api/engines (signed in, no database query)',
      run: async () => {
        const t0 = performance.now();
        await get('/api/engines');
        return performance.now() - t0;
      },
      requests: REQUESTS,
    },
    {
      label: 'first page in process (ProjectService.page, no HTTP)',
      run: async () => {
        const t0 = performance.now();
        JSON.stringify(await projects.page(userId, firstPageQuery));
        return performance.now() - t0;
      },
      requests: REQUESTS,
    },
    { label: `deep page (50 after row ${PROJECTS - 200}, by cursor)`, run: timed(`/api/projects?cursor=${deepCursor}`, 50), requests: REQUESTS },
    { label: "the web's first page (root, newest)", run: timed('/api/projects?folderId=root', 50), requests: REQUESTS },
    { label: "the sidebar's counts (limit=1&counts=true: every folder's count)", run: timed('/api/projects?limit=1&counts=true', 1), requests: REQUESTS },
    { label: 'deep a-z page of the root (by cursor)', run: timed(`/api/projects?sort=a-z&folderId=root&cursor=${deepRootAz}`, 50), requests: REQUESTS },
    rootUnpaged
      ? { label: `unpaginated, as before (${rootReply.projects!.length} rows: GET /api/folders/root/projects)`, run: timed('/api/folders/root/projects', rootReply.projects!.length), requests: OLD_REQUESTS }
      : {
          label: `unpaginated, as before (${PROJECTS} rows: ProjectService.list + JSON, in process)`,
          run: async () => {
            const t0 = performance.now();
            JSON.stringify({ projects: await projects.list(userId) });
            return performance.now() - t0;
          },
          requests: OLD_REQUESTS,
        },
  ];
  const samples = candidates.map(() => [] as number[]);
  // The last candidate (3 MB a reply) runs alone afterwards: interleaved, its garbage lands in the others' tails.
  const phases = [candidates.slice(0, -1).map((_, c) => c), [candidates.length - 1]];
  for (const phase of phases) {
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      for (const c of phase) {
        const candidate = candidates[c]!;
        if (i >= WARMUP + candidate.requests) continue;
        const ms = await candidate.run();
        if (i >= WARMUP) samples[c]!.push(ms);
      }
    }
  }
  const stats = samples.map((xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: xs.length };
  });
  console.log(`PostgreSQL, ${PROJECTS} projects for one user (and as many for a neighbour), seeded in ${seeded.toFixed(1)} s; requests one at a time`);
  console.log(`through the HTTP server in its own process (keep-alive), after ${WARMUP} warm-up rounds, the paged candidates alternating;`);
  console.log('the unpaginated comparison runs after them.');
  console.log(`Load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} CPUs.\n`);
  console.log(`| candidate | requests | p50 ms | p99 ms | p50 ratio | p99 ratio | target |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  const base = stats[0]!;
  for (let c = 0; c < candidates.length; c++) {
    const s = stats[c]!;
    const paged = c < candidates.length - 1 && !candidates[c]!.label.startsWith('floor') && !candidates[c]!.label.includes('in process');
    const verdict = paged ? `p99 < ${TARGET_P99_MS} ms: ${s.p99 < TARGET_P99_MS ? 'met' : 'MISSED'}` : '(comparison)';
    console.log(`| ${candidates[c]!.label} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${(s.p50 / base.p50).toFixed(2)} | ${(s.p99 / base.p99).toFixed(2)} | ${verdict} |`);
  }
} finally {
  await server.stop();
  await db.close();
  if (process.env.BENCH_KEEP === '1') console.log(`Kept database ${name}.`);
  else await admin(`drop database if exists "${name}" with (force)`).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
