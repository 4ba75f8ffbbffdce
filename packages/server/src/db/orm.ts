import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import pg from 'pg';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/core';
import { allEntities } from '../entities/index.js';
import { migrationsList } from '../migrations/index.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  orm: MikroORM;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; without it the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string | undefined;
  dataDir: string;
}

/** Where the embedded database lives inside the data directory. */
export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/**
 * Opens the database and applies pending migrations. The same migrations serve both drivers, so
 * moving from the embedded database to PostgreSQL changes nothing but DATABASE_URL.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const common = {
    entities: allEntities,
    extensions: [Migrator] as [typeof Migrator],
    migrations: { migrationsList, transactional: true, snapshot: false, silent: true },
    // Entities are declared with defineEntity: no reflection, no decorators, no discovery by path.
    discovery: { warnWhenNoEntities: true },
    debug: false,
    allowGlobalContext: false,
  } as const;
  let orm: MikroORM;
  let kind: DatabaseKind;
  if (options.databaseUrl) {
    kind = 'postgres';
    orm = await PostgresORM.init({ ...common, clientUrl: options.databaseUrl, pool: { max: 10 } });
  } else {
    kind = 'pglite';
    await mkdir(options.dataDir, { recursive: true });
    orm = await PgliteORM.init({ ...common, dbName: pgliteDir(options.dataDir) });
  }
  try {
    if (kind === 'postgres') await withMigrationLock(options.databaseUrl!, () => orm.migrator.up());
    else await orm.migrator.up();
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  // Closing a pool whose connections PostgreSQL already cut (a restart) can wait for ever in the
  // driver: shutdown gives it a few seconds, then goes on (the process is ending anyway).
  const close = () =>
    kind === 'postgres' ? Promise.race([orm.close(true), new Promise<void>((resolve) => setTimeout(resolve, 3000).unref())]) : orm.close(true);
  return { orm, kind, close };
}

/** Any fixed number: the key of the advisory lock that serializes migrations across processes. */
const MIGRATION_LOCK_KEY = 7_411_937;

/**
 * Replicas that start together on an empty database would each run the migrations, and the
 * second would fail on objects the first just created (the migrator takes no lock). A session
 * advisory lock, on a connection of its own, lets one migrate while the others wait, then find
 * nothing left to do.
 */
async function withMigrationLock(databaseUrl: string, migrate: () => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'wolfpack-migrations' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate();
  } finally {
    // Ending the session releases the lock, also when the unlock itself cannot be sent.
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
