/**
 * A generated HTTP server, run for its preview: dependencies installed as Proven Code installs them
 * (outside the sandbox, scripts off), then the server started in the sandbox with the relay of
 * preview-relay.ts beside it, reachable from the host through one Unix socket.
 *
 * The socket is made by the host, in a private folder (0700) the sandbox never sees, and passed in
 * as an open descriptor. So the sandbox gets no host path at all, writable or not: with a host
 * folder bound in for the relay to make its socket in, the app (the same user as the relay in
 * there) could fill the host's disk through it, or swap the socket for a link to another socket
 * of the host (a container runtime's, say), which the server would then follow and talk to.
 *
 * The server runs with an empty environment but PORT, HOST and NODE_ENV, the sandbox's limits,
 * and a wall time that is its longest life ({@link PREVIEW_SERVER_LIFETIME_MS}): the caller stops
 * it long before when it is idle.
 */
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installDependencies, installOptionsFrom, type InstallOptions } from './node-deps.js';
import { errorLine, limitSentence, problemFromRun, seconds } from './output.js';
import { RELAY_DIR, RELAY_MARK, relayBind } from './preview-relay.js';
import { copyableFiles, withProjectCopy } from './project-copy.js';
import type { ExecProblem } from './report.js';
import { findSandbox, type Sandbox, type SandboxResult } from './sandbox.js';
import { positiveIntFromEnv, type ProofEnv, type StopReason } from './sandbox-limits.js';
import type { ServerPlan } from './server-plan.js';
import { supportBind, TYPESCRIPT_NODE_OPTIONS } from './support-files.js';

/**
 * The longest a preview server runs at a stretch: its sandbox's wall time. One in use then stops
 * like an idle one, and the next request starts it again.
 */
export const PREVIEW_SERVER_LIFETIME_MS = 60 * 60_000;
/** CPU seconds per process (the sandbox's RLIMIT_CPU): a server answering requests for an hour uses far less; a busy loop is stopped. */
export const PREVIEW_SERVER_CPU_SECONDS = 300;
const PORTS = { node: 3000, python: 8000 } as const;

/**
 * A previewed server's CPU budget: an app that answers requests idles; one that keeps a core busy
 * (a loop, a bomb of timers) is stopped long before its lifetime's end.
 */
export function previewCpuBudget(env: ProofEnv): { percent: number; windowMs: number } {
  return { percent: positiveIntFromEnv(env, 'WOLFPACK_PREVIEW_CPU_PERCENT') ?? 50, windowMs: (positiveIntFromEnv(env, 'WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS') ?? 60) * 1000 };
}

export type PreviewServerStep = 'installing' | 'starting';

export interface PreviewServerOptions {
  sandbox?: Sandbox;
  /** Proven Code's settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_* limits, WOLFPACK_PREVIEW_*), as the server read them at start. @default {} (every default) */
  env?: ProofEnv;
  install?: InstallOptions;
  /** How long the server has to listen once started (a build it runs first included). @default 30 s (WOLFPACK_PREVIEW_START_MS) */
  startMs?: number;
  /** @default {@link PREVIEW_SERVER_LIFETIME_MS} */
  lifetimeMs?: number;
  /**
   * The server is stopped once its whole sandbox used more than `percent` of a core over `windowMs`
   * (counted from when it listens).
   * @default 50 % over 60 s (WOLFPACK_PREVIEW_CPU_PERCENT, WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS)
   */
  cpuBudget?: { percent: number; windowMs: number };
  /** Where the socket's private folder is made (a Unix socket path has at most 107 bytes). @default os.tmpdir() */
  socketParent?: string;
  onStep?: (step: PreviewServerStep) => void;
  /** The app's output as it arrives (relay marker lines included), for callers that tie it to requests. */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Stops the start (or the server, once started). */
  signal?: AbortSignal;
}

/** Why a started server is gone. */
export type PreviewServerExit =
  /** Stopped by its owner (idle, evicted, shut down). */
  | { reason: 'stopped' }
  /** It ran for its whole lifetime. */
  | { reason: 'lifetime' }
  /** It exited or crashed by itself, or met a limit: the project's fault. */
  | { reason: 'crashed'; problem: ExecProblem; command: string; stopped?: StopReason; usage?: SandboxResult['usage'] };

export interface PreviewServer {
  /** Send HTTP here. */
  socketPath: string;
  /** The port it listens on inside the sandbox. */
  port: number;
  command: string;
  exited: Promise<PreviewServerExit>;
  stop(): Promise<PreviewServerExit>;
}

export type PreviewServerStart =
  | { ok: true; server: PreviewServer }
  /** It crashed or never listened: the project's fault, shown with its problem and Repair again. */
  | { ok: false; problem: ExecProblem; command: string }
  /** It could not be tried here (no sandbox, no Python, a package this server cannot install). */
  | { ok: false; unavailable: string };

/** A listening Unix socket in a private folder of the host, for the sandbox to accept on. */
async function hostSocket(parent: string) {
  const dir = await mkdtemp(join(parent, 'wolfpack-preview-'));
  const listener = createServer();
  const bound = join(dir, 'bind.sock');
  const path = join(dir, 'relay.sock');
  let closed = false;
  const close = () => {
    if (closed) return Promise.resolve();
    closed = true;
    return new Promise<void>((resolve) => listener.close(() => resolve()));
  };
  try {
    await new Promise<void>((resolve, reject) => listener.once('error', reject).listen({ path: bound }, resolve));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // Node has no public way to the descriptor of a listening socket; this handle field has been stable for years.
  const fd = (listener as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) {
    await close();
    await rm(dir, { recursive: true, force: true });
    throw new Error('the preview socket has no file descriptor on this platform');
  }
  return {
    fd,
    path,
    /**
     * Leaves the socket to the sandbox. Closing the host's listener unlinks the path it was bound
     * to, so it is renamed first: the name stays and still reaches the socket, now accepted on
     * only inside.
     */
    async handOff(): Promise<void> {
      if (closed) return;
      await rename(bound, path);
      await close();
    },
    async remove(): Promise<void> {
      await close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Reads the relay's marker lines out of stderr as it arrives. */
class RelayWatch {
  private partial = '';
  private resolveReady!: (port: number) => void;
  readonly ready = new Promise<number>((resolve) => (this.resolveReady = resolve));

  take(chunk: Buffer): void {
    const lines = (this.partial + chunk.toString('utf8')).split('\n');
    // A line never ends: keep only as much of it as a marker could need.
    this.partial = lines.pop()!.slice(-200);
    for (const line of lines) {
      const port = new RegExp(`^${RELAY_MARK} ready (\\d+)$`).exec(line)?.[1];
      if (port !== undefined) this.resolveReady(Number(port));
    }
  }
}

/** The run's output as the app printed it: without the relay's marker lines. */
function appOutput(result: SandboxResult): SandboxResult {
  const clean = (text: string) => text.split('\n').filter((line) => !line.startsWith(RELAY_MARK)).join('\n');
  return { ...result, stdout: clean(result.stdout), stderr: clean(result.stderr) };
}

/** A Python package the server cannot install (no PyPI), when that is why the app stopped. */
function missingPythonPackage(output: string, files: Readonly<Record<string, string>>): string | undefined {
  const name = /ModuleNotFoundError: No module named '([\w.]+)'/.exec(output)?.[1]?.split('.')[0];
  if (name === undefined || files[`${name}.py`] !== undefined || Object.keys(files).some((f) => f.startsWith(`${name}/`))) return undefined;
  return name;
}

/**
 * Starts `plan` in the sandbox and resolves once it listens (`ok: true`), or with why it did not:
 * it stopped first or took longer than its start window (the project's fault), or it could not be
 * tried here. Never throws for anything the project does.
 */
export async function startPreviewServer(allFiles: Readonly<Record<string, string>>, plan: ServerPlan, options: PreviewServerOptions = {}): Promise<PreviewServerStart> {
  const env = options.env ?? {};
  const { files } = copyableFiles(allFiles);
  const found = options.sandbox ? { sandbox: options.sandbox } : await findSandbox({ env });
  if (!('sandbox' in found)) return { ok: false, unavailable: `no sandbox on this server (${found.unavailable}), so generated code is not run` };
  const { sandbox } = found;
  if (plan.runtime === 'python' && sandbox.python === null) return { ok: false, unavailable: 'Python 3 is not installed on this server' };
  let nodeModules: string | undefined;
  if (plan.runtime === 'node' && Object.keys(plan.dependencies).length > 0) {
    options.onStep?.('installing');
    const installed = await installDependencies(plan.dependencies, options.install ?? installOptionsFrom(env));
    if (installed.status === 'failed') {
      return { ok: false, problem: { path: 'package.json', message: installed.message, command: installed.command, ...(installed.output ? { output: installed.output } : {}) }, command: installed.command };
    }
    if (installed.status === 'installed') nodeModules = installed.nodeModules;
  }
  if (options.signal?.aborted) return { ok: false, unavailable: 'the preview was stopped before its server started' };
  options.onStep?.('starting');

  const startMs = options.startMs ?? positiveIntFromEnv(env, 'WOLFPACK_PREVIEW_START_MS') ?? 30_000;
  const port = PORTS[plan.runtime];
  const socket = await hostSocket(options.socketParent ?? tmpdir());
  const stop = new AbortController();
  let why: 'start-window' | 'stopped' | undefined;
  const halt = (reason: 'start-window' | 'stopped') => {
    why ??= reason;
    stop.abort();
  };
  const onAbort = () => halt('stopped');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const watch = new RelayWatch();
  const run = withProjectCopy(files, (dir) =>
    sandbox.run(dir, {
      argv: ['node', `${RELAY_DIR}/relay.mjs`, String(port), plan.command],
      env: { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development', ...(plan.typescript ? { NODE_OPTIONS: TYPESCRIPT_NODE_OPTIONS } : {}) },
      readOnlyBinds: [supportBind(), relayBind()],
      ...(nodeModules !== undefined ? { nodeModules } : {}),
      limits: { wallMs: options.lifetimeMs ?? PREVIEW_SERVER_LIFETIME_MS, cpuSeconds: PREVIEW_SERVER_CPU_SECONDS },
      // From the relay's "ready": the start (a build it runs first included) has its own window.
      cpuBudget: { ...(options.cpuBudget ?? previewCpuBudget(env)), from: `${RELAY_MARK} ready` },
      passFds: [socket.fd],
      onOutput: (chunk, stream) => {
        if (stream === 'stderr') watch.take(chunk);
        options.onOutput?.(chunk, stream);
      },
      signal: stop.signal,
    }),
  ).then(appOutput);
  const ended = run.finally(() => {
    options.signal?.removeEventListener('abort', onAbort);
    return socket.remove();
  });
  // A failure to even copy the project ends the start like a run that could not start.
  const outcome = ended.then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error as Error }),
  );
  const window = setTimeout(() => halt('start-window'), startMs);
  let first = await Promise.race([watch.ready.then((listening) => ({ listening })), outcome]);
  clearTimeout(window);
  // Listening just as its window closed: the stop is already on its way.
  if ('listening' in first && why !== undefined) first = await outcome;

  const paths = new Set(Object.keys(files));
  const problemOf = (result: SandboxResult, message: string) =>
    problemFromRun(result, { files: paths, fallbackPath: plan.entry, order: plan.runtime === 'python' ? 'last' : 'first', message, command: plan.display });

  if ('listening' in first) {
    await socket.handOff();
    const exited = outcome.then((end): PreviewServerExit => {
      // Stopped by its owner, unless it had ended by itself (a crash, a limit) before the stop reached it.
      if (why === 'stopped' && ('error' in end || end.result.stopped === 'aborted')) return { reason: 'stopped' };
      if ('error' in end) return { reason: 'crashed', problem: { path: plan.entry, message: `the server stopped: ${end.error.message}`, command: plan.display }, command: plan.display };
      if (end.result.stopped === 'time') return { reason: 'lifetime' };
      const result = end.result;
      const said = limitSentence(result, 0) ?? (errorLine(`${result.stderr}\n${result.stdout}`) || `it exited with status ${result.exitCode}`);
      return {
        reason: 'crashed',
        problem: problemOf(result, `the server stopped while the preview was open: ${said}`),
        command: plan.display,
        ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
        ...(result.usage !== undefined ? { usage: result.usage } : {}),
      };
    });
    return {
      ok: true,
      server: {
        socketPath: socket.path,
        port: first.listening,
        command: plan.display,
        exited,
        stop: () => {
          halt('stopped');
          return exited;
        },
      },
    };
  }

  if ('error' in first) return { ok: false, unavailable: `the server could not be started here (${first.error.message})` };
  const result = first.result;
  if (result.setupError !== undefined) return { ok: false, unavailable: `the sandbox could not start (${result.setupError}); this is a fault of the server, not of the project` };
  if (why === 'stopped') return { ok: false, unavailable: 'the preview was stopped before its server started' };
  if (why === 'start-window') {
    return { ok: false, problem: problemOf(result, `the server did not listen on a port within ${seconds(startMs)} s of starting`), command: plan.display };
  }
  const output = `${result.stderr}\n${result.stdout}`;
  const missing = plan.runtime === 'python' ? missingPythonPackage(output, files) : undefined;
  if (missing !== undefined) return { ok: false, unavailable: `it needs the Python package ${missing}, which this server cannot install (no access to PyPI)` };
  const said = limitSentence(result, startMs) ?? (errorLine(output) || `it exited with status ${result.exitCode}`);
  return { ok: false, problem: problemOf(result, `the server stopped before it listened on a port: ${said}`), command: plan.display };
}
