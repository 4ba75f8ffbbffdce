/**
 * A deadline that moves back by the time a process tree waited for a CPU while runnable: on a
 * busy machine a window (a start's few seconds, a build's 30 s, a page's load) would otherwise end
 * a correct program that was only starved, and fail it. It moves by at most twice the window, so a
 * loop that never ends still meets it. The sandbox's runs and the render's page loads share it.
 */

/** Run-queue wait below this is not given back: no deadline moves for a few milliseconds. */
const STARVED_MIN_MS = 100;
/** How far a deadline may move: up to this many windows in all. */
const WINDOWS_AT_MOST = 3;

export class StarvedDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private windowMs = 0;
  private windowStart = 0;
  private counted = 0;
  private given = 0;

  /**
   * @param waited the tree's run-queue wait so far in ms, or undefined while there is no tree to
   *   read (nothing is given back then); leave it out for a deadline that never moves.
   * @param onTimeUp called once, when the window and what it was given back have passed.
   */
  constructor(
    windowMs: number,
    private readonly onTimeUp: () => void,
    private readonly waited?: () => number | undefined,
  ) {
    this.restart(windowMs);
  }

  /** A new window from now (a start's, after its build): wait that came before it is not given back. */
  restart(windowMs: number): void {
    this.clear();
    this.windowMs = windowMs;
    this.windowStart = performance.now();
    this.counted = this.waited?.() ?? 0;
    this.given = 0;
    this.timer = setTimeout(() => this.timeUp(), windowMs);
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** Ms the deadline has moved by in the present window. */
  get givenBackMs(): number {
    return Math.round(this.given);
  }

  private timeUp(): void {
    const now = this.waited?.();
    const owed = now === undefined ? 0 : now - this.counted;
    const left = this.windowStart + WINDOWS_AT_MOST * this.windowMs - performance.now();
    if (owed >= STARVED_MIN_MS && left > 0) {
      this.counted += owed;
      this.given += Math.min(owed, left);
      this.timer = setTimeout(() => this.timeUp(), Math.min(owed, left));
      return;
    }
    this.onTimeUp();
  }
}

/**
 * `work`, or `timedOut(givenBackMs)` as a rejection once a {@link StarvedDeadline} of `windowMs`
 * passes first. `work` goes on after a timeout: its owner cleans up after it (a page's context is
 * closed, a browser launched late is closed).
 */
export async function withinStarvedDeadline<T>(work: Promise<T>, windowMs: number, waited: () => number | undefined, timedOut: (givenBackMs: number) => Error): Promise<T> {
  let deadline: StarvedDeadline | undefined;
  const late = new Promise<never>((_, reject) => {
    deadline = new StarvedDeadline(windowMs, () => reject(timedOut(deadline!.givenBackMs)), waited);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    deadline!.clear();
  }
}
