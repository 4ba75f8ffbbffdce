/**
 * The build screen's savings popup (spec core §2, §9): checked every 5 minutes of the visit, shown
 * at most once per 60 minutes (the last showing is remembered in the browser), only when the
 * account has runs (the server's count, the one Home's savings card shows) and neither a new
 * project nor a run in progress is pending (lib/savings-popup.ts says what those mean).
 */
import { useEffect, useRef, useState } from 'react';
import { currentPipelineIdStore } from '../lib/build-stores';
import { isRunActive } from '../lib/pipeline-state';
import { nextCheckDelay, parseShownAt, resultPending, SAVINGS_POPUP_CHECK_MS, startSavingsPopupChecks, type SavingsPopupChecksOptions } from '../lib/savings-popup';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createStoredValue } from './use-stored-value';
import { pipelineRunner } from './use-pipeline-run';

export const savingsPopupShownAtStore = createStoredValue<number | null>(STORAGE_KEYS.savingsPopupShownAt, parseShownAt, (at) => String(at ?? ''));

/** Overrides for tests: the intervals and the clock. */
export type SavingsPopupTiming = Pick<SavingsPopupChecksOptions, 'checkEveryMs' | 'minGapMs' | 'now'>;

/**
 * The visit's side of the checks, kept for the whole page view (like the run itself): when the
 * last check was made (when the checks first started, before the first), and when the last run
 * finished.
 */
let lastCheckAt: number | null = null;
let lastFinishedAt: number | null = null;
let lastPhase = pipelineRunner.getState().phase;
pipelineRunner.subscribe(() => {
  const { phase } = pipelineRunner.getState();
  if (phase === 'complete' && lastPhase !== 'complete') lastFinishedAt = Date.now();
  lastPhase = phase;
});

/** `runs`: the account's completed runs (0 while unknown or signed out: no popup). */
export function useSavingsPopup(runs: number, timing: SavingsPopupTiming = {}) {
  const [open, setOpen] = useState(false);
  const { checkEveryMs, minGapMs, now } = timing;
  // Read at each check: the count changes without restarting the checks' rhythm.
  const runsRef = useRef(runs);
  runsRef.current = runs;

  useEffect(() => {
    const clock = now ?? Date.now;
    const every = checkEveryMs ?? SAVINGS_POPUP_CHECK_MS;
    lastCheckAt ??= clock();
    return startSavingsPopupChecks({
      read: () => ({
        runs: runsRef.current,
        lastShownAt: savingsPopupShownAtStore.get(),
        projectPending: resultPending(lastFinishedAt, clock(), every),
        runPending: isRunActive(pipelineRunner.getState().phase) || currentPipelineIdStore.get() !== null,
      }),
      show: (at) => {
        savingsPopupShownAtStore.set(at);
        setOpen(true);
      },
      checked: (at) => {
        lastCheckAt = at;
      },
      firstCheckInMs: nextCheckDelay(lastCheckAt, clock(), every),
      checkEveryMs: every,
      ...(minGapMs === undefined ? {} : { minGapMs }),
      ...(now === undefined ? {} : { now }),
    });
  }, [checkEveryMs, minGapMs, now]);

  return { open, setOpen };
}
