import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsList } from '../migrations/index.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../testing/database-template.js';
import { adminQuery as admin, testDatabases } from '../testing/test-server.js';
import { openDatabase } from './orm.js';


describe.runIf(testDatabases().includes('postgres'))('migrations on PostgreSQL', () => {
  it('replicas starting together on an empty database all start: one migrates, the others wait', async () => {
    const name = `wolfpack_migrate_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-migrate-'));
    try {
      const databaseUrl = withDatabase(POSTGRES_ADMIN_URL, name);
      const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ databaseUrl, dataDir })));
      const failures = opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
      expect(failures).toEqual([]);
      const db = await openDatabase({ databaseUrl, dataDir });
      const rows = await db.orm.em.getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from mikro_orm_migrations');
      await db.close();
      expect(rows[0]!.n).toBe(migrationsList.length);
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
