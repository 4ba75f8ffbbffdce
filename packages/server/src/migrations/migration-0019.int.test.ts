/**
 * Migration 0019 on a database that holds versions the old way (whole copies in fs_index): each
 * version's files, counts, source and run come out of the content-addressed tables, on PGlite and
 * on PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { allEntities } from '../entities/index.js';
import { openDatabase, pgliteDir } from '../db/orm.js';
import { plainSql } from '../db/plain-sql.js';
import { versionFiles } from '../db/version-files.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../testing/database-template.js';
import { adminQuery, testDatabases } from '../testing/test-server.js';
import { contentHash, treeHash } from '../services/projects/version-tree.js';
import { migrationsList } from './index.js';

/** The database as it was before 0019: every migration up to 0018. */
async function openBefore0019(databaseUrl: string | undefined, dataDir: string): Promise<MikroORM> {
  const common = {
    entities: allEntities,
    extensions: [Migrator] as [typeof Migrator],
    migrations: { migrationsList: migrationsList.slice(0, 18), transactional: true, snapshot: false, silent: true },
    debug: false,
    allowGlobalContext: false,
  } as const;
  await mkdir(dataDir, { recursive: true });
  const orm: MikroORM = databaseUrl ? await PostgresORM.init({ ...common, clientUrl: databaseUrl }) : await PgliteORM.init({ ...common, dbName: pgliteDir(dataDir) });
  await orm.migrator.up();
  return orm;
}

describe.each(testDatabases())('migration 0019 (%s)', (kind) => {
  it('turns whole copies into blobs, change rows and one version row per version', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-m0019-'));
    const name = `wolfpack_m0019_${randomBytes(4).toString('hex')}`;
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      await adminQuery(`create database ${name}`);
      databaseUrl = withDatabase(POSTGRES_ADMIN_URL, name);
    }
    try {
      const old = await openBefore0019(databaseUrl, dataDir);
      const sql = plainSql(old.em.fork());
      const user = randomUUID();
      const [project, other] = [randomUUID(), randomUUID()];
      const [build, cont, repair] = [randomUUID(), randomUUID(), randomUUID()];
      const t = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute));
      await sql.execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, 'ann', 'ann', 'x', ?)`, [user, t(0)]);
      for (const [id, version] of [[project, 3], [other, 1]] as const) {
        await sql.execute(
          `insert into projects (id, user_id, idea, file_count, total_bytes, version, session_count, total_processing_time_ms, total_cost_millicents, created_at, updated_at)
           values (?, ?, 'a todo app', 2, 6, ?, ?, 0, 0, ?, ?)`,
          [id, user, version, version, t(1), t(30)],
        );
      }
      const run = (id: string, idea: string, minute: number, onlyStages: string | null) =>
        sql.execute(
          `insert into conversations (id, user_id, idea, model_order, cycles, attachments, project_id, status, stages, only_stages, created_at, updated_at)
           values (?, ?, ?, '[]', 1, '[]', ?, 'completed', '[]', ?::jsonb, ?, ?)`,
          [id, user, idea, project, onlyStages, t(minute), t(minute)],
        );
      await run(build, 'a todo app', 0, null);
      await run(cont, 'add a sea', 5, null);
      await run(repair, 'a todo app', 10, '["Proven Code"]');
      // Old meaning: a row is the version a run replaced, conversation_id that run, created_at when.
      const oldRow = (version: number, files: Record<string, string>, by: string, minute: number) =>
        sql.execute(`insert into project_versions (project_id, version, idea, fs_index, conversation_id, created_at) values (?, ?, 'a todo app', ?::jsonb, ?, ?)`, [
          project,
          version,
          JSON.stringify(files),
          by,
          t(minute),
        ]);
      await oldRow(1, { 'a.txt': 'one', 'b.txt': 'bee' }, cont, 6);
      await oldRow(2, { 'a.txt': 'one', 'b.txt': 'bee2', 'c.txt': 'sea' }, repair, 11);
      for (const [id, path, content] of [[project, 'a.txt', 'one'], [project, 'c.txt', 'sea'], [other, 'x.txt', 'one']] as const) {
        await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [id, path, content, Buffer.byteLength(content)]);
      }
      await old.close(true);

      const db = await openDatabase({ databaseUrl, dataDir });
      try {
        const em = db.orm.em.fork();
        expect(await versionFiles(em, project, 1)).toEqual({ 'a.txt': 'one', 'b.txt': 'bee' });
        expect(await versionFiles(em, project, 2)).toEqual({ 'a.txt': 'one', 'b.txt': 'bee2', 'c.txt': 'sea' });
        expect(await versionFiles(em, project, 3)).toEqual({ 'a.txt': 'one', 'c.txt': 'sea' });
        expect(await versionFiles(em, other, 1)).toEqual({ 'x.txt': 'one' });

        const rows = await plainSql(em).execute<Array<Record<string, unknown>>>(
          `select version, conversation_id, created_at, source, file_count, total_bytes, added, changed, removed, tree_hash
             from project_versions where project_id = ? order by version`,
          [project],
        );
        const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
        expect(rows.map((r) => ({ ...r, source: parsed(r.source), created_at: new Date(r.created_at as string).toISOString(), total_bytes: Number(r.total_bytes) }))).toEqual([
          { version: 1, conversation_id: build, created_at: t(1).toISOString(), source: { kind: 'build' }, file_count: 2, total_bytes: 6, added: 2, changed: 0, removed: 0, tree_hash: expect.any(String) },
          { version: 2, conversation_id: cont, created_at: t(6).toISOString(), source: { kind: 'continue', idea: 'add a sea' }, file_count: 3, total_bytes: 10, added: 1, changed: 1, removed: 0, tree_hash: expect.any(String) },
          { version: 3, conversation_id: repair, created_at: t(11).toISOString(), source: { kind: 'repair' }, file_count: 2, total_bytes: 6, added: 0, changed: 0, removed: 1, tree_hash: expect.any(String) },
        ]);
        // The same tree hash the server computes when it stores a version.
        expect(rows[2]!.tree_hash).toBe(treeHash(new Map([['a.txt', contentHash('one')], ['c.txt', contentHash('sea')]])));
        // Each content once per project: one, bee, bee2, sea; the other project has its own "one".
        const blobs = await plainSql(em).execute<Array<{ project_id: string; n: number }>>('select project_id, count(*)::int as n from project_blobs group by project_id');
        expect(Object.fromEntries(blobs.map((b) => [b.project_id, b.n]))).toEqual({ [project]: 4, [other]: 1 });
        const changes = await plainSql(em).execute<Array<{ n: number }>>('select count(*)::int as n from project_version_changes where project_id = ?', [project]);
        expect(changes[0]!.n).toBe(2 + 2 + 1);
        const columns = await plainSql(em).execute<Array<{ column_name: string }>>(
          "select column_name from information_schema.columns where table_name = 'project_versions' and column_name = 'fs_index'",
        );
        expect(columns).toEqual([]);
        // Version 1 of a project with no earlier versions names no run (none made it here).
        const single = await plainSql(em).execute<Array<{ source: unknown; conversation_id: string | null }>>('select source, conversation_id from project_versions where project_id = ?', [other]);
        expect(single.map((r) => ({ source: parsed(r.source), run: r.conversation_id }))).toEqual([{ source: { kind: 'build' }, run: null }]);
      } finally {
        await db.close();
      }
    } finally {
      if (kind === 'postgres') await adminQuery(`drop database if exists ${name} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
