import { createRequire } from 'node:module';
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { Stream } from 'node:stream';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logger.js';

/** What the relief needs from the process; tests pass their own. */
export interface ReliefHooks {
  /** Calls `listener` after each of V8's full collections, until the returned function is called. */
  onFullCollection(listener: () => void): () => void;
  /** Forces a full collection; resolves to how long it paused the process, undefined where it cannot. */
  collect(): Promise<number | undefined>;
  /** Gives the malloc heap's free pages back; false where the C library is not glibc. */
  trim(): Promise<boolean>;
  /** A clock of how busy the event loop is: the returned function gives the share of time busy since. */
  busySince(): () => number;
  /** Whether V8's young generation is still grown (its size, not its use), which only a forced collection shrinks. */
  youngGenerationGrown(): boolean;
}

/** Above this share of the deadline busy, the forced collection waits another deadline... */
const BUSY = 0.5;
/**
 * ...this many times at most: a process kept busy by requests that allocate little (the export
 * bench's health polling with a profiler attached was one) may make no full collection of its own
 * for a long time, and would keep the memory as long.
 */
const MAX_POSTPONED = 2;
/**
 * A young generation larger than this after V8's own full collection is the large work's: the
 * server idle, or serving light traffic after a forced collection, keeps it at 1-2 MB.
 */
const GROWN_YOUNG_GENERATION = 16 * 1024 * 1024;

/**
 * Gives the process's freed memory back to the system once large work (a zip export) has ended.
 *
 * Why: an export reads tens of MB of rows through the database socket. Node allocates each read
 * (up to 64 KiB) and each row's bytes with malloc, interleaved with longer-lived allocations, so
 * once V8 has collected the objects that held them, glibc's main heap is free but in pieces, which
 * its top-of-heap trimming never returns. `pnpm bench export` (PostgreSQL, 2,000 real source
 * files, 49 MB) measured the process 73-123 MB above where it started once exports had ended
 * (earlier sessions, and this one's first run), 57-66 MB of it that heap, of which `malloc_trim(0)`
 * (called from gdb) gave back 50 MB. Setting glibc's mmap threshold instead
 * (MALLOC_MMAP_THRESHOLD_) avoids the holes but made exports about 25 % slower, and only works
 * from the environment the process starts in.
 *
 * So once the last large work has ended, the next full collection V8 makes of its own accord (its
 * memory reducer makes one soon after a burst of allocation ends, when the process goes quiet) is
 * followed by glibc's `malloc_trim(0)`, on libuv's thread pool. A process that keeps serving light
 * traffic may make no full collection for a long time (the export grew the old generation's
 * limit): the bench measured it 106 MB above its start 6 s after the export. So when V8 has made
 * none within `deadlineMs`, a collection is forced (it pauses the process, 128-200 ms measured on
 * this server), unless the event loop was busy more than half that time: then V8's own
 * collection is likely near, and the wait starts again, twice at most.
 *
 * V8's own collection does not shrink the young generation, which the export grew to 64 MB: the
 * bench measured 74 MB left after it and the trim, against 4-14 MB after a forced collection
 * (28 November 2026). So when it is still grown after V8's own collection, the trim runs at
 * once and the forced collection follows at the deadline, if the event loop is quiet then (a
 * busy one needs its young generation, and would grow it again). Off when `deadlineMs` is
 * undefined (WOLFPACK_MEMORY_RELIEF_SECONDS=0).
 */
export class MemoryRelief {
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly log: Logger,
    /** Undefined: off. No default, since `undefined` passed in would take it. */
    private readonly deadlineMs: number | undefined,
    private readonly hooks: ReliefHooks = processHooks,
  ) {}

  /** Marks `stream` as large work: memory is given back once it (and any other) has closed. */
  during<S extends Stream>(stream: S): S {
    if (this.deadlineMs === undefined) return stream;
    this.active++;
    this.disarm();
    // 'close' comes once whether the stream ended or was destroyed (a client that left).
    stream.once('close', () => {
      if (--this.active === 0) this.arm(this.deadlineMs!);
    });
    return stream;
  }

  /** Resolves once the relief under way, if any, has run. */
  async settled(): Promise<void> {
    await this.running;
  }

  private arm(deadlineMs: number, postponed = 0): void {
    this.disarm();
    this.unsubscribe = this.hooks.onFullCollection(() => this.afterOwnCollection());
    const busy = this.hooks.busySince();
    // unref: a relief still to come never keeps a closing process alive.
    this.timer = setTimeout(() => (busy() > BUSY && postponed < MAX_POSTPONED ? this.arm(deadlineMs, postponed + 1) : this.relieve(true)), deadlineMs).unref();
  }

  private afterOwnCollection(): void {
    if (!this.hooks.youngGenerationGrown()) return this.relieve(false);
    this.disarm();
    // The trim now gives back what it can; the young generation waits for a quiet deadline.
    this.running = this.hooks.trim().catch((error: unknown) => this.log.warn('giving memory back failed', error));
    const busy = this.hooks.busySince();
    this.timer = setTimeout(() => {
      if (busy() <= BUSY) return this.relieve(true);
      this.timer = undefined;
      this.log.info("memory given back after large work: malloc trimmed after V8's own full collection; the young generation kept (the event loop was busy)");
    }, this.deadlineMs!).unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private relieve(force: boolean): void {
    this.disarm();
    const previous = this.running;
    this.running = (async () => {
      await previous;
      const collectedMs = force ? await this.hooks.collect() : undefined;
      const trimmed = await this.hooks.trim();
      const after = force ? (collectedMs === undefined ? 'no collection (gc not available)' : `a forced full collection (${collectedMs.toFixed(0)} ms)`) : "V8's own full collection";
      this.log.info(`memory given back after large work: ${trimmed ? 'malloc trimmed' : 'malloc not trimmed (not glibc)'} after ${after}`);
    })().catch((error: unknown) => this.log.warn('giving memory back failed', error));
  }
}

/** The process's own V8 and glibc. */
export const processHooks: ReliefHooks = {
  onFullCollection(listener) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) listener();
    });
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
  collect: forcedCollection,
  trim: mallocTrim,
  busySince() {
    const start = performance.eventLoopUtilization();
    return () => performance.eventLoopUtilization(start).utilization;
  },
  youngGenerationGrown: () => (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) > GROWN_YOUNG_GENERATION,
};

/**
 * A full, memory-reducing collection (V8's "last resort": it also shrinks the young generation
 * the export grew, and frees the malloc'd bytes that dead objects held); resolves to how long it
 * took, undefined where V8's gc function cannot be had.
 */
async function forcedCollection(): Promise<number | undefined> {
  const collect = fullCollection();
  if (!collect) return undefined;
  const started = performance.now();
  await collect({ type: 'major', execution: 'async', flavor: 'last-resort' });
  return performance.now() - started;
}

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
