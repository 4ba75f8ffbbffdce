export interface SlotOptions {
  /** Takes the work out of the line while it waits: `run` then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called when the work has to wait, with how much waiting work will start before it (see
   * {@link Slots}), and again whenever that number changes (turns given, another user's work
   * placed before it, work before it aborted).
   */
  onWait?: (ahead: number) => void;
  /** Whose work it is (a user): the waiting work takes its turns owner by owner. Work without one shares one line. */
  owner?: string;
}

interface Waiting {
  /** Order of arrival, across owners: breaks ties between owners. */
  seq: number;
  start(): void;
  onWait?: ((ahead: number) => void) | undefined;
  /** What `onWait` was last told. */
  told?: number;
}

/** The key of work given without an owner. */
const NOBODY = '\0';

/**
 * A fixed number of slots taken in turn: work beyond `size` at once waits, and starts as soon as a
 * slot is given back. The waiting work is kept in one line per owner, and a free slot goes to the
 * owner served least recently (one never served since it last had nothing running or waiting
 * first; between equals, the one whose work came first), which then waits behind every other owner
 * before its next turn. So turns go owner by owner: one owner's long line delays another owner's
 * first work by at most one turn of its own, and the work of one owner starts in the order it came.
 * Work that was waiting and is aborted leaves the line without ever starting.
 */
export class Slots {
  private used = 0;
  private seq = 0;
  /** The turns given so far: each owner's last one is kept in `served`. */
  private turns = 0;
  private readonly lines = new Map<string, Waiting[]>();
  private readonly served = new Map<string, number>();
  private readonly holding = new Map<string, number>();

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Slots needs a whole number of slots of 1 or more, not ${size}`);
  }

  /** Work holding a slot now. */
  get busy(): number {
    return this.used;
  }

  /** Work waiting for a slot. */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  async run<T>(work: () => Promise<T>, options: SlotOptions = {}): Promise<T> {
    const owner = options.owner ?? NOBODY;
    await this.take(owner, options);
    try {
      return await work();
    } finally {
      this.giveBack(owner);
    }
  }

  private take(owner: string, { signal, onWait }: SlotOptions): Promise<void> {
    signal?.throwIfAborted();
    if (this.used < this.size && this.waiting === 0) {
      this.used += 1;
      this.startTurn(owner);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const line = this.lines.get(owner) ?? [];
      const onAbort = () => {
        const at = line.findIndex((w) => w === waiting);
        if (at >= 0) line.splice(at, 1);
        if (line.length === 0 && this.lines.get(owner) === line) this.lines.delete(owner);
        this.forgetIfIdle(owner);
        reject(signal?.reason);
        this.retell();
      };
      // The slot is counted as taken by giveBack, before this runs: no one passes in between.
      const waiting: Waiting = {
        seq: this.seq++,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        onWait,
      };
      line.push(waiting);
      this.lines.set(owner, line);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.retell();
    });
  }

  private giveBack(owner: string): void {
    this.holding.set(owner, (this.holding.get(owner) ?? 0) - 1);
    const next = this.nextOwner(this.lines, this.served);
    if (next === undefined) {
      this.used -= 1;
      this.forgetIfIdle(owner);
      return;
    }
    const line = this.lines.get(next)!;
    const waiting = line.shift()!;
    if (line.length === 0) this.lines.delete(next);
    this.startTurn(next);
    this.forgetIfIdle(owner);
    waiting.start();
    this.retell();
  }

  private startTurn(owner: string): void {
    this.served.set(owner, ++this.turns);
    this.holding.set(owner, (this.holding.get(owner) ?? 0) + 1);
  }

  /** An owner with nothing running or waiting starts afresh: its next work is served before owners served since. */
  private forgetIfIdle(owner: string): void {
    if ((this.holding.get(owner) ?? 0) > 0 || this.lines.has(owner)) return;
    this.holding.delete(owner);
    this.served.delete(owner);
  }

  /** The owner whose waiting work gets the next slot: served least recently, then the earliest work. */
  private nextOwner(lines: ReadonlyMap<string, readonly Waiting[]>, served: ReadonlyMap<string, number>): string | undefined {
    let best: { owner: string; turn: number; seq: number } | undefined;
    for (const [owner, line] of lines) {
      const head = line[0];
      if (!head) continue;
      const turn = served.get(owner) ?? 0;
      if (!best || turn < best.turn || (turn === best.turn && head.seq < best.seq)) best = { owner, turn, seq: head.seq };
    }
    return best?.owner;
  }

  /** Tells each waiting work whose number before it changed (see {@link SlotOptions.onWait}). */
  private retell(): void {
    const order = this.order();
    order.forEach((waiting, ahead) => {
      if (!waiting.onWait || waiting.told === ahead) return;
      waiting.told = ahead;
      waiting.onWait(ahead);
    });
  }

  /** The waiting work in the order it will start, if nothing else comes. */
  private order(): Waiting[] {
    const lines = new Map([...this.lines].map(([o, line]) => [o, [...line]]));
    const served = new Map(this.served);
    let turns = this.turns;
    const order: Waiting[] = [];
    for (let next = this.nextOwner(lines, served); next !== undefined; next = this.nextOwner(lines, served)) {
      const line = lines.get(next)!;
      order.push(line.shift()!);
      if (line.length === 0) lines.delete(next);
      served.set(next, ++turns);
    }
    return order;
  }
}
