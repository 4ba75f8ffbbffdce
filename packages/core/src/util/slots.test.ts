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
  it("gives the turns user by user: one user's long line delays another user's first work by at most one turn", async () => {
    const slots = new Slots(1);
    const log: string[] = [];
    const ahead: Record<string, number> = {};
    const works = new Map<string, ReturnType<typeof gate>>();
    const queue = (owner: string, name: string) => {
      const w = gate(log, name);
      works.set(name, w);
      return slots.run(w.work, { owner, onWait: (n) => (ahead[name] = n) });
    };
    // Ann asks for eight at once; the first runs, seven wait.
    const anns = Array.from({ length: 8 }, (_, i) => queue('ann', `ann${i}`));
    await turn();
    expect(log).toEqual(['start ann0']);
    expect(ahead).toEqual({ ann1: 0, ann2: 1, ann3: 2, ann4: 3, ann5: 4, ann6: 5, ann7: 6 });
    // Bob's build comes later, and still runs next: Ann has had her turn.
    const bob = queue('bob', 'bob0');
    expect(ahead['bob0']).toBe(0);
    // Cy comes after Bob: after Bob, before Ann's second.
    const cy = queue('cy', 'cy0');
    expect(ahead['cy0']).toBe(1);
    // Bob's second waits for Cy and one of Ann's (served before his second turn).
    const bob2 = queue('bob', 'bob1');
    expect(ahead['bob1']).toBe(3);
    // Ann's waiting ones were told each time someone came before them: her second now has two.
    expect([ahead['ann1'], ahead['ann7']]).toEqual([2, 9]);
    const order: string[] = [];
    for (const name of ['ann0', 'bob0', 'cy0', 'ann1', 'bob1', 'ann2', 'ann3', 'ann4', 'ann5', 'ann6', 'ann7']) {
      expect(log.at(-1)).toBe(`start ${name}`);
      order.push(name);
      works.get(name)!.finish();
      await turn();
    }
    expect(log.filter((l) => l.startsWith('start'))).toEqual(order.map((n) => `start ${n}`));
    await Promise.all([...anns, bob, cy, bob2]);
    expect([slots.busy, slots.waiting]).toEqual([0, 0]);
  });

  it('with several slots, never runs more than its size, and a user who had nothing running goes before one who had', async () => {
    const slots = new Slots(2);
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const works: Array<ReturnType<typeof gate>> = [];
    const queue = (owner: string, name: string) => {
      const w = gate(log, name);
      works.push(w);
      return slots.run(
        async () => {
          running += 1;
          peak = Math.max(peak, running);
          try {
            return await w.work();
          } finally {
            running -= 1;
          }
        },
        { owner },
      );
    };
    const all = [...['a0', 'a1', 'a2', 'a3'].map((n) => queue('ann', n)), queue('bob', 'b0')];
    await turn();
    expect(log).toEqual(['start a0', 'start a1']);
    works[0]!.finish();
    await turn();
    // Bob was not served yet; Ann was, twice.
    expect(log.at(-1)).toBe('start b0');
    for (const w of works) w.finish();
    for (let i = 0; i < 5; i += 1) {
      await turn();
      for (const w of works) w.finish();
    }
    await Promise.all(all);
    expect(peak).toBe(2);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a0', 'start a1', 'start b0', 'start a2', 'start a3']);
  });

  it("takes a user's aborted work out of their line, and their next one keeps its place among the users", async () => {
    const slots = new Slots(1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const running = slots.run(first.work, { owner: 'ann' });
    const abort = new AbortController();
    const aborted = slots.run(gate(log, 'ann-aborted').work, { owner: 'ann', signal: abort.signal });
    const ann = gate(log, 'ann-next');
    const annNext = slots.run(ann.work, { owner: 'ann' });
    const bob = gate(log, 'bob');
    let bobAhead = -1;
    const bobRun = slots.run(bob.work, { owner: 'bob', onWait: (n) => (bobAhead = n) });
    expect(bobAhead).toBe(0);
    abort.abort(new Error('left'));
    await expect(aborted).rejects.toThrow('left');
    expect(slots.waiting).toBe(2);
    first.finish();
    await turn();
    expect(log.at(-1)).toBe('start bob');
    bob.finish();
    await turn();
    expect(log.at(-1)).toBe('start ann-next');
    ann.finish();
    await Promise.all([running, annNext, bobRun]);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start first', 'start bob', 'start ann-next']);
  });
});
