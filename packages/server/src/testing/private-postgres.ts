import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const BIN = process.env.WOLFPACK_TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL server of a test's own, to stop and start again under a running Wolfpack server. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/wolfpack` (trust auth). */
  url: string;
  start(): Promise<void>;
  /** Stops at once (`-m fast`: open connections are cut, as when the database host goes down). */
  stop(): Promise<void>;
  /** Stops and deletes its files. */
  dispose(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a PostgreSQL binary as the `postgres` user when this process is root (initdb and postgres refuse root). */
function asPostgres(binary: string, args: string[]) {
  const command = join(BIN, binary);
  return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

/**
 * Makes a fresh cluster in a temp folder (owned by `postgres`) on a free port, starts it and
 * creates the database `wolfpack`. Needs PostgreSQL's server binaries (`WOLFPACK_TEST_POSTGRES_BIN`).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'wolfpack-private-pg-'));
  await chmod(dir, 0o755);
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => void (await asPostgres('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'log'), '-o', options]));
  const stop = async () => void (await asPostgres('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]));
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database wolfpack').finally(() => admin.end());
  return {
    url: `postgres://postgres@127.0.0.1:${port}/wolfpack`,
    start,
    stop,
    async dispose() {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
