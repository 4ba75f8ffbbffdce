/**
 * When the savings popup shows (spec core §2 Home, §4, §9): checked every 5 minutes, shown at
 * most once per 60 minutes, only when the user has runs and neither a finished project nor a run
 * in progress is waiting for them. Time and timers are injected, so tests drive it with fake time.
 */

/** How often the popup's conditions are checked. */
export const SAVINGS_POPUP_CHECK_MS = 5 * 60_000;
/** The popup shows at most once in this long. */
export const SAVINGS_POPUP_MIN_GAP_MS = 60 * 60_000;

/** What the decision needs to know, besides the time. */
export interface SavingsPopupFacts {
  /** Runs counted in this browser. */
  runs: number;
  /** Epoch ms of the last showing, null when it never showed. */
  lastShownAt: number | null;
  /** A completed project waits on the build screen (its banner is showing). */
  projectPending: boolean;
  /** A run is under way (or stored as under way). */
  runPending: boolean;
}

/** True when the popup should show at `now` (epoch ms). */
export function shouldShowSavingsPopup(facts: SavingsPopupFacts, now: number, minGapMs: number = SAVINGS_POPUP_MIN_GAP_MS): boolean {
  if (facts.runs <= 0 || facts.projectPending || facts.runPending) return false;
  if (facts.lastShownAt === null) return true;
  // A last showing "in the future" means the clock was set back: do not wait an unknown time.
  return now - facts.lastShownAt >= minGapMs || facts.lastShownAt > now;
}

/** The timer functions the checks use (the browser's by default). */
export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SavingsPopupChecksOptions {
  /** Reads the current facts at each check. */
  read(): SavingsPopupFacts;
  /** Shows the popup; called with the time it showed, which the caller stores as lastShownAt. */
  show(now: number): void;
  /** @default SAVINGS_POPUP_CHECK_MS */
  checkEveryMs?: number;
  /** @default SAVINGS_POPUP_MIN_GAP_MS */
  minGapMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default globalThis.setInterval / clearInterval */
  timers?: IntervalTimers;
}

/** Starts the periodic checks (the first one after one interval); returns the stop function. */
export function startSavingsPopupChecks(options: SavingsPopupChecksOptions): () => void {
  const now = options.now ?? Date.now;
  const timers: IntervalTimers = options.timers ?? {
    setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
    clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  };
  const handle = timers.setInterval(() => {
    const at = now();
    if (shouldShowSavingsPopup(options.read(), at, options.minGapMs)) options.show(at);
  }, options.checkEveryMs ?? SAVINGS_POPUP_CHECK_MS);
  return () => timers.clearInterval(handle);
}

/** Parses the stored last-shown time: a finite positive number of ms, else null. */
export function parseShownAt(raw: string | null): number | null {
  if (!raw) return null;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : null;
}
