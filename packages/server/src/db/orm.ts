import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
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
    await orm.migrator.up();
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return { orm, kind, close: () => orm.close(true) };
}
