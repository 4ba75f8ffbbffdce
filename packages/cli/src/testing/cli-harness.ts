/**
 * Helpers for the CLI's integration tests: a real Wolfpack server in-process, and the built
 * `wolfpack` binary run as a child process exactly as a person or a script would run it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary; vitest.global-setup.ts builds it before any test runs. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** A fresh server on a free port with its own PGlite data dir (creating it takes a few seconds). */
export async function startTestServer(): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-server-'));
  // An empty env: the server must not pick up DATABASE_URL or PORT from the machine running tests.
  // Imported on demand so unit tests that only want a free port do not load the server.
  const { startServer } = await import('@wolfpack/server');
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, quiet: true, webDir: false, env: {} });
  return {
    url: server.url,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account the way the web sign-up page does. */
export async function registerUser(server: string, username: string, password: string): Promise<void> {
  const response = await fetch(`${server}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`register ${username}: ${response.status} ${await response.text()}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to stdin, which is then closed; without it stdin is empty. */
  input?: string;
  env?: Record<string, string>;
}

/**
 * Runs `node dist/bin.js ...args` with a clean environment (PATH and whatever `env` adds), so
 * neither the developer's config file nor their WOLFPACK_URL leaks into a test.
 */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // A hung CLI fails its test instead of outliving the test run.
      timeout: 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A port on which nothing listens (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
