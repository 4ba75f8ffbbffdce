import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase, pgliteDir } from '../db/orm.js';

/** The PostgreSQL server the suites use when it is reachable (CI always has it). */
export const POSTGRES_ADMIN_URL = process.env.WOLFPACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface DatabaseTemplates {
  /** A data dir whose PGlite database is migrated; copy it with {@link copyPgliteTemplate}. */
  pgliteTemplateDir: string;
  /** A migrated PostgreSQL database to create test databases from; null without PostgreSQL. */
  postgresTemplate: string | null;
  dispose(): Promise<void>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Migrates one database of each kind once per suite; every test then starts from a copy of it (a
 * copied PGlite data dir, a PostgreSQL database created from a template), so tests are isolated
 * without paying for a fresh PGlite cluster (~3 s, ~1 GB) or a migration each time.
 * `postgres: false` makes only the PGlite one (suites that never use PostgreSQL).
 */
export async function createDatabaseTemplates(options: { postgres?: boolean } = {}): Promise<DatabaseTemplates> {
  const root = await mkdtemp(join(tmpdir(), 'wolfpack-test-template-'));
  const template = await openDatabase({ dataDir: root });
  await template.close();

  let postgresTemplate: string | null = null;
  if (options.postgres === false) {
    // Not wanted here.
  } else if (await postgresReachable()) {
    postgresTemplate = `wolfpack_tpl_${process.pid}_${Date.now()}`;
    await adminQuery(`create database "${postgresTemplate}"`);
    const db = await openDatabase({ databaseUrl: withDatabase(POSTGRES_ADMIN_URL, postgresTemplate), dataDir: root });
    await db.close();
  } else if (process.env.WOLFPACK_TEST_REQUIRE_POSTGRES === '1') {
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}, and WOLFPACK_TEST_REQUIRE_POSTGRES=1.`);
  } else {
    console.warn(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: integration tests run on PGlite only.`);
  }
  return {
    pgliteTemplateDir: root,
    postgresTemplate,
    async dispose() {
      await rm(root, { recursive: true, force: true });
      if (postgresTemplate) {
        // The tests' own databases are named after the template; any a test file left go too.
        const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await client.connect();
        try {
          const { rows } = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [`${postgresTemplate}_`]);
          for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
          await client.query(`drop database if exists "${postgresTemplate}" with (force)`);
        } finally {
          await client.end();
        }
      }
    },
  };
}

/**
 * Gives `dataDir` its own copy of the template's PGlite database. `cp -a` rather than Node's
 * fs.cp: the cluster is ~1,200 files, which fs.cp copies in 450-870 ms and cp in ~50 ms.
 */
export async function copyPgliteTemplate(templateDir: string, dataDir: string): Promise<void> {
  await promisify(execFile)('cp', ['-a', pgliteDir(templateDir), pgliteDir(dataDir)]);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on the PostgreSQL server itself (create or drop a test database). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
