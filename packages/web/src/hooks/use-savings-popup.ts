/**
 * The build screen's savings popup (spec core §2, §9): checked every 5 minutes, shown at most once
 * per 60 minutes (the last showing is remembered in the browser), only when this browser has runs
 * and neither a finished project nor a run in progress is pending.
 */
import { useEffect, useState } from 'react';
import { completedProjectIdStore, currentPipelineIdStore } from '../lib/build-stores';
import { isRunActive } from '../lib/pipeline-state';
import { parseShownAt, startSavingsPopupChecks, type SavingsPopupChecksOptions } from '../lib/savings-popup';
import { readSavingsCounters } from '../lib/savings-counters';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createStoredValue } from './use-stored-value';
import { pipelineRunner } from './use-pipeline-run';

export const savingsPopupShownAtStore = createStoredValue<number | null>(STORAGE_KEYS.savingsPopupShownAt, parseShownAt, (at) => String(at ?? ''));

/** Overrides for tests: the intervals and the clock. */
export type SavingsPopupTiming = Pick<SavingsPopupChecksOptions, 'checkEveryMs' | 'minGapMs' | 'now'>;

/** Runs counted in this browser; 0 when storage cannot be read. */
function storedRuns(): number {
  try {
    return readSavingsCounters(window.localStorage).total.runs;
  } catch {
    return 0;
  }
}

export function useSavingsPopup(timing: SavingsPopupTiming = {}) {
  const [open, setOpen] = useState(false);
  const { checkEveryMs, minGapMs, now } = timing;

  useEffect(
    () =>
      startSavingsPopupChecks({
        read: () => ({
          runs: storedRuns(),
          lastShownAt: savingsPopupShownAtStore.get(),
          projectPending: completedProjectIdStore.get() !== null,
          runPending: isRunActive(pipelineRunner.getState().phase) || currentPipelineIdStore.get() !== null,
        }),
        show: (at) => {
          savingsPopupShownAtStore.set(at);
          setOpen(true);
        },
        ...(checkEveryMs === undefined ? {} : { checkEveryMs }),
        ...(minGapMs === undefined ? {} : { minGapMs }),
        ...(now === undefined ? {} : { now }),
      }),
    [checkEveryMs, minGapMs, now],
  );

  return { open, setOpen };
}
