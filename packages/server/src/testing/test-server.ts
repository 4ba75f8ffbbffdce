import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../index.js';
import { adminQuery, copyPgliteTemplate, POSTGRES_ADMIN_URL, withDatabase } from './database-template.js';
import { ReusableDatabases, type Lease } from './reusable-databases.js';
import { TEST_PASSWORD_COST } from './password-cost.js';

export { adminQuery } from './database-template.js';
export { TEST_PASSWORD_COST } from './password-cost.js';

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases this run covers: PGlite always, PostgreSQL when global setup reached it. */
export function testDatabases(): DatabaseKind[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * One database, for tests of what the database does not decide (the sandbox's turns between
 * users, which are counted in memory; a preview's server process): PostgreSQL when this run reached
 * it, else PGlite. What those servers store is covered on both by the tests of that storage.
 */
export function oneTestDatabase(): DatabaseKind[] {
  return testDatabases().slice(-1);
}

export interface TestServer extends RunningServer {
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Stops the server and lets its database go, as a real server's stop does: its data dir or
   * PostgreSQL database can then be opened elsewhere (another process, a restart).
   */
  close(): Promise<void>;
  /** Stops the server (when it still runs) and gives its database back for the next test. */
  dispose(): Promise<void>;
}

// One database of each kind per test file's process, handed from test to test and emptied in
// between: opening a PGlite copy costs ~0.2-1 s and creating a PostgreSQL database from the
// template ~0.1-0.45 s, against ~10-30 ms for emptying every table (see reusable-databases.ts).
const reusable = new ReusableDatabases({
  pgliteTemplateDir: () => inject('pgliteTemplateDir'),
  postgresTemplate: () => inject('postgresTemplate'),
});

/**
 * A real server on a free port with an empty database of its own: the file's reusable one when
 * no other server of the test holds it, else a fresh copy of the migrated template.
 * `options.reuse` starts a server on an existing one instead (a restart, a second replica).
 */
export async function startTestServer(
  kind: DatabaseKind,
  options: StartServerOptions & { reuse?: { dataDir: string; databaseUrl: string | undefined } } = {},
): Promise<TestServer> {
  const { reuse, ...serverOptions } = options;
  let lease: Lease | undefined;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropOwn: (() => Promise<void>) | undefined;
  if (reuse) {
    ({ dataDir, databaseUrl } = reuse);
    // A restart reads what the last server left on disk, never a connection it still holds.
    await reusable.releaseFilesOf(dataDir);
  } else {
    lease = await reusable.acquire(kind);
    if (lease) {
      ({ dataDir, databaseUrl } = lease);
    } else {
      ({ dataDir, databaseUrl, drop: dropOwn } = await freshDatabase(kind));
    }
  }
  const server = await startServer({
    port: 0,
    quiet: true,
    webDir: false,
    passwordCost: TEST_PASSWORD_COST,
    ...serverOptions,
    // Generated code runs in the sandbox only in the tests about it (a page check takes seconds).
    // Every test signs its users up from 127.0.0.1, and some race many builds of one user (the
    // ledger's guards): the per-address and per-user bounds only where they are the subject.
    env: { WOLFPACK_SANDBOX: 'off', WOLFPACK_SIGNUPS_PER_HOUR: '100000', WOLFPACK_CONCURRENT_RUNS_PER_USER: '1000', ...serverOptions.env },
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(lease?.database ? { database: lease.database } : {}),
  });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      await server.close();
      // Like a real stop, the database is let go: its files or connections are free for others.
      if (lease) await reusable.closeFiles(lease);
    })();
    return closed;
  };
  let disposed: Promise<void> | undefined;
  return {
    ...server,
    dataDir,
    databaseUrl,
    close,
    dispose: () => {
      disposed ??= (async () => {
        if (lease) {
          // Not closed by the test: the open database goes straight to the next test.
          if (!closed) await server.close();
          reusable.release(lease);
        } else {
          await close();
          if (!reuse) {
            await dropOwn?.();
            await rm(dataDir, { recursive: true, force: true });
          }
        }
      })();
      return disposed;
    },
  };
}

/** A database nobody else uses, thrown away on dispose: for a test that runs several servers at once. */
async function freshDatabase(kind: DatabaseKind): Promise<{ dataDir: string; databaseUrl: string | undefined; drop?: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-test-'));
  if (kind === 'pglite') {
    await copyPgliteTemplate(inject('pgliteTemplateDir'), dataDir);
    return { dataDir, databaseUrl: undefined };
  }
  const template = inject('postgresTemplate');
  if (!template) throw new Error('PostgreSQL is not available for this run');
  const name = `${template}_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database "${name}" template "${template}"`);
  return { dataDir, databaseUrl: withDatabase(POSTGRES_ADMIN_URL, name), drop: () => adminQuery(`drop database if exists "${name}" with (force)`) };
}
