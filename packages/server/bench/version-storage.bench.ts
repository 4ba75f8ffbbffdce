// What 100 versions of a 2,000-file project cost in the database: a project of 2,000 files of
// 2 KB (version 1, an import), then 100 versions through VersionStore.commit, each changing 5
// files. Printed side by side: the bytes those versions changed, the bytes the version tables
// grew by (pg_total_relation_size of project_blobs, project_version_changes and project_versions),
// their ratio, and what keeping every version whole would have cost (the design before content
// addressing: 100 × the project's size). On PGlite, and on PostgreSQL when it is reachable
// (BENCH_DATABASE_URL, else WOLFPACK_TEST_POSTGRES_URL, else 127.0.0.1:5432). A ratio, never a pass/fail.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../src/db/orm.js';
import { plainSql } from '../src/db/plain-sql.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';
import { VersionStore } from '../src/services/projects/version-store.js';
import { pgAdmin } from './pg-admin.js';
import { percentile } from './latency.js';

const FILES = Number(process.env.BENCH_VERSION_FILES ?? 2000);
const FILE_BYTES = 2048;
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 100);
const CHANGED_PER_VERSION = 5;
const MB = 1024 * 1024;

/** Text that does not compress away (TOAST would otherwise make the stored bytes look smaller). */
const text = () => randomBytes(FILE_BYTES / 2).toString('hex');

async function tablesBytes(db: Database): Promise<number> {
  const rows = await plainSql(db.orm.em.fork()).execute<Array<{ n: string | number }>>(
    `select pg_total_relation_size('project_blobs') + pg_total_relation_size('project_version_changes') + pg_total_relation_size('project_versions') as n`,
  );
  return Number(rows[0]!.n);
}

async function measure(db: Database): Promise<Record<string, string>> {
  const sql = plainSql(db.orm.em.fork());
  const userId = randomUUID();
  await sql.execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, 'bench', 'bench', 'x', now())`, [userId]);
  const store = new VersionStore(db.orm);
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`src/module-${String(i).padStart(4, '0')}.ts`] = text();
  const projectBytes = Object.values(files).reduce((sum, c) => sum + Buffer.byteLength(c), 0);
  const project = await store.createProject(userId, 'Version storage benchmark', files, { kind: 'import', origin: 'bench.zip' });
  const before = await tablesBytes(db);
  let changedBytes = 0;
  const times: number[] = [];
  const paths = Object.keys(files);
  for (let v = 0; v < VERSIONS; v++) {
    const changed = Object.fromEntries(Array.from({ length: CHANGED_PER_VERSION }, (_, i) => [paths[(v * CHANGED_PER_VERSION + i * 397) % paths.length]!, text()]));
    changedBytes += Object.values(changed).reduce((sum, c) => sum + Buffer.byteLength(c), 0);
    const started = performance.now();
    await store.commit(userId, project.id, { kind: 'edit' }, (current) => ({ ...current, ...changed }), v + 1);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const grown = (await tablesBytes(db)) - before;
  const whole = VERSIONS * projectBytes;
  return {
    'project size': `${(projectBytes / MB).toFixed(2)} MB (${FILES} files)`,
    'version 1 stored': `${(before / MB).toFixed(2)} MB`,
    [`changed by ${VERSIONS} versions`]: `${(changedBytes / MB).toFixed(2)} MB`,
    'version tables grew': `${(grown / MB).toFixed(2)} MB`,
    'grew / changed': `${(grown / changedBytes).toFixed(2)}×`,
    [`whole copies (${VERSIONS} × project)`]: `${(whole / MB).toFixed(1)} MB`,
    'whole copies / grew': `${(whole / grown).toFixed(0)}×`,
    'commit time p50 / p95': `${percentile(times, 50).toFixed(0)} / ${percentile(times, 95).toFixed(0)} ms`,
  };
}

const results: Array<[string, Record<string, string>]> = [];
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-version-bench-'));
try {
  const pglite = await openDatabase({ dataDir });
  try {
    results.push(['PGlite', await measure(pglite)]);
  } finally {
    await pglite.close();
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? POSTGRES_ADMIN_URL;
  const name = `wolfpack_bench_versions_${randomBytes(4).toString('hex')}`;
  let created = false;
  try {
    await pgAdmin(adminUrl, `create database "${name}"`);
    created = true;
  } catch (error) {
    console.log(`PostgreSQL: skipped, not reachable at ${adminUrl} (${(error as Error).message}).`);
  }
  if (created) {
    try {
      const postgres = await openDatabase({ databaseUrl: withDatabase(adminUrl, name), dataDir });
      try {
        results.push(['PostgreSQL', await measure(postgres)]);
      } finally {
        await postgres.close();
      }
    } finally {
      await pgAdmin(adminUrl, `drop database if exists "${name}" with (force)`);
    }
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

const rowNames = Object.keys(results[0]![1]);
const width = Math.max(...rowNames.map((r) => r.length));
const colWidth = 26;
console.log(`${''.padEnd(width)}  ${results.map(([db]) => db.padStart(colWidth)).join('')}`);
for (const row of rowNames) console.log(`${row.padEnd(width)}  ${results.map(([, r]) => (r[row] ?? '').padStart(colWidth)).join('')}`);
