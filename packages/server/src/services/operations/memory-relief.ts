import { createRequire } from 'node:module';
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { Stream } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../../logger.js';

/** What the relief needs from the process; tests pass their own. */
export interface ReliefHooks {
  /** Calls `listener` after each of V8's full collections, until the returned function is called. */
  onFullCollection(listener: () => void): () => void;
  /**
   * Forces a full collection (`last-resort`: repeated until nothing more is freed, the young
   * generation shrunk); resolves to how long it paused the process, undefined where it cannot.
   */
  collect(flavor: CollectionFlavor): Promise<number | undefined>;
  /** Gives the malloc heap's free pages back; false where the C library is not glibc. */
  trim(): Promise<boolean>;
  /** A clock of how busy the event loop is: the returned function gives the share of time busy since. */
  busySince(): () => number;
  /** The process's resident memory, in bytes. */
  residentBytes(): number;
}

export type CollectionFlavor = 'regular' | 'last-resort';

/** Above this share of the deadline busy, the forced collection waits another deadline... */
const BUSY = 0.5;
/**
 * ...this many times at most: a process kept busy by requests that allocate little (the export
 * bench's health polling with a profiler attached was one) may make no full collection of its own
 * for a long time, and would keep the memory as long.
 */
const MAX_POSTPONED = 2;
/**
 * More than this above where the process stood when the large work began, after V8's own full
 * collection and the trim, and the forced collection follows (the target is 50 MB).
 */
const LEFT_OVER = 32 * 1024 * 1024;

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
 * none within `deadlineMs`, a collection is forced (it pauses the process: 63-89 ms measured on
 * a slow 2-core machine; see relieveByForce), unless the event loop was busy more than half that time: then V8's own
 * collection is likely near, and the wait starts again, twice at most.
 *
 * V8's own collection, though, keeps what a memory-reducing one gives back: the young
 * generation the export grew (64 MB) and the pages it freed, pooled for reuse. The bench measured
 * 74 MB left after it and the trim on PGlite, 160 MB with a small young generation, against 4-14
 * MB after a forced last-resort collection (27 November 2026, twelfth session), 11-32 MB after a
 * forced regular one (see forcedCollection). So when the process is still
 * more than 32 MB above where it stood when the work began, after V8's own collection and the
 * trim, the forced collection follows at the deadline, put off by a busy event loop as above
 * (twice at most: the bench, polling health under a profiler, kept the loop that busy, and 110 MB
 * stayed). Off when `deadlineMs` is undefined (WOLFPACK_MEMORY_RELIEF_SECONDS=0).
 */
export class MemoryRelief {
  private active = 0;
  /**
   * Resident bytes when the current large work began, or when work began that the relief has not
   * yet followed (exports one after another: each would start where the last left the process).
   */
  private before = 0;
  /** Work has ended and its relief not yet run. */
  private owed = false;
  /** Counts beginnings of large work, so a relief under way knows when new work overtook it. */
  private began = 0;
  /** When the forced collection is due (performance.now()). */
  private dueAt = 0;
  /** How many deadlines the forced collection has waited for a busy event loop. */
  private postponed = 0;
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
    this.began++;
    if (this.active++ === 0) this.before = this.owed ? Math.min(this.before, this.hooks.residentBytes()) : this.hooks.residentBytes();
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

  private arm(deadlineMs: number): void {
    this.disarm();
    this.owed = true;
    this.postponed = 0;
    this.unsubscribe = this.hooks.onFullCollection(() => this.afterOwnCollection());
    this.dueAt = performance.now() + deadlineMs;
    this.forceAfter(deadlineMs);
  }

  /** The forced collection in `delayMs`, unless the event loop was busy over half that time: then a deadline later, twice at most. */
  private forceAfter(delayMs: number): void {
    const busy = this.hooks.busySince();
    // unref: a relief still to come never keeps a closing process alive.
    this.timer = setTimeout(() => {
      if (busy() > BUSY && this.postponed < MAX_POSTPONED) {
        this.postponed++;
        return this.forceAfter(this.deadlineMs!);
      }
      this.relieveByForce();
    }, delayMs).unref();
  }

  private afterOwnCollection(): void {
    this.disarm();
    const previous = this.running;
    const began = this.began;
    this.running = (async () => {
      await previous;
      const trimmed = await this.hooks.trim();
      // New work began meanwhile (it may have ended too): its end arms the relief again.
      if (this.began !== began) return;
      if (this.hooks.residentBytes() - this.before <= LEFT_OVER) {
        this.owed = false;
        return this.log.info(`memory given back after large work: ${trimmed ? 'malloc trimmed' : 'malloc not trimmed (not glibc)'} after V8's own full collection`);
      }
      // At the deadline the collection was due anyway, not a whole deadline later; busy or not is
      // judged from now (over a fifth of the deadline at least, a second at most).
      this.forceAfter(Math.max(Math.min(1000, this.deadlineMs! / 5), this.dueAt - performance.now()));
    })().catch((error: unknown) => this.log.warn('giving memory back failed', error));
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * A forced collection, then the trim; when the process is still more than 32 MB above where it
   * stood before the work, V8's last resort and the trim again. One regular collection paused the
   * process 63-89 ms on a slow 2-core machine and left an export's process 11-32 MB above its
   * start (`pnpm bench export`, both databases), where the last resort (collections repeated
   * until nothing more is freed, and the young generation shrunk) paused it 150-350 ms and left
   * 3-6 MB: the long pause only where the short one did not do.
   */
  private relieveByForce(): void {
    this.disarm();
    const previous = this.running;
    this.owed = false;
    this.running = (async () => {
      await previous;
      const collectedMs = await this.hooks.collect('regular');
      let trimmed = await this.hooks.trim();
      let after = collectedMs === undefined ? 'no collection (gc not available)' : `a forced full collection (${collectedMs.toFixed(0)} ms)`;
      // New work that began meanwhile measures from where it began (see during): no last resort for it.
      if (collectedMs !== undefined && this.hooks.residentBytes() - this.before > LEFT_OVER) {
        const lastResortMs = (await this.hooks.collect('last-resort')) ?? 0;
        trimmed = await this.hooks.trim();
        after += ` and, still over 32 MB above the start, a last-resort one (${lastResortMs.toFixed(0)} ms)`;
      }
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
  residentBytes: () => process.memoryUsage.rss(),
};

/**
 * A full collection, which frees the malloc'd bytes that dead objects held; resolves to how long
 * it paused the process, undefined where V8's gc function cannot be had.
 */
async function forcedCollection(flavor: CollectionFlavor): Promise<number | undefined> {
  const collect = fullCollection();
  if (!collect) return undefined;
  const started = performance.now();
  await collect({ type: 'major', execution: 'async', flavor });
  const ms = performance.now() - started;
  // Dead buffers' memory is freed by V8's sweeper on a thread of its own, after the pause: the
  // trim that follows would find it still in use.
  await new Promise((resolve) => setTimeout(resolve, SWEPT_MS));
  return ms;
}

/** Long enough for the sweeper to have freed dead buffers after a collection. */
const SWEPT_MS = 100;

type Collect = (options: { type: 'major'; execution: 'async'; flavor: CollectionFlavor }) => Promise<void>;
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
