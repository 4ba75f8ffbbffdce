import { resolve } from 'node:path';
import { format } from 'node:util';
import { AppError } from '@wolfpack/core';
import type { StartServerOptions } from '@wolfpack/server';
import { spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

export interface ServeOptions {
  /** @default PORT, else 3000 */
  port?: number | undefined;
  /** Only this machine by default; `0.0.0.0` exposes the server to the network. @default '127.0.0.1' */
  host?: string | undefined;
  /** Where the embedded database and files live. @default WOLFPACK_DATA_DIR, else './data' */
  dataDir?: string | undefined;
  /** Stops the server when aborted; by default SIGINT or SIGTERM do. */
  signal?: AbortSignal | undefined;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_HOST = '127.0.0.1';

import { parsePort } from '../command-options.js';

export { parsePort };

/**
 * `wolfpack serve`: runs the Wolfpack server in the foreground until Ctrl+C or SIGTERM, then
 * closes it cleanly (open requests finish, the database is closed) and exits 0.
 */
export async function serve(options: ServeOptions, context: CommandContext): Promise<void> {
  const { env, cwd } = context.io;
  const port = options.port ?? portFromEnv(env['PORT']);
  const host = options.host ?? DEFAULT_HOST;
  const dataDir = resolve(cwd, options.dataDir ?? (env['WOLFPACK_DATA_DIR'] || './data'));

  // Listen for Ctrl+C before anything slow: loading the server takes seconds, and a signal that
  // arrives then must still end in a clean close once the server is up.
  const stopped = shutdownSignal(options.signal);
  const logger = stderrLogger(context.io.stderr);
  let running;
  try {
    running = await withSpinner(
      'Starting Wolfpack',
      async () => {
        // Loaded here, not at the top: the other commands should not pay for the server and database.
        const { startServer } = await loadServer();
        return startServer({ port, host, dataDir, logger, env, closing: stopped.signal });
      },
      spinnerOptions(context),
    );
  } catch (error) {
    logger.release(false);
    stopped.dispose();
    throw listenError(error, host, port);
  }
  logger.release(true);

  context.output.result(`Wolfpack is running at ${running.url}`, { url: running.url, dataDir });
  await stopped.promise;
  await running.close();
}

/** What `wolfpack serve` says when run from the npm package, which carries the client commands alone. */
export const SERVE_NEEDS_FULL_INSTALL =
  '`wolfpack serve` needs the full Wolfpack install (a clone of the repository, started with `npm start`): the npm package of the CLI holds the client commands only.';

/** The server, which the CLI's npm package (pnpm pack:cli) leaves out. */
async function loadServer(): Promise<typeof import('@wolfpack/server')> {
  try {
    return await import('@wolfpack/server');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes("'@wolfpack/server'");
    if (missing) throw new AppError('SERVICE_UNAVAILABLE', SERVE_NEEDS_FULL_INSTALL, undefined, { cause: error });
    throw error;
  }
}

type ServerLogger = NonNullable<StartServerOptions['logger']>;

/**
 * The server's log lines go to stderr, so stdout carries only the result (and stays one JSON
 * object under --json). Lines logged while the spinner runs wait until it is gone; if start-up
 * fails, its info lines are dropped, so the one-line error is what the person reads.
 */
function stderrLogger(stderr: NodeJS.WritableStream): ServerLogger & { release(started: boolean): void } {
  let held: Array<{ level: string; line: string }> | undefined = [];
  const write = (level: string, message: string, error?: unknown) => {
    const line = `${format(`${new Date().toISOString()} ${level} ${message}`, ...(error === undefined ? [] : [error]))}\n`;
    if (held) held.push({ level, line });
    else stderr.write(line);
  };
  return {
    info: (message) => write('info', message),
    warn: (message, error) => write('warn', message, error),
    error: (message, error) => write('error', message, error),
    release(started) {
      const lines = held ?? [];
      held = undefined;
      for (const { level, line } of lines) if (started || level !== 'info') stderr.write(line);
    },
  };
}

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = parsePort(value);
  if (port === undefined) throw new UsageError(`PORT=${value} is not a port number. Use a whole number from 0 to 65535.`);
  return port;
}

/**
 * Resolves on the first SIGINT/SIGTERM (or abort), and aborts `signal` then (a server still
 * starting takes no run over); a second Ctrl+C then kills the process as usual.
 */
function shutdownSignal(signal: AbortSignal | undefined): { promise: Promise<void>; signal: AbortSignal; dispose(): void } {
  const stopping = new AbortController();
  const promise = new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve(), { once: true }));
  const stop = () => {
    dispose();
    stopping.abort();
  };
  const dispose = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    signal?.removeEventListener('abort', stop);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  return { promise, signal: stopping.signal, dispose };
}

function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new AppError('CONFLICT', `Port ${port} on ${host} is already in use. Stop the other program or pick another port with --port.`, undefined, {
      cause: error,
    });
  }
  if (code === 'EACCES') {
    return new AppError('FORBIDDEN', `Not allowed to listen on ${host}:${port}. Pick a port above 1023 with --port.`, undefined, { cause: error });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new AppError('BAD_REQUEST', `Cannot listen on ${host}: this machine has no such address. Use --host 127.0.0.1 or --host 0.0.0.0.`, undefined, {
      cause: error,
    });
  }
  // The server's own start-up errors (bad configuration, a port in use) are sentences already.
  if (error instanceof Error && !(error instanceof AppError)) {
    return new AppError('INTERNAL', `The server could not start: ${error.message}`, undefined, { cause: error });
  }
  return error;
}
