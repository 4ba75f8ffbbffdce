/**
 * When the savings popup shows (spec core §2 Home, §4, §9): checked every 5 minutes, shown at
 * most once per 60 minutes, only when the user has runs and neither a finished project nor a run
 * in progress is waiting for them. Time and timers are injected, so tests drive it with fake time.
 *
 * "Checked every 5 minutes" counts minutes of the visit, not of one stay on Home: a check that
 * came due while the user was on another screen is made on the way back. A finished project is
 * pending while it is new (finished less than one check ago): the popup does not cover a result
 * that has just arrived, and a banner left open does not hold it back for the rest of the visit.
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

/**
 * True while the last finished run's project is new: it finished less than `freshMs` (one check)
 * before `now`. Null when no run finished during this visit.
 */
export function resultPending(finishedAt: number | null, now: number, freshMs: number = SAVINGS_POPUP_CHECK_MS): boolean {
  return finishedAt !== null && now - finishedAt < freshMs && now >= finishedAt;
}

/**
 * How long until the next check: one interval after the last check of the visit (or its start),
 * at once when that moment passed while the checks were not running (another screen was shown).
 */
export function nextCheckDelay(lastCheckAt: number, now: number, checkEveryMs: number = SAVINGS_POPUP_CHECK_MS): number {
  const due = lastCheckAt + checkEveryMs - now;
  // A last check "in the future" means the clock was set back: wait one interval, not longer.
  return Math.min(checkEveryMs, Math.max(0, due));
}

/** The timer functions the checks use (the browser's by default). */
export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  /** For a first check sooner than one interval ({@link SavingsPopupChecksOptions.firstCheckInMs}). */
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
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
  /** @default globalThis.setInterval / clearInterval (and setTimeout / clearTimeout) */
  timers?: IntervalTimers;
  /**
   * When the first check comes (see {@link nextCheckDelay}); the later ones follow every
   * `checkEveryMs`. @default checkEveryMs
   */
  firstCheckInMs?: number;
  /** Called at every check with its time, whatever it decided (the visit's last check). */
  checked?(at: number): void;
}

const BROWSER_TIMERS: Required<IntervalTimers> = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Starts the periodic checks (the first one after `firstCheckInMs`); returns the stop function. */
export function startSavingsPopupChecks(options: SavingsPopupChecksOptions): () => void {
  const now = options.now ?? Date.now;
  const timers: IntervalTimers = options.timers ?? BROWSER_TIMERS;
  const every = options.checkEveryMs ?? SAVINGS_POPUP_CHECK_MS;
  const check = () => {
    const at = now();
    options.checked?.(at);
    if (shouldShowSavingsPopup(options.read(), at, options.minGapMs)) options.show(at);
  };
  const first = options.firstCheckInMs ?? every;
  if (first === every || !timers.setTimeout) {
    const handle = timers.setInterval(check, every);
    return () => timers.clearInterval(handle);
  }
  let interval: unknown;
  const timeout = timers.setTimeout(() => {
    interval = timers.setInterval(check, every);
    check();
  }, first);
  return () => {
    timers.clearTimeout?.(timeout);
    if (interval !== undefined) timers.clearInterval(interval);
  };
}

/** Parses the stored last-shown time: a finite positive number of ms, else null. */
export function parseShownAt(raw: string | null): number | null {
  if (!raw) return null;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : null;
}
