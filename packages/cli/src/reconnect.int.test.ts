/**
 * A server that dies mid-run (SIGKILL, as in a crash) and comes back on the same port and data
 * dir: `wolfpack build --json` reconnects on its own, finds the run interrupted, resumes it, and
 * completes with event numbers that continue without gaps or repeats.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, loginCli, startServeChild, type ServeChild } from './testing/cli-harness.js';

let dataDir: string;
let home: string;
let server: ServeChild | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-reconnect-'));
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-reconnect-home-'));
});

afterAll(async () => {
  // Even when a test timed out, no server may outlive the run.
  await server?.kill();
  await rm(dataDir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

it('reconnects after the server is killed mid-run, resumes the run, and completes', async () => {
  // Every engine call takes a second, so the run is still going when the server dies.
  const slow = { WOLFPACK_DEMO_DELAY_MS: '1000' };
  server = await startServeChild({ dataDir, env: slow });
  const { url, port } = server;
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, WOLFPACK_CONFIG: join(home, 'config.json'), WOLFPACK_URL: url };
  await loginCli(url, 'survivor', 'correct-horse-battery', env);

  const cli = spawn(process.execPath, [BIN, 'build', 'a chess clock', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
  let stdout = '';
  let stderr = '';
  cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = once(cli, 'close') as Promise<[number | null]>;
  await new Promise<void>((resolve, reject) => {
    cli.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"role":"Building"')) resolve();
    });
    void closed.then(() => reject(new Error(`build ended before Building started:\n${stdout}${stderr}`)));
  });

  await server.kill();
  // Back on the same port and data dir; a run whose server went quiet for a second is interrupted.
  server = await startServeChild({ dataDir, port, env: { ...slow, WOLFPACK_RUN_STALE_SECONDS: '1' } });

  const [code] = await closed;
  expect(code, stderr).toBe(0);
  const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { eventId: number; type: string; message?: string });
  expect(lines.map((line) => line.eventId)).toEqual(lines.map((_, i) => i + 1));
  expect(lines[0]?.type).toBe('run');
  expect(lines.at(-1)?.type).toBe('complete');
  expect(lines.some((line) => line.type === 'log' && line.message?.startsWith('Resumed after an interruption'))).toBe(true);
  expect(stderr).toMatch(/Reconnecting… \(attempt 1 of \d+\)/);
  expect(stderr).toContain('The run was interrupted on the server; resuming it from its last finished stage.');
}, 120_000);
