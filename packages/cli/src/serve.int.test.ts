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

/** The start-up log's lines about Proven Code (issue 28), without their time stamps. */
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

it('prints where it runs, serves the API, and exits 0 on SIGINT', async () => {
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let stdout = '';
  let stderr = '';
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^Wolfpack is running at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then(() => reject(new Error(`serve exited early:\n${stdout}${stderr}`)));
    });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);

    server.kill('SIGINT');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stdout).toBe(`Wolfpack is running at ${url}\n`);
    if (provenHere) expect(proofLines(stderr)).toEqual([]);
    expect(await readdir(dataDir)).not.toEqual([]);
    // Closed, not just abandoned: nothing answers any more.
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  } finally {
    server.kill('SIGKILL');
  }
}, 60_000);

it('says in one start-up line, on stderr, that Proven Code cannot run generated code, and the fix', async () => {
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dataDir, WOLFPACK_SANDBOX: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let stdout = '';
  let stderr = '';
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (/^Wolfpack is running at http:\/\/127\.0\.0\.1:\d+\n/.test(stdout)) resolve();
      });
      void exited.then(() => reject(new Error(`serve exited early:\n${stdout}${stderr}`)));
    });
    // Logged before the server listens, so it is on stderr by the time the URL is printed.
    const lines = proofLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warn Proven Code cannot run generated code on this server \(the sandbox is turned off with WOLFPACK_SANDBOX=off(; Chromium is not installed)?\), so verdicts are "not proven"\. Fix: (sudo apt-get install chromium, then )?restart the server without WOLFPACK_SANDBOX=off$/,
    );
    server.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
    expect(stdout).toMatch(/^Wolfpack is running at http:\/\/127\.0\.0\.1:\d+\n$/);
  } finally {
    server.kill('SIGKILL');
  }
}, 60_000);

it('says so in one line when the port is taken', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as { port: number };
  try {
    const result = await runCli(['serve', '--port', String(port), '--data-dir', dataDir], { env: { HOME: dataDir } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^wolfpack: [^\\n]*Port ${port} on 127\\.0\\.0\\.1 is already in use[^\\n]*\\n$`));
  } finally {
    blocker.close();
  }
}, 60_000);
