/**
 * One database of each kind per test file, lent to one server at a time and emptied in between.
 * Emptying every table and starting every sequence again ({@link EMPTY_ALL}) leaves it exactly as
 * the migrated template: the migrations add no rows, and the migrations' own table is kept.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../db/orm.js';
import { adminQuery, copyPgliteTemplate, POSTGRES_ADMIN_URL, withDatabase } from './database-template.js';

export interface Lease {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl: string | undefined;
  /** PGlite's open database, handed to the server (opening one is the slow part). */
  database?: Database;
}

interface Held {
  dataDir: string;
  busy: boolean;
}

/**
 * Every table but the migrations' emptied and every sequence back to its start, in one statement.
 * DELETE rather than TRUNCATE: TRUNCATE gives each of the 40 tables, their indexes and TOAST
 * tables new files and unlinks the old ones, some hundreds of files a test on each database, which
 * made most of this suite's system time; a test leaves a few rows, which DELETE removes in place.
 * The replica role skips the foreign keys' checks and the triggers, which have nothing left to do
 * once every table is empty.
 */
const EMPTY_ALL = `do $$
declare r record;
begin
  set local session_replication_role = replica;
  for r in select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations' loop
    execute format('delete from %I', r.tablename);
  end loop;
  for r in select sequencename, start_value from pg_sequences where schemaname = current_schema() loop
    perform setval(format('%I', r.sequencename), r.start_value, false);
  end loop;
end $$`;

/** A data dir back to its database alone (secrets and whatever else the last server wrote go). */
async function clearDataDir(dataDir: string): Promise<void> {
  for (const entry of await readdir(dataDir)) if (entry !== 'pglite') await rm(join(dataDir, entry), { recursive: true, force: true });
}

/** A data dir removed when this test file's process ends (the suite's teardown drops the PostgreSQL ones). */
async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wolfpack-test-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class ReusableDatabases {
  private pglite?: Held & { db?: Database };
  private postgres?: Held & { url: string };

  constructor(private readonly templates: { pgliteTemplateDir: () => string; postgresTemplate: () => string | null }) {}

  /** An empty database of this kind, or undefined while another server of the test holds it. */
  async acquire(kind: 'pglite' | 'postgres'): Promise<Lease | undefined> {
    return kind === 'pglite' ? this.acquirePglite() : this.acquirePostgres();
  }

  private async acquirePglite(): Promise<Lease | undefined> {
    if (!this.pglite) {
      const dataDir = await scratchDir();
      await copyPgliteTemplate(this.templates.pgliteTemplateDir(), dataDir);
      this.pglite = { dataDir, busy: false };
    }
    const held = this.pglite;
    if (held.busy) return undefined;
    held.busy = true;
    try {
      await clearDataDir(held.dataDir);
      held.db ??= await openDatabase({ dataDir: held.dataDir });
      await held.db.orm.em.getConnection().execute(EMPTY_ALL);
      return { kind: 'pglite', dataDir: held.dataDir, databaseUrl: undefined, database: held.db };
    } catch (error) {
      held.busy = false;
      throw error;
    }
  }

  private async acquirePostgres(): Promise<Lease | undefined> {
    if (!this.postgres) {
      const template = this.templates.postgresTemplate();
      if (!template) throw new Error('PostgreSQL is not available for this run');
      const name = `${template}_r_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database "${name}" template "${template}"`);
      this.postgres = { dataDir: await scratchDir(), url: withDatabase(POSTGRES_ADMIN_URL, name), busy: false };
    }
    const held = this.postgres;
    if (held.busy) return undefined;
    held.busy = true;
    try {
      await clearDataDir(held.dataDir);
      const client = new pg.Client({ connectionString: held.url });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query(EMPTY_ALL);
      } finally {
        await client.end().catch(() => undefined);
      }
      return { kind: 'postgres', dataDir: held.dataDir, databaseUrl: held.url };
    } catch (error) {
      held.busy = false;
      throw error;
    }
  }

  /** Closes the lent PGlite database, so its files can be opened by another process or a restart. */
  async closeFiles(lease: Lease): Promise<void> {
    if (lease.kind !== 'pglite' || !this.pglite?.db) return;
    const { db } = this.pglite;
    this.pglite.db = undefined;
    await db.close();
  }

  /** Before a server starts on `dataDir` itself (a restart): the open PGlite there is closed first. */
  async releaseFilesOf(dataDir: string): Promise<void> {
    if (this.pglite?.dataDir === dataDir && this.pglite.db) await this.closeFiles({ kind: 'pglite', dataDir, databaseUrl: undefined });
  }

  /** The next test may have it. */
  release(lease: Lease): void {
    const held = lease.kind === 'pglite' ? this.pglite : this.postgres;
    if (held) held.busy = false;
  }
}
