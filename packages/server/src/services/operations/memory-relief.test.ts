import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logger.js';
import { MemoryRelief, processHooks, type ReliefHooks } from './memory-relief.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

/** Hooks that record what the relief asks for; `fullCollection()` plays V8 collecting of its own accord. */
function recording() {
  const calls: string[] = [];
  let listener: (() => void) | undefined;
  const loop = { busy: 0 };
  const memory = { resident: 0, keptByRegular: false };
  const hooks: ReliefHooks = {
    busySince: () => () => loop.busy,
    residentBytes: () => memory.resident,
    onFullCollection(l) {
      listener = l;
      return () => (listener = undefined);
    },
    // A regular collection gives the memory back, unless a test keeps it (`memory.keptByRegular`).
    collect: (flavor) => {
      calls.push(flavor === 'regular' ? 'collect' : 'collect last-resort');
      if (flavor === 'last-resort' || !memory.keptByRegular) memory.resident = 0;
      return Promise.resolve(flavor === 'regular' ? 12 : 140);
    },
    trim: () => {
      calls.push('trim');
      return Promise.resolve(true);
    },
  };
  return { calls, hooks, loop, memory, fullCollection: () => listener?.(), listening: () => listener !== undefined };
}

/** Large work that begins with the process at `fromMb` and leaves it at `toMb`. */
function workGrowing(relief: MemoryRelief, memory: { resident: number }, fromMb: number, toMb: number): void {
  memory.resident = fromMb * MB;
  const work = relief.during(new PassThrough());
  memory.resident = toMb * MB;
  work.destroy();
}

/** Large work that begins and ends at once (a client that left straight away). */
function endWork(relief: MemoryRelief): void {
  relief.during(new PassThrough()).destroy();
}

function logged() {
  const infos: string[] = [];
  const warnings: string[] = [];
  return { infos, warnings, log: { info: (m: string) => infos.push(m), warn: (m: string) => warnings.push(m), error: () => {} } };
}

describe('MemoryRelief', () => {
  it("trims after V8's next full collection once the last of overlapping large work has closed", async () => {
    const { calls, hooks, fullCollection, listening } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 10_000, hooks);
    const first = relief.during(new PassThrough());
    const second = relief.during(new PassThrough());
    first.end();
    first.resume();
    await sleep(20);
    // The second export is still streaming: a collection now is not the one after the work.
    expect(listening()).toBe(false);
    fullCollection();
    // A client that leaves destroys its stream: that ends the work too.
    second.destroy();
    await sleep(20);
    expect(listening()).toBe(true);
    fullCollection();
    await relief.settled();
    expect(calls).toEqual(['trim']);
    expect(infos).toEqual(["memory given back after large work: malloc trimmed after V8's own full collection"]);
    // Once: the next collection finds nothing armed.
    expect(listening()).toBe(false);
    fullCollection();
    await sleep(20);
    expect(calls).toEqual(['trim']);
  });

  it('forces a collection, then trims, when V8 has made none by the deadline', async () => {
    const { calls, hooks } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 40, hooks);
    endWork(relief);
    await sleep(20);
    expect(calls).toEqual([]);
    await sleep(80);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim']);
    expect(infos).toEqual(['memory given back after large work: malloc trimmed after a forced full collection (12 ms)']);
  });

  it('waits another deadline instead of forcing a collection while the event loop is busy', async () => {
    const { calls, hooks, loop, fullCollection } = recording();
    const relief = new MemoryRelief(silentLogger, 40, hooks);
    loop.busy = 0.8;
    endWork(relief);
    await sleep(100);
    expect(calls).toEqual([]);
    // Still armed: V8's own collection is what the relief waits for.
    fullCollection();
    await relief.settled();
    expect(calls).toEqual(['trim']);
  });

  it('forces the collection after three deadlines however busy the event loop stays', async () => {
    const { calls, hooks, loop } = recording();
    const relief = new MemoryRelief(silentLogger, 40, hooks);
    loop.busy = 0.8;
    endWork(relief);
    await sleep(90);
    expect(calls).toEqual([]);
    await sleep(120);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim']);
  });

  it("forces a collection at the deadline after V8's own when the process is still over 32 MB above its start, the trim at once", async () => {
    const { calls, hooks, memory, fullCollection } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 60, hooks);
    workGrowing(relief, memory, 200, 233);
    await sleep(10);
    fullCollection();
    await relief.settled();
    expect(calls).toEqual(['trim']);
    expect(infos).toEqual([]);
    await sleep(100);
    await relief.settled();
    expect(calls).toEqual(['trim', 'collect', 'trim']);
    expect(infos).toEqual(['memory given back after large work: malloc trimmed after a forced full collection (12 ms)']);
  });

  it('follows the forced collection with the last resort only when the process is still over 32 MB above its start', async () => {
    const { calls, hooks, memory } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 40, hooks);
    memory.keptByRegular = true;
    workGrowing(relief, memory, 200, 233);
    await sleep(100);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim', 'collect last-resort', 'trim']);
    expect(infos).toEqual([
      'memory given back after large work: malloc trimmed after a forced full collection (12 ms) and, still over 32 MB above the start, a last-resort one (140 ms)',
    ]);
    // Within 32 MB after the regular collection: no last resort.
    calls.length = 0;
    memory.keptByRegular = false;
    workGrowing(relief, memory, 200, 233);
    await sleep(100);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim']);
  });

  it('makes no last resort while new work that began during the forced collection runs', async () => {
    const { calls, hooks, memory } = recording();
    const relief = new MemoryRelief(logged().log, 40, hooks);
    memory.keptByRegular = true;
    const collect = hooks.collect;
    let work: PassThrough | undefined;
    hooks.collect = (flavor) => {
      // An export starts while the collection runs.
      work ??= relief.during(new PassThrough());
      return collect(flavor);
    };
    workGrowing(relief, memory, 200, 233);
    await sleep(100);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim']);
    work!.destroy();
  });

  it("forces the collection at the first deadline when V8's own collection came late in it, not a whole deadline later", async () => {
    const { calls, hooks, memory, fullCollection } = recording();
    const relief = new MemoryRelief(silentLogger, 300, hooks);
    workGrowing(relief, memory, 200, 300);
    await sleep(200);
    fullCollection();
    await sleep(180);
    await relief.settled();
    expect(calls).toEqual(['trim', 'collect', 'trim']);
  });

  it('measures what is left from where the process stood before exports that came one after another, the relief of each not yet run', async () => {
    const { calls, hooks, memory, fullCollection } = recording();
    const relief = new MemoryRelief(silentLogger, 60, hooks);
    workGrowing(relief, memory, 150, 280);
    await sleep(5);
    // The second begins where the first left the process, before any relief.
    workGrowing(relief, memory, 280, 200);
    await sleep(5);
    fullCollection();
    await sleep(120);
    await relief.settled();
    // 50 MB above 150 is over the 32 allowed; 80 below 280 would not have been.
    expect(calls).toEqual(['trim', 'collect', 'trim']);
  });

  it('stops after the trim when V8 collected of its own accord and the process is back within 32 MB of its start', async () => {
    const { calls, hooks, memory, fullCollection } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 40, hooks);
    workGrowing(relief, memory, 200, 232);
    await sleep(10);
    fullCollection();
    await sleep(100);
    await relief.settled();
    expect(calls).toEqual(['trim']);
    expect(infos).toEqual(["memory given back after large work: malloc trimmed after V8's own full collection"]);
  });

  it("puts the forced collection after V8's own off while the event loop is busy, twice at most", async () => {
    const { calls, hooks, loop, memory, fullCollection } = recording();
    const { infos, log } = logged();
    const relief = new MemoryRelief(log, 40, hooks);
    workGrowing(relief, memory, 200, 290);
    loop.busy = 0.8;
    await sleep(10);
    fullCollection();
    // Due at 40 ms, then two deadlines more: about 120 ms.
    await sleep(80);
    await relief.settled();
    expect(calls).toEqual(['trim']);
    await sleep(120);
    await relief.settled();
    expect(calls).toEqual(['trim', 'collect', 'trim']);
    expect(infos).toEqual(['memory given back after large work: malloc trimmed after a forced full collection (12 ms)']);
  });

  it("leaves the follow-up to new work that begins and ends while the trim after V8's own collection runs", async () => {
    const { calls, hooks, memory, fullCollection } = recording();
    let finishTrim: (() => void) | undefined;
    const relief = new MemoryRelief(silentLogger, 40, {
      ...hooks,
      // The first trim is held until the test lets it finish.
      trim: () => {
        calls.push('trim');
        return finishTrim ? Promise.resolve(true) : new Promise((resolve) => (finishTrim = () => resolve(true)));
      },
    });
    workGrowing(relief, memory, 200, 300);
    await sleep(10);
    fullCollection();
    // The next export comes and goes while the trim is on the thread pool.
    memory.resident = 200 * MB;
    endWork(relief);
    memory.resident = 300 * MB;
    await sleep(10);
    finishTrim!();
    await sleep(100);
    await relief.settled();
    // One forced collection, the new work's, not two.
    expect(calls).toEqual(['trim', 'collect', 'trim']);
  });

  it('waits again when new work begins before the relief', async () => {
    const { calls, hooks, fullCollection } = recording();
    const relief = new MemoryRelief(silentLogger, 60, hooks);
    endWork(relief);
    await sleep(20);
    const next = relief.during(new PassThrough());
    fullCollection();
    await sleep(100);
    expect(calls).toEqual([]);
    next.destroy();
    await sleep(120);
    await relief.settled();
    expect(calls).toEqual(['collect', 'trim']);
  });

  it('does nothing when turned off', async () => {
    const { calls, hooks, listening } = recording();
    const relief = new MemoryRelief(silentLogger, undefined, hooks);
    endWork(relief);
    await sleep(30);
    expect(listening()).toBe(false);
    expect(calls).toEqual([]);
  });

  it('logs a failed relief as a warning, and relieves again after the next work', async () => {
    const { warnings, log } = logged();
    let trims = 0;
    const relief = new MemoryRelief(log, 10, { ...recording().hooks, trim: () => Promise.reject(new Error(`boom ${++trims}`)) });
    endWork(relief);
    await sleep(40);
    await relief.settled();
    expect(warnings).toEqual(['giving memory back failed']);
    endWork(relief);
    await sleep(40);
    await relief.settled();
    expect(trims).toBe(2);
  });
});

describe.runIf(process.platform === 'linux')("the process's own hooks", () => {
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

  it('give back, with a forced collection and the trim, the memory a burst of allocation grew', async () => {
    // From a process as small as it gets: earlier test files in this worker may have grown it.
    await processHooks.collect('last-resort');
    await processHooks.trim();
    const start = processHooks.residentBytes();
    let garbage: object[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      garbage.push({ i, text: `row ${i}` });
      if (garbage.length > 200_000) garbage = [];
    }
    garbage = [];
    const grown = processHooks.residentBytes();
    expect(grown - start).toBeGreaterThan(32 * MB);
    // The young generation a burst grew is shrunk by the last resort only.
    await processHooks.collect('last-resort');
    await processHooks.trim();
    expect(grown - processHooks.residentBytes(), `RSS ${(grown / MB).toFixed(0)} MB → ${(processHooks.residentBytes() / MB).toFixed(0)} MB`).toBeGreaterThan(32 * MB);
    expect(garbage).toHaveLength(0);
  });

  it('measure how busy the event loop has been', async () => {
    const busy = processHooks.busySince();
    const until = performance.now() + 60;
    while (performance.now() < until);
    expect(busy()).toBeGreaterThan(0.5);
    const idle = processHooks.busySince();
    await sleep(60);
    expect(idle()).toBeLessThan(0.5);
  });

  it('hear of full collections, and a collection with malloc_trim gives back a heap that dead buffers left in pieces', async () => {
    let heard = 0;
    const stop = processHooks.onFullCollection(() => heard++);
    // 80 MB of 40 KiB buffers (below glibc's mmap threshold: they come from the heap), each
    // followed by a small one that stays alive, as an export's socket reads sit between longer-
    // lived allocations. Once the large ones are dead, the heap is all holes that only a
    // collection and malloc_trim give back (a collection alone gave back 1 MB of 80).
    const pins: Buffer[] = [];
    let large: Buffer[] | undefined = [];
    for (let i = 0; i < 2000; i++) {
      large.push(Buffer.alloc(40 * 1024, i));
      pins.push(Buffer.allocUnsafeSlow(256));
    }
    const held = rss();
    large = undefined;
    const collectedMs = await processHooks.collect('regular');
    expect(await processHooks.trim()).toBe(true);
    const relieved = rss();
    expect(collectedMs).toBeGreaterThanOrEqual(0);
    expect(held - relieved, `RSS ${(held / MB).toFixed(0)} MB → ${(relieved / MB).toFixed(0)} MB`).toBeGreaterThan(50 * MB);
    expect(pins).toHaveLength(2000);
    // Performance entries arrive after the collection, asynchronously.
    for (let i = 0; i < 50 && heard === 0; i++) await sleep(10);
    stop();
    expect(heard).toBeGreaterThan(0);
  });
});
