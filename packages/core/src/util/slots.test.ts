import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

/** Work that ends when told to, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Slots', () => {
  it('runs at most `size` at once and the rest in the order they came', async () => {
    const slots = new Slots(2);
    const log: string[] = [];
    const works = ['a', 'b', 'c', 'd'].map((name) => gate(log, name));
    const waited: number[] = [];
    const results = works.map((w) => slots.run(w.work, { onWait: (ahead) => waited.push(ahead) }));
    await turn();
    expect(log).toEqual(['start a', 'start b']);
    expect([slots.busy, slots.waiting]).toEqual([2, 2]);
    expect(waited).toEqual([0, 1]);
    works[1]!.finish();
    await turn();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    works[0]!.finish();
    await turn();
    expect(log.slice(4)).toEqual(['end a', 'start d']);
    works[2]!.finish();
    works[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect([slots.busy, slots.waiting]).toEqual([0, 0]);
  });

  it('gives the slot back when the work throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    expect(await slots.run(async () => 'next')).toBe('next');
    expect(slots.busy).toBe(0);
  });

  it('takes aborted work out of the line without starting it, and the next one moves up', async () => {
    const slots = new Slots(1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const second = gate(log, 'second');
    const third = gate(log, 'third');
    const abort = new AbortController();
    const running = slots.run(first.work);
    const aborted = slots.run(second.work, { signal: abort.signal });
    const waiting = slots.run(third.work);
    expect(slots.waiting).toBe(2);
    abort.abort(new Error('run stopped'));
    await expect(aborted).rejects.toThrow('run stopped');
    expect(slots.waiting).toBe(1);
    first.finish();
    third.finish();
    await Promise.all([running, waiting]);
    expect(log).toEqual(['start first', 'end first', 'start third', 'end third']);
  });

  it('refuses work already aborted, and a size that is not a whole number of 1 or more', async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => 'never', { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(slots.busy).toBe(0);
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => new Slots(size)).toThrow(RangeError);
  });
});
