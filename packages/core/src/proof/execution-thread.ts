import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { executeProject, type ExecuteOptions } from './execute-project.js';
import type { ExecutionReport } from './report.js';
import { sandboxTurnedOff } from './sandbox.js';
import type { StepLine, StepSink } from './proof-steps.js';

/** Messages to the thread (execution-worker.ts). */
export type ToExecutionWorker =
  | { type: 'run'; id: number; files: Readonly<Record<string, string>>; options: Omit<ExecuteOptions, 'sandbox' | 'signal' | 'onWait' | 'owner' | 'onStep'> }
  | { type: 'abort'; id: number };

/** Messages from the thread: a job's steps as they start and end (feed lines), then its end. */
export type FromExecutionWorker =
  | { type: 'step'; id: number; line: StepLine }
  | { type: 'done'; id: number; report: ExecutionReport }
  | { type: 'failed'; id: number; name: string; message: string };

interface Job {
  resolve(report: ExecutionReport): void;
  reject(error: Error): void;
  onStep?: StepSink;
  /** Stops listening to the caller's signal. */
  forget(): void;
}

export interface ExecutionThreadOptions {
  /** How long the thread stays after its last job, before it is ended to give its memory back. @default 60 s */
  idleMs?: number;
  /** Called once an idle thread has ended (its V8 heap, and the memory it held, gone). */
  onIdleEnd?: () => void;
}

/**
 * Runs {@link executeProject} on a worker thread, one for all the jobs of the process, so that
 * Proven Code's work done in JavaScript stays off the main thread: Playwright driving Chromium
 * (every request a checked page makes is answered by Playwright's router from the files), the
 * sandboxes' output, the project copies. In a profile of ten runs moving beside 1,000 event
 * streams (`pnpm bench sse`), that was 2.7 s of the main thread's 14 s of work, and a share of
 * its garbage collection: requests and streams waited behind it.
 *
 * The thread starts with the first job and ends `idleMs` after the last one; while idle it does
 * not keep the process alive. A job's signal is passed on (the sandbox's processes are stopped as
 * in-process). When the thread itself dies (a crash, {@link close}), its jobs fail with an error
 * that says so, and the next job starts a new thread.
 */
export class ExecutionThread {
  private worker: Worker | undefined;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly onIdleEnd: (() => void) | undefined;

  constructor(options: ExecutionThreadOptions = {}) {
    this.idleMs = options.idleMs ?? 60_000;
    this.onIdleEnd = options.onIdleEnd;
  }

  /** As {@link executeProject}, on the thread (which finds its own sandbox: `options.sandbox` and `onWait` cannot cross; steps come back as messages). */
  execute(files: Readonly<Record<string, string>>, options: ExecuteOptions = {}): Promise<ExecutionReport> {
    // With the sandbox turned off nothing runs: the report is a sentence, not worth a thread.
    if (sandboxTurnedOff(options.env ?? {})) return executeProject(files, options);
    const { signal, sandbox: _sandbox, onWait: _onWait, owner: _owner, onStep, ...rest } = options;
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<ExecutionReport>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ type: 'abort', id } satisfies ToExecutionWorker);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.jobs.set(id, { resolve, reject, ...(onStep ? { onStep } : {}), forget: () => signal?.removeEventListener('abort', onAbort) });
      worker.postMessage({ type: 'run', id, files, options: rest } satisfies ToExecutionWorker);
      if (signal?.aborted) onAbort();
    });
  }

  /** Jobs under way. */
  get running(): number {
    return this.jobs.size;
  }

  /** Whether the thread is there (it starts with a job and ends once idle). */
  get alive(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the thread now; its jobs fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopped(worker, new Error("Proven Code's checks were stopped: the server is closing"));
    await worker.terminate();
  }

  private start(): Worker {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.worker) {
      this.worker.ref();
      return this.worker;
    }
    const { url, execArgv } = workerEntry();
    const worker = new Worker(url, execArgv ? { execArgv } : {});
    this.worker = worker;
    worker.on('message', (message: FromExecutionWorker) => this.answer(message));
    worker.on('error', (error) => this.stopped(worker, new Error(`Proven Code's checks failed on their thread: ${error.message}`)));
    worker.on('exit', (code) => this.stopped(worker, new Error(`Proven Code's checks stopped: their thread exited (code ${code})`)));
    return worker;
  }

  private answer(message: FromExecutionWorker): void {
    const job = this.jobs.get(message.id);
    if (!job) return;
    // A step is news of a job under way, not its end.
    if (message.type === 'step') {
      job.onStep?.(message.line);
      return;
    }
    this.jobs.delete(message.id);
    job.forget();
    switch (message.type) {
      case 'done':
        job.resolve(message.report);
        break;
      case 'failed': {
        const error = new Error(message.message);
        error.name = message.name;
        job.reject(error);
        break;
      }
      default: {
        const unknown: never = message;
        throw new Error(`unknown message from the execution thread: ${JSON.stringify(unknown)}`);
      }
    }
    if (this.jobs.size === 0) this.idle();
  }

  /** No job left: the thread no longer holds the process open, and ends after `idleMs`. */
  private idle(): void {
    const worker = this.worker;
    if (!worker) return;
    worker.unref();
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.jobs.size === 0) void this.close().then(() => this.onIdleEnd?.());
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** The thread is gone (or going): every job it had fails with `error`. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.idleTimer);
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      job.forget();
      job.reject(error);
    }
  }
}

/**
 * The worker's module: the compiled one beside this file in `dist`; from the TypeScript sources
 * (tests, `pnpm dev`), the .ts file through tsx, as the rest of the process is loaded there.
 * Node's options are the thread's parent's unless `execArgv` is given (and given, options that
 * concern the whole process, such as `--cpu-prof`, are refused): only tsx is added, where needed.
 */
function workerEntry(): { url: URL; execArgv?: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { url: new URL('./execution-worker.js', here) };
  const url = new URL('./execution-worker.ts', here);
  // Under tsx already (`pnpm dev`, the benches), the thread inherits it; under Vitest it is added.
  if (process.execArgv.some((arg) => /\btsx\b/.test(arg))) return { url };
  return { url, execArgv: ['--import', pathToFileURL(createRequire(here).resolve('tsx')).href] };
}
