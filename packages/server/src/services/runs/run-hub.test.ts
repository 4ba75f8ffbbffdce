/**
 * The hub's memory of a live run's latest events: a stream opened on the run replays from it only
 * when it holds every event the stream needs, in order and without gaps; otherwise the database.
 */
import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '@wolfpack/core';
import { RunHub, TAIL_EVENTS } from './run-hub.js';

const log = (message: string): PipelineEvent => ({ type: 'log', id: message, level: 'info', message, timestamp: '2026-11-27T00:00:00.000Z' });
const seqs = (events: Array<{ seq: number }> | undefined) => events?.map((e) => e.seq);

describe('RunHub tail', () => {
  it('replays what this process published since it began the run, and nothing before', () => {
    const hub = new RunHub();
    expect(hub.eventsAfter('r', 0)).toBeUndefined(); // not run here: the database
    hub.begin('r', 4); // a continued run: events 1-3 are stored by the attempt before
    for (const seq of [4, 5, 6]) hub.publish('r', seq, log(`e${seq}`));
    expect(seqs(hub.eventsAfter('r', 3))).toEqual([4, 5, 6]);
    expect(seqs(hub.eventsAfter('r', 5))).toEqual([6]);
    expect(seqs(hub.eventsAfter('r', 6))).toEqual([]);
    expect(hub.eventsAfter('r', 2)).toBeUndefined(); // event 3 is only in the database
    expect(hub.eventsAfter('r', 0)).toBeUndefined();
  });

  it('hands subscribers the same events, and forgets the run when it ends here', () => {
    const hub = new RunHub();
    hub.begin('r', 1);
    const heard: number[] = [];
    const unsubscribe = hub.subscribe('r', (seq) => heard.push(seq));
    hub.publish('r', 1, log('a'));
    hub.publish('r', 2, log('b'));
    unsubscribe();
    hub.publish('r', 3, log('c'));
    expect(heard).toEqual([1, 2]);
    expect(seqs(hub.eventsAfter('r', 0))).toEqual([1, 2, 3]);
    let ended = false;
    hub.onEnd('r', () => (ended = true));
    hub.end('r');
    expect(ended).toBe(true);
    expect(hub.eventsAfter('r', 0)).toBeUndefined();
  });

  it('gives up its memory of a run at a gap in the numbers (the database has them all)', () => {
    const hub = new RunHub();
    hub.begin('r', 1);
    hub.publish('r', 1, log('a'));
    hub.publish('r', 3, log('c'));
    expect(hub.eventsAfter('r', 0)).toBeUndefined();
    expect(hub.eventsAfter('r', 3)).toBeUndefined();
  });

  it('keeps only the latest events of a long run; older ones come from the database', () => {
    const hub = new RunHub();
    hub.begin('r', 1);
    for (let seq = 1; seq <= TAIL_EVENTS + 5; seq++) hub.publish('r', seq, log(`e${seq}`));
    expect(hub.eventsAfter('r', 0)).toBeUndefined();
    expect(hub.eventsAfter('r', 4)).toBeUndefined();
    expect(seqs(hub.eventsAfter('r', 5))?.length).toBe(TAIL_EVENTS);
    expect(seqs(hub.eventsAfter('r', TAIL_EVENTS + 3))).toEqual([TAIL_EVENTS + 4, TAIL_EVENTS + 5]);
  });
});
