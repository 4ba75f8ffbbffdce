import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../index.js';
import { adminQuery, copyPgliteTemplate, POSTGRES_ADMIN_URL, withDatabase } from './database-template.js';

export { adminQuery } from './database-template.js';
export { TEST_PASSWORD_COST } from './password-cost.js';
import { TEST_PASSWORD_COST } from './password-cost.js';

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases this run covers: PGlite always, PostgreSQL when global setup reached it. */
export function testDatabases(): DatabaseKind[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestServer extends RunningServer {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Stops the server and throws its database away. */
  dispose(): Promise<void>;
}

/**
 * A real server on a free port with a database of its own, copied from the migrated template.
 * `options.dataDir`/`databaseUrl` reuse an existing one (to test a restart).
 */
export async function startTestServer(
  kind: DatabaseKind,
  options: StartServerOptions & { reuse?: { dataDir: string; databaseUrl: string | undefined } } = {},
): Promise<TestServer> {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (options.reuse) {
    ({ dataDir, databaseUrl } = options.reuse);
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-test-'));
    if (kind === 'pglite') {
      await copyPgliteTemplate(inject('pgliteTemplateDir'), dataDir);
    } else {
      const template = inject('postgresTemplate');
      if (!template) throw new Error('PostgreSQL is not available for this run');
      const name = `wolfpack_t_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database "${name}" template "${template}"`);
      databaseUrl = withDatabase(POSTGRES_ADMIN_URL, name);
      dropDatabase = () => adminQuery(`drop database if exists "${name}" with (force)`);
    }
  }
  const { reuse: _reuse, ...serverOptions } = options;
  const server = await startServer({
    port: 0,
    quiet: true,
    webDir: false,
    passwordCost: TEST_PASSWORD_COST,
    ...serverOptions,
    // Generated code runs in the sandbox only in the tests about it (a page check takes seconds).
    env: { WOLFPACK_SANDBOX: 'off', ...serverOptions.env },
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  return {
    ...server,
    dataDir,
    databaseUrl,
    dispose: async () => {
      await server.close();
      if (!options.reuse) {
        await dropDatabase?.();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
