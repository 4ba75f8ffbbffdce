import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/orm.js';

/** The PostgreSQL server the suite uses when it is reachable (CI always has it). */
export const POSTGRES_ADMIN_URL = process.env.WOLFPACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresTemplate: string | null;
  }
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
 * Migrates one database of each kind once; every test then starts from a copy of it (a copied
 * PGlite data dir, a PostgreSQL database created from a template), so tests are isolated without
 * paying for a fresh PGlite cluster (~3 s, ~1 GB) each time.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'wolfpack-test-template-'));
  const template = await openDatabase({ dataDir: root });
  await template.close();
  project.provide('pgliteTemplateDir', root);

  let postgresTemplate: string | null = null;
  if (await postgresReachable()) {
    postgresTemplate = `wolfpack_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database "${postgresTemplate}"`);
    await admin.end();
    const db = await openDatabase({ databaseUrl: withDatabase(POSTGRES_ADMIN_URL, postgresTemplate), dataDir: root });
    await db.close();
  } else if (process.env.WOLFPACK_TEST_REQUIRE_POSTGRES === '1') {
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}, and WOLFPACK_TEST_REQUIRE_POSTGRES=1.`);
  } else {
    console.warn(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: integration tests run on PGlite only.`);
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    await rm(root, { recursive: true, force: true });
    if (postgresTemplate) {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists "${postgresTemplate}" with (force)`);
      await admin.end();
    }
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
