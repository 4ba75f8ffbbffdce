import { createRequire } from 'node:module';
import type { Stream } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logger.js';

/** What giving memory back did: how long the collection paused the event loop, whether malloc was trimmed. */
export interface ReliefOutcome {
  collectedMs: number | undefined;
  trimmed: boolean;
}

export type Relieve = () => Promise<ReliefOutcome>;

/**
 * Gives the process's freed memory back to the system once large work (a zip export) has ended.
 *
 * Why: an export reads tens of MB of rows through the database socket. Node allocates each read
 * (up to 64 KiB) and each row's bytes with malloc, interleaved with longer-lived allocations, and
 * an idle server allocates nothing more, so nothing collects the JavaScript objects that still
 * hold them. `pnpm bench export` (PostgreSQL, 2,000 real source files, 49 MB) measured the process
 * 73-123 MB above where it started once the export had ended: glibc's main heap +57-66 MB (freed in
 * pieces that its top-of-heap trimming never returns) and V8's heap +18-20 MB. Setting glibc's
 * mmap threshold instead (MALLOC_MMAP_THRESHOLD_) avoids the holes but made exports about 25 %
 * slower, and only works from the environment the process starts in.
 *
 * So, `delayMs` after the last large work ends (a burst of exports is relieved once): a full
 * collection, then glibc's `malloc_trim(0)` on libuv's thread pool. Off when `delayMs` is
 * undefined (WOLFPACK_MEMORY_RELIEF_SECONDS=0).
 */
export class MemoryRelief {
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly delayMs: number | undefined = 1000,
    private readonly relieve: Relieve = collectAndTrim,
  ) {}

  /** Marks `stream` as large work: memory is given back once it (and any other) has closed. */
  during<S extends Stream>(stream: S): S {
    if (this.delayMs === undefined) return stream;
    this.active++;
    clearTimeout(this.timer);
    this.timer = undefined;
    // 'close' comes once whether the stream ended or was destroyed (a client that left).
    stream.once('close', () => {
      if (--this.active === 0) this.schedule(this.delayMs!);
    });
    return stream;
  }

  /** Resolves once the relief under way, if any, has run. */
  async settled(): Promise<void> {
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    // unref: a scheduled relief never keeps a closing process alive.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.relieve().then(
        ({ collectedMs, trimmed }) => {
          const collected = collectedMs === undefined ? 'no full collection (gc not available)' : `full collection ${collectedMs.toFixed(0)} ms`;
          this.log.info(`memory given back after large work: ${collected}, malloc ${trimmed ? 'trimmed' : 'not trimmed (not glibc)'}`);
        },
        (error: unknown) => this.log.warn('giving memory back failed', error),
      );
    }, delayMs).unref();
  }
}

/**
 * A full, memory-reducing collection (V8's "last resort": it also shrinks the young generation
 * the export grew, and frees the malloc'd bytes that dead objects held), then {@link mallocTrim}.
 * The collection pauses the event loop, once after the last export: about 30-80 ms on this
 * server's heap.
 */
export const collectAndTrim: Relieve = async () => {
  const collect = fullCollection();
  let collectedMs: number | undefined;
  if (collect) {
    const started = performance.now();
    await collect({ type: 'major', execution: 'async', flavor: 'last-resort' });
    collectedMs = performance.now() - started;
  }
  return { collectedMs, trimmed: await mallocTrim() };
};

type Collect = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => Promise<void>;
let collectFunction: Collect | null | undefined;

/**
 * V8's `gc` function, which Node hides unless started with --expose-gc: the flag is set just long
 * enough to take the function from a new context, then unset, so no other code sees a global `gc`.
 */
function fullCollection(): Collect | null {
  if (collectFunction !== undefined) return collectFunction;
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return (collectFunction = exposed);
  try {
    setFlagsFromString('--expose-gc');
    collectFunction = runInNewContext('gc') as Collect;
  } catch {
    collectFunction = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collectFunction;
}

type MallocTrim = { async(pad: number, done: (error: unknown, result: number) => void): void };
let trimFunction: MallocTrim | null | undefined;

/**
 * glibc's `malloc_trim(0)`: returns the free pages of every malloc arena to the system, those in
 * the middle of the heap included (by madvise), not only the heap's top. Runs on a thread of
 * libuv's pool, through koffi; false where the C library is not glibc (musl, macOS).
 */
export function mallocTrim(): Promise<boolean> {
  if (trimFunction === undefined) trimFunction = loadMallocTrim();
  const trim = trimFunction;
  if (trim === null) return Promise.resolve(false);
  return new Promise((resolve, reject) => trim.async(0, (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(true))));
}

function loadMallocTrim(): MallocTrim | null {
  if (process.platform !== 'linux') return null;
  try {
    // Loaded only here, on first use: where koffi has no prebuilt binary the server still runs,
    // without the trim.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as MallocTrim;
  } catch {
    return null;
  }
}
