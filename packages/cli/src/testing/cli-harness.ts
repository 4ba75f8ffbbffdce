/**
 * Helpers for the CLI's integration tests: a real Wolfpack server in-process, and the built
 * `wolfpack` binary run as a child process exactly as a person or a script would run it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { commandWorks, needTool } from '@wolfpack/core/testing';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { ScryptCost } from '@wolfpack/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data dir with a migrated PGlite database (vitest.global-setup.ts); test servers start from a copy. */
    pgliteTemplateDir: string;
  }
}

/** The built binary; vitest.global-setup.ts builds it before any test runs. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The server's environment, such as WOLFPACK_DEMO_DELAY_MS; nothing from the machine's. */
  env?: Record<string, string>;
}

/** A fresh server on a free port with its own PGlite data dir (creating it takes a few seconds). */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-server-'));
  // An empty env: the server must not pick up DATABASE_URL or PORT from the machine running tests.
  // Imported on demand so unit tests that only want a free port do not load the server.
  const { startServer } = await import('@wolfpack/server');
  // Generated code runs in the sandbox only where a test asks for it (WOLFPACK_SANDBOX: 'on').
  const server = await startServer({ ...(await testServerBasics(dataDir)), port: 0, host: '127.0.0.1', quiet: true, webDir: false, env: { WOLFPACK_SANDBOX: 'off', ...options.env } });
  return {
    url: server.url,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What every in-process test server shares: a data dir holding a copy of the suite's migrated
 * database (instead of a new PGlite cluster: ~3 s and ~1 GB each) and the tests' password cost.
 */
export async function testServerBasics(dataDir: string): Promise<{ dataDir: string; passwordCost: ScryptCost }> {
  const { copyPgliteTemplate, TEST_PASSWORD_COST } = await import('@wolfpack/server/testing');
  await copyPgliteTemplate(inject('pgliteTemplateDir'), dataDir);
  return { dataDir, passwordCost: TEST_PASSWORD_COST };
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

/** Registers `username` and logs the CLI in to `server` with the given config file, as a script would. */
export async function loginCli(server: string, username: string, password: string, env: Record<string, string>): Promise<void> {
  await registerUser(server, username, password);
  const result = await runCli(['login', '--server', server, '--username', username, '--password-stdin'], { input: `${password}\n`, env });
  if (result.code !== 0) throw new Error(`wolfpack login: ${result.code} ${result.stderr}`);
}

/** A user's own HOME and CLI config, logged in to a server: what most CLI tests start from. */
export interface SignedInHome {
  home: string;
  configFile: string;
  /** HOME, WOLFPACK_CONFIG and WOLFPACK_URL for the CLI. */
  env: Record<string, string>;
  /** Runs the built CLI as this user against the server. */
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  dispose(): Promise<void>;
}

/** Registers `username` on `server`, logs the CLI in from a new HOME, and returns that HOME. */
export async function signedInHome(server: string, username: string, password = 'correct-horse-battery'): Promise<SignedInHome> {
  const home = await mkdtemp(join(tmpdir(), `wolfpack-cli-${username}-`));
  const configFile = join(home, 'config.json');
  await loginCli(server, username, password, { HOME: home, WOLFPACK_CONFIG: configFile });
  const env = { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server };
  return {
    home,
    configFile,
    env,
    run: (args, options = {}) => runCli(args, { ...options, env: { ...env, ...options.env } }),
    dispose: () => rm(home, { recursive: true, force: true }),
  };
}

/** The stored API token for `server` from a CLI config file. */
export async function storedToken(configFile: string, server: string): Promise<string> {
  const config = JSON.parse(await readFile(configFile, 'utf8')) as { logins: Array<{ server: string; token: string }> };
  const login = config.logins.find((entry) => entry.server === server);
  if (!login) throw new Error(`no login stored for ${server}`);
  return login.token;
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
  /** The CLI's working directory. @default the test's */
  cwd?: string;
  /** Kill the CLI after this long. @default 30_000 */
  timeoutMs?: number;
}

/**
 * Runs `node dist/bin.js ...args` with a clean environment (PATH and whatever `env` adds), so
 * neither the developer's config file nor their WOLFPACK_URL leaks into a test.
 */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const result = await runCliBytes(args, options);
  return { ...result, stdout: result.stdout.toString('utf8') };
}

/** {@link runCli} with stdout as bytes, for commands that write a file there (`export -o -`). */
export function runCliBytes(args: string[], options: RunOptions = {}): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...options.env },
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      // A hung CLI fails its test instead of outliving the test run.
      timeout: options.timeoutMs ?? 30_000,
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
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

export interface ServeChild {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL, like a crash or a pulled plug: the server gets no chance to tidy up. */
  kill(): Promise<void>;
}

/**
 * `wolfpack serve` from the built binary as a child process this test owns, so it can be killed
 * mid-run and started again on the same port and data dir. Resolves once it accepts requests.
 */
export async function startServeChild(options: { dataDir: string; port?: number; env?: Record<string, string> }): Promise<ServeChild> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(options.port ?? 0), '--data-dir', options.dataDir], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /Wolfpack is running at (http:\/\/[^\s]+)\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`wolfpack serve exited early:\n${output}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Every stdout line as JSON (stdout must end with a newline). */
export function parseJsonLines<T = Record<string, unknown>>(stdout: string): T[] {
  if (!stdout.endsWith('\n')) throw new Error(`stdout does not end with a newline: ${JSON.stringify(stdout.slice(-200))}`);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as T);
}

/** A GET with the CLI's stored token, as the CLI would send it; the parsed JSON reply. */
export async function apiGet(server: string, token: string, path: string): Promise<unknown> {
  const response = await fetch(`${server}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const tmuxInstalled = commandWorks('tmux', ['-V']);
/**
 * Whether the terminal tests can run: without tmux they are skipped with the reason printed, or
 * fail the run under `npm test` (WOLFPACK_TEST_REQUIRE_TOOLS=1), which installs it.
 */
export function hasTmux(): boolean {
  return needTool({ tool: 'tmux', available: tmuxInstalled }, 'the CLI tests in a terminal (tmux)');
}

/** A tmux server of its own (its own socket) for one test file, and what its panes show. */
export function tmuxServer(name: string) {
  const socket = `${name}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  /** The whole pane, scrollback included. */
  const screen = (session: string) => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', session);
  return {
    tmux,
    screen,
    /** Runs `command` in a new detached session of the given size. */
    start(session: string, command: string, size = { width: 120, height: 40 }) {
      tmux('new-session', '-d', '-x', String(size.width), '-y', String(size.height), '-s', session, command);
    },
    async waitFor(session: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = screen(session);
        if (pattern.test(shown)) return shown;
        if (Date.now() > deadline) throw new Error(`${pattern} did not appear on screen. The screen was:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
