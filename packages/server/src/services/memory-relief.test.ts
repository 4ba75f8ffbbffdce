import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { collectAndTrim, MemoryRelief, type ReliefOutcome } from './memory-relief.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

/** A relief that counts its calls instead of touching the process's memory. */
function counting() {
  const calls: number[] = [];
  const relieve = (): Promise<ReliefOutcome> => {
    calls.push(Date.now());
    return Promise.resolve({ collectedMs: 0, trimmed: true });
  };
  return { calls, relieve };
}

describe('MemoryRelief', () => {
  it('relieves once, after the last of overlapping large work has closed', async () => {
    const { calls, relieve } = counting();
    const relief = new MemoryRelief(silentLogger, 30, relieve);
    const first = relief.during(new PassThrough());
    const second = relief.during(new PassThrough());
    first.end();
    first.resume();
    await sleep(80);
    // The second export is still streaming: nothing yet.
    expect(calls).toHaveLength(0);
    // A client that leaves destroys its stream: that ends the work too.
    second.destroy();
    await sleep(80);
    expect(calls).toHaveLength(1);
    await sleep(80);
    expect(calls).toHaveLength(1);
  });

  it('starts the delay again when new work begins before it has passed', async () => {
    const { calls, relieve } = counting();
    const relief = new MemoryRelief(silentLogger, 60, relieve);
    relief.during(new PassThrough()).destroy();
    await sleep(20);
    const next = relief.during(new PassThrough());
    await sleep(80);
    expect(calls).toHaveLength(0);
    next.destroy();
    await sleep(120);
    expect(calls).toHaveLength(1);
  });

  it('does nothing when turned off (no delay)', async () => {
    const { calls, relieve } = counting();
    const relief = new MemoryRelief(silentLogger, undefined, relieve);
    relief.during(new PassThrough()).destroy();
    await sleep(50);
    expect(calls).toHaveLength(0);
  });

  it('logs a failed relief as a warning, and relieves again after the next work', async () => {
    const warnings: string[] = [];
    let calls = 0;
    const relief = new MemoryRelief({ ...silentLogger, warn: (message) => warnings.push(message) }, 10, () => {
      calls++;
      return Promise.reject(new Error('boom'));
    });
    relief.during(new PassThrough()).destroy();
    await sleep(40);
    await relief.settled();
    expect(warnings).toEqual(['giving memory back failed']);
    relief.during(new PassThrough()).destroy();
    await sleep(40);
    expect(calls).toBe(2);
  });
});

describe('collectAndTrim', () => {
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

  it.runIf(process.platform === 'linux')('gives back the malloc heap that dead buffers left in pieces', async () => {
    // 80 MB of 40 KiB buffers (below glibc's mmap threshold: they come from the heap), each
    // followed by a small one that stays alive, as an export's socket reads sit between longer-
    // lived allocations. Once the large ones are dead, the heap is all holes that only a
    // collection and malloc_trim give back.
    const pins: Buffer[] = [];
    let large: Buffer[] | undefined = [];
    for (let i = 0; i < 2000; i++) {
      large.push(Buffer.alloc(40 * 1024, i));
      pins.push(Buffer.allocUnsafeSlow(256));
    }
    const held = rss();
    large = undefined;
    const outcome = await collectAndTrim();
    const relieved = rss();
    expect(outcome.trimmed).toBe(true);
    expect(outcome.collectedMs).toBeGreaterThanOrEqual(0);
    expect(held - relieved, `RSS ${(held / MB).toFixed(0)} MB → ${(relieved / MB).toFixed(0)} MB`).toBeGreaterThan(50 * MB);
    expect(pins).toHaveLength(2000);
  });
});
