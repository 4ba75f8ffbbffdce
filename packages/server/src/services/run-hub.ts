import type { PipelineEvent } from '@wolfpack/core';

export type RunListener = (seq: number, event: PipelineEvent) => void;

/**
 * Live delivery of a run's events inside this process. Events are stored before they are
 * published here, so a subscriber that replays from the database and then listens misses nothing:
 * it ignores what it already replayed by sequence number.
 */
export class RunHub {
  private readonly listeners = new Map<string, Set<RunListener>>();
  private readonly finished = new Map<string, Set<() => void>>();

  publish(runId: string, seq: number, event: PipelineEvent): void {
    for (const listener of this.listeners.get(runId) ?? []) listener(seq, event);
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

  /** Called when this process stops running the run (done, failed or shutting down). */
  end(runId: string): void {
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
