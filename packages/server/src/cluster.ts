/**
 * Several server processes on one port (node:cluster), so a busy server uses every core: the
 * primary forks the workers and hands each new connection to the next one in turn; each worker
 * is a whole server (startServer) with its own event loop, database pool and instance id. Runs,
 * their event streams and leases already work across processes on one PostgreSQL (see
 * docs/RELIABILITY.md): a run belongs to the worker that started it, a follower on another
 * worker hears of its events by NOTIFY, and when a worker dies another takes its runs over once
 * their lease expires while the primary starts a replacement. PGlite is opened by one process
 * only, so it always runs one.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger.js';

/**
 * How many server processes to run: the setting, else one. Several are opt-in: on two cores shared
 * with PostgreSQL they measured no faster than one and cost about 550 MB more (docs/PERFORMANCE.md),
 * and what a process keeps in memory (preview servers, the sign-up throttle, the per-user run
 * limit) is counted per process.
 */
export function workerCount(setting: number | undefined, postgres: boolean): number {
  if (setting !== undefined) {
    if (setting > 1 && !postgres) {
      throw new Error(
        `${setting} server processes (WOLFPACK_WORKERS or --workers) need PostgreSQL: the embedded database (PGlite) is opened by one process only. Set DATABASE_URL, or run 1.`,
      );
    }
    return setting;
  }
  return 1;
}

/** True in a process the primary forked: it runs one server and answers to the primary. */
export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** Messages between the primary and its workers (the `wolfpack` key keeps them apart from Node's own). */
export type FromWorker = { wolfpack: 'listening'; url: string; port: number; instanceId: string } | { wolfpack: 'failed'; message: string; code?: string };
export type ToWorker = { wolfpack: 'close' };

export interface WorkerServer {
  url: string;
  port: number;
  instanceId: string;
  close(): Promise<void>;
}

/**
 * The worker's part: starts its server, tells the primary where it listens, and closes it when
 * the primary says so (the primary's SIGINT or SIGTERM), on its own SIGTERM, or when the primary
 * is gone. SIGINT (Ctrl+C reaches every process of the terminal) is left to the primary. Resolves
 * once the server is closed; the process then exits.
 */
export async function runClusterWorker(start: (closing: AbortSignal) => Promise<WorkerServer>, channel: WorkerChannel = process): Promise<void> {
  // Ctrl+C in a terminal reaches the workers too: the primary decides, and tells them.
  channel.on('SIGINT', () => {});
  // Listened to before the server starts: a primary that closes while this worker is still
  // starting (a replacement, slow on a loaded machine) says so once, and a worker that missed it
  // would run on, take runs over and hold their leases, until the primary's SIGKILL.
  // `start` hears it too: a worker killed at the close timeout, still starting, must hold no run.
  const askedToClose = new AbortController();
  let close = () => askedToClose.abort();
  channel.on('message', (message: ToWorker) => {
    if (message?.wolfpack === 'close') close();
  });
  channel.once('SIGTERM', () => close());
  // The primary is gone (killed): nobody hands this process connections any more.
  channel.once('disconnect', () => close());
  let server: WorkerServer;
  try {
    server = await start(askedToClose.signal);
  } catch (error) {
    // The code too (EADDRINUSE…): the CLI words its sentence by it.
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    channel.send?.({ wolfpack: 'failed', message: error instanceof Error ? error.message : String(error), ...(code ? { code } : {}) } satisfies FromWorker);
    process.exitCode = 1;
    channel.disconnect?.();
    return;
  }
  let closing: Promise<void> | undefined;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  close = () => void (closing ??= server.close().finally(done));
  if (askedToClose.signal.aborted) close();
  else channel.send?.({ wolfpack: 'listening', url: server.url, port: server.port, instanceId: server.instanceId } satisfies FromWorker);
  await closed;
  // The channel to the primary would keep the process alive.
  if (channel.connected) channel.disconnect?.();
}

/** What a worker hears from and says to its primary: the process itself, or a test's stand-in. */
export interface WorkerChannel {
  on(event: 'message' | 'SIGINT', listener: (message: ToWorker) => void): unknown;
  once(event: 'SIGTERM' | 'disconnect', listener: () => void): unknown;
  send?(message: FromWorker): unknown;
  disconnect?(): void;
  readonly connected?: boolean;
}

export interface ClusterWorker {
  pid: number;
  /** The id it owns runs by (conversations.instance_id). */
  instanceId: string;
}

export interface RunningCluster {
  url: string;
  port: number;
  /** The workers serving now (a replacement joins when one dies). */
  workers(): ClusterWorker[];
  close(): Promise<void>;
}

/** How long a worker may take to close (its streams end, its runs stop) before it is killed. */
const CLOSE_TIMEOUT_MS = 15_000;

/**
 * The primary's part: forks `count` workers (they run the same entry point, which calls
 * {@link runClusterWorker} there), resolves once all of them listen, and replaces any that dies
 * until {@link RunningCluster.close}. A worker that fails to start fails the whole start, with
 * its reason.
 */
export async function startClusterPrimary(count: number, log: Logger): Promise<RunningCluster> {
  const workers = new Map<Worker, ClusterWorker>();
  let closing = false;
  let address: { url: string; port: number } | undefined;

  const fork = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const worker = cluster.fork({ WOLFPACK_WORKER_INDEX: String(index), WOLFPACK_WORKER_COUNT: String(count) });
      let listening = false;
      // A message to a worker whose channel just closed (it failed, or is closing) fails with
      // EPIPE on the worker: its exit is what counts, handled below.
      worker.on('error', () => {});
      worker.on('message', (message: FromWorker) => {
        if (message?.wolfpack === 'listening') {
          listening = true;
          address ??= { url: message.url, port: message.port };
          workers.set(worker, { pid: worker.process.pid!, instanceId: message.instanceId });
          resolve();
        } else if (message?.wolfpack === 'failed') {
          reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
        }
      });
      worker.on('exit', (code, signal) => {
        workers.delete(worker);
        if (!listening) return reject(new Error(`a server process exited while starting (${signal ?? `exit code ${code}`})`));
        if (closing) return;
        log.error(`server process ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another. Its runs continue in the others once their lease expires.`);
        setTimeout(() => {
          if (!closing) fork(index).catch((error: unknown) => log.error('a replacement server process did not start', error));
        }, 1000).unref();
      });
    });

  const closeAll = async () => {
    closing = true;
    const exits = Object.values(cluster.workers ?? {}).flatMap((worker) => {
      if (!worker || worker.isDead()) return [];
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // One whose channel is gone (closing on its own already) hears SIGTERM instead.
      if (worker.isConnected()) worker.send({ wolfpack: 'close' } satisfies ToWorker);
      else worker.process.kill('SIGTERM');
      const kill = setTimeout(() => worker.process.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
      return [exited.finally(() => clearTimeout(kill))];
    });
    await Promise.all(exits);
  };

  try {
    await Promise.all(Array.from({ length: count }, (_, i) => fork(i + 1)));
  } catch (error) {
    await closeAll();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    url: address!.url,
    port: address!.port,
    workers: () => [...workers.values()],
    close: () => (closed ??= closeAll()),
  };
}
