import type { PipelineEvent } from '@wolfpack/core';

export type RunListener = (seq: number, event: PipelineEvent) => void;

/**
 * The number a listener gets with a notice: an event that could not be stored (the database is
 * unreachable, or full), sent live to the run's followers here and never replayed.
 */
export const NOTICE = -1;
/** How long the last words of a run that could not store its end are kept for a stream that opens late. */
const LAST_WORDS_MS = 60_000;

/** A run's events published in this process, in order and without gaps from `firstSeq`. */
interface Tail {
  firstSeq: number;
  events: Array<{ seq: number; event: PipelineEvent }>;
}

/**
 * How many of a live run's latest events the hub keeps, so that a stream opened on it replays
 * from memory instead of the database (a crowd opening 1,000 streams is 1,000 selects otherwise).
 * A run's events are small (about 200 bytes in the demo); an older event comes from the database.
 */
export const TAIL_EVENTS = 1_000;

/**
 * Live delivery of a run's events inside this process. Events are stored before they are
 * published here, so a subscriber that replays from the database and then listens misses nothing:
 * it ignores what it already replayed by sequence number.
 */
export class RunHub {
  private readonly listeners = new Map<string, Set<RunListener>>();
  private readonly finished = new Map<string, Set<() => void>>();
  private readonly tails = new Map<string, Tail>();
  private readonly lastWords = new Map<string, { event: PipelineEvent; timer: NodeJS.Timeout }>();

  /**
   * This process starts running the run, its next event numbered `nextSeq`: from now on the hub
   * keeps its latest events (everything before `nextSeq` is in the database already).
   */
  begin(runId: string, nextSeq: number): void {
    this.tails.set(runId, { firstSeq: nextSeq, events: [] });
  }

  publish(runId: string, seq: number, event: PipelineEvent): void {
    const tail = this.tails.get(runId);
    if (tail) {
      const last = tail.events.at(-1)?.seq ?? tail.firstSeq - 1;
      if (seq === last + 1) {
        tail.events.push({ seq, event });
        if (tail.events.length > TAIL_EVENTS) tail.firstSeq = tail.events.shift()!.seq + 1;
      } else if (seq > last) {
        // A gap would replay wrong: forget the tail, the database has it all.
        this.tails.delete(runId);
      }
    }
    for (const listener of this.listeners.get(runId) ?? []) listener(seq, event);
  }

  /**
   * The run's published events after `afterSeq`, when the hub has every one of them (undefined:
   * read the database). Events stored but not yet published are not here: they come to a
   * subscriber that subscribed before asking.
   */
  eventsAfter(runId: string, afterSeq: number): Array<{ seq: number; event: PipelineEvent }> | undefined {
    const tail = this.tails.get(runId);
    if (!tail || afterSeq + 1 < tail.firstSeq) return undefined;
    const from = tail.events.findIndex((e) => e.seq > afterSeq);
    return from < 0 ? [] : tail.events.slice(from);
  }

  subscribe(runId: string, listener: RunListener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }

  /** Sends `event` to the run's followers in this process now, unstored and unnumbered (see {@link NOTICE}). */
  notice(runId: string, event: PipelineEvent): void {
    for (const listener of this.listeners.get(runId) ?? []) listener(NOTICE, event);
  }

  /**
   * What ended a run whose end could not be stored (its `error` event), for a stream that opens
   * after the run stopped here: the database does not have it.
   */
  lastWordsOf(runId: string): PipelineEvent | undefined {
    return this.lastWords.get(runId)?.event;
  }

  /**
   * Called when this process stops running the run (done, failed or shutting down). `lastWords`:
   * the run's end could not be stored, and this (an `error` event) is what its followers hear instead.
   */
  end(runId: string, lastWords?: PipelineEvent): void {
    if (lastWords) {
      clearTimeout(this.lastWords.get(runId)?.timer);
      const timer = setTimeout(() => this.lastWords.delete(runId), LAST_WORDS_MS);
      timer.unref();
      this.lastWords.set(runId, { event: lastWords, timer });
      this.notice(runId, lastWords);
    }
    this.tails.delete(runId);
    for (const done of this.finished.get(runId) ?? []) done();
    this.finished.delete(runId);
  }

  onEnd(runId: string, done: () => void): () => void {
    let set = this.finished.get(runId);
    if (!set) this.finished.set(runId, (set = new Set()));
    set.add(done);
    return () => set.delete(done);
  }
}
