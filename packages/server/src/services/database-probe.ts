/**
 * Whether the database answers, for GET /api/health. A load balancer probes often, and under load
 * a probe that queries each time costs a round trip the requests beside it wait behind: probes
 * that arrive together share one `select 1`, and an answer is good for `freshMs` after it came.
 * A failure is never kept: the next probe asks again.
 */
export class DatabaseProbe {
  private answeredAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;

  constructor(
    /** One question to the database (`select 1`). */
    private readonly ask: () => Promise<unknown>,
    private readonly freshMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves once the database has answered within `freshMs`; rejects with the database's error. */
  check(): Promise<void> {
    if (this.now() - this.answeredAt < this.freshMs) return Promise.resolve();
    this.inFlight ??= this.ask()
      .then(() => {
        this.answeredAt = this.now();
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
