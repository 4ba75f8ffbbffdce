/** `wolfpack serve` from the built binary: starts, answers, and stops cleanly on Ctrl+C. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, runCli } from './testing/cli-harness.js';

/** Proven Code has all it needs on this machine: a start-up then says nothing about it. */
const provenHere = (await sandboxCheck()).available && existsSync('/usr/bin/chromium');

/** The start-up log's lines about Proven Code, without their time stamps. */
const proofLines = (stderr: string) => stderr.split('\n').filter((line) => line.includes('Proven Code')).map((line) => line.replace(/^\S+ /, ''));

let dataDir: string;
let child: ChildProcess | undefined;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-serve-'));
});
afterAll(async () => {
  // Even when a test timed out waiting for it, the server must not outlive the run.
  child?.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** `wolfpack serve ARGS` from the built binary, with what it prints collected as it comes. */
function spawnServe(args: string[], env: Record<string, string> = {}) {
  const server = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  const out = { stdout: '', stderr: '' };
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves once stdout matches `pattern` (its match); rejects if the server exits first. */
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out.stdout);
        if (match) resolve(match);
      };
      server.stdout.on('data', check);
      check();
      void exited.then(() => reject(new Error(`serve exited early:\n${out.stdout}${out.stderr}`)));
    });
  return { server, out, exited, printed };
}

it('prints where it runs, serves the API, and exits 0 on SIGINT', async () => {
  const { server, out, exited, printed } = spawnServe(['--port', '0', '--data-dir', dataDir]);
  try {
    const url = (await printed(/^Wolfpack is running at (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);

    server.kill('SIGINT');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe(`Wolfpack is running at ${url}\n`);
    if (provenHere) expect(proofLines(out.stderr)).toEqual([]);
    expect(await readdir(dataDir)).not.toEqual([]);
    // Closed, not just abandoned: nothing answers any more.
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  } finally {
    server.kill('SIGKILL');
  }
  // A first start makes a new embedded database and probes the sandbox: seconds on a quiet
  // machine, over a minute while the other suites prove projects beside it on two cores.
}, 180_000);

it('says in one start-up line, on stderr, that Proven Code cannot run generated code, and the fix', async () => {
  const { server, out, exited, printed } = spawnServe(['--port', '0', '--data-dir', dataDir], { WOLFPACK_SANDBOX: 'off' });
  try {
    await printed(/^Wolfpack is running at http:\/\/127\.0\.0\.1:\d+\n/);
    // Logged before the server listens, so it is on stderr by the time the URL is printed.
    const lines = proofLines(out.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warn Proven Code cannot run generated code on this server \(the sandbox is turned off with WOLFPACK_SANDBOX=off(; Chromium is not installed)?\), so verdicts are "not proven"\. Fix: (sudo apt-get install chromium, then )?restart the server without WOLFPACK_SANDBOX=off$/,
    );
    server.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
    expect(out.stdout).toMatch(/^Wolfpack is running at http:\/\/127\.0\.0\.1:\d+\n$/);
  } finally {
    server.kill('SIGKILL');
  }
}, 180_000);

it('says so in one line when the port is taken', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as { port: number };
  try {
    // The port is found taken at listen, after the database and the sandbox probe (see above).
    const result = await runCli(['serve', '--port', String(port), '--data-dir', dataDir], { env: { HOME: dataDir }, timeoutMs: 150_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^wolfpack: [^\\n]*Port ${port} on 127\\.0\\.0\\.1 is already in use[^\\n]*\\n$`));
  } finally {
    blocker.close();
  }
}, 180_000);

it('refuses a wrong setting before it opens anything, naming each variable and what it takes, in one line', async () => {
  const env = { HOME: dataDir, WOLFPACK_SANDBOX: 'disabled', WOLFPACK_PROOF_MEMORY_BYTES: '512M', WOLFPACK_SECRET_KEY: 'a-secret-too-short' };
  const result = await runCli(['serve', '--port', '0', '--data-dir', join(dataDir, 'never-made')], { env });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    'wolfpack: The server could not start: Invalid configuration: WOLFPACK_SANDBOX: WOLFPACK_SANDBOX must be on, or off to run no generated code; ' +
      'WOLFPACK_SECRET_KEY: WOLFPACK_SECRET_KEY must be at least 32 characters; WOLFPACK_PROOF_MEMORY_BYTES: WOLFPACK_PROOF_MEMORY_BYTES must be a whole number of at least 1\n',
  );
  // Stopped at the configuration: no database was made, and the secret's value is nowhere.
  expect(existsSync(join(dataDir, 'never-made'))).toBe(false);
}, 60_000);
