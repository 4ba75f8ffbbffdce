export interface SlotOptions {
  /** Takes the work out of the line while it waits: `run` then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called once when the work has to wait, with how many were waiting before it. */
  onWait?: (ahead: number) => void;
}

/**
 * A fixed number of slots taken in turn: work beyond `size` at once waits, first come first
 * served, and starts as soon as a slot is given back. Work that was waiting and is aborted leaves
 * the line without ever starting.
 */
export class Slots {
  private used = 0;
  private readonly line: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Slots needs a whole number of slots of 1 or more, not ${size}`);
  }

  /** Work holding a slot now. */
  get busy(): number {
    return this.used;
  }

  /** Work waiting for a slot. */
  get waiting(): number {
    return this.line.length;
  }

  async run<T>(work: () => Promise<T>, options: SlotOptions = {}): Promise<T> {
    await this.take(options);
    try {
      return await work();
    } finally {
      this.giveBack();
    }
  }

  private take({ signal, onWait }: SlotOptions): Promise<void> {
    signal?.throwIfAborted();
    if (this.used < this.size && this.line.length === 0) {
      this.used += 1;
      return Promise.resolve();
    }
    onWait?.(this.line.length);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.line.indexOf(start);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal?.reason);
      };
      // The slot is counted as taken by giveBack, before this runs: no one passes in between.
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.line.push(start);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private giveBack(): void {
    const next = this.line.shift();
    if (next) next();
    else this.used -= 1;
  }
}
