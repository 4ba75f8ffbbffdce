/**
 * The stream watchdog's timer for tests (ResilienceOptions.watchdogTimer): it fires only when the
 * test fires it, so a stream on a loaded machine never stalls by accident, and a test of a stall
 * needs no real wait.
 */
export class ManualWatchdog {
  private armed: { ms: number; fire: () => void } | undefined;
  private waiting: Array<() => void> = [];

  readonly timer = (fire: () => void, ms: number): (() => void) => {
    const armed = { ms, fire };
    this.armed = armed;
    for (const wake of this.waiting.splice(0)) wake();
    return () => {
      if (this.armed === armed) this.armed = undefined;
    };
  };

  /** Fires the watchdog once it is armed for `ms`: what a silence that long does. */
  async fire(ms: number): Promise<void> {
    while (this.armed?.ms !== ms) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.armed.fire();
  }
}
