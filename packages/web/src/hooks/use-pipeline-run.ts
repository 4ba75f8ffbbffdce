/**
 * The build screen's run, shared by every component of the screen. One runner lives for the whole
 * page view, so a run goes on while the user looks at another screen and comes back.
 *
 * On page load the stored pipeline state is cleared (spec core §4: every visit starts fresh),
 * except that a run still under way when the page was reloaded is reattached: its id is the only
 * stored value read back, and only for that.
 */
import type { Attachment, StreamRequestInput } from '@wolfpack/core';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { queryClient } from '../api/client';
import { invalidateAfterRun, invalidateMoney } from '../api/queries';
import {
  completedProjectIdStore,
  continueProjectIdStore,
  currentPipelineIdStore,
  pipelineProgressStore,
} from '../lib/build-stores';
import { PipelineRunner } from '../lib/pipeline-runner';
import { isRunActive, type RunEffect, type RunResult } from '../lib/pipeline-state';
import { bannerVerdict } from '../lib/verification-view';
import { recordSavedRun } from './use-savings-counters';
import { toast } from './use-toast';

function forgetRun(): void {
  currentPipelineIdStore.remove();
  pipelineProgressStore.remove();
}

/** Carries out what a pipeline event calls for. */
function applyEffect(effect: RunEffect): void {
  switch (effect.type) {
    case 'run-started':
      currentPipelineIdStore.set(effect.runId);
      return;
    case 'progress': {
      const { current, total, percent } = effect.progress;
      pipelineProgressStore.set({ current, total, percent });
      return;
    }
    case 'completed': {
      forgetRun();
      completedProjectIdStore.set(effect.result.projectId);
      recordSavedRun(effect.result.executionSeconds);
      void invalidateAfterRun(queryClient);
      toast(completedNotice(effect.result));
      return;
    }
    case 'failed':
      forgetRun();
      // A failed run counts in the statistics (Success Rate) and the history, like a completed one.
      void invalidateAfterRun(queryClient);
      toast({ title: 'Pipeline Failed', description: effect.error, variant: 'destructive' });
      return;
    case 'payment-required':
      // The run id stays stored: after a top-up (a full trip to Checkout) the page reattaches and
      // offers Resume.
      pipelineProgressStore.remove();
      void invalidateMoney(queryClient);
      toast({ title: 'Not Enough Credits', description: effect.error, variant: 'destructive' });
      return;
    case 'run-forgotten':
      forgetRun();
      return;
    default: {
      const unreachable: never = effect;
      return unreachable;
    }
  }
}

/**
 * The toast of a completed run. A repair run generated nothing new, and "Success!" would be a lie
 * when its gate still fails: it says what Proven Code found.
 */
export function completedNotice(result: RunResult): { title: string; description: string } {
  if (result.onlyStages === null) {
    const files = result.filesGenerated;
    return { title: 'Success!', description: `The pack generated ${files} ${files === 1 ? 'file' : 'files'}.` };
  }
  const verdict = bannerVerdict(result.verification);
  switch (verdict) {
    case 'passed':
      return { title: 'Repair finished', description: 'The project passes Proven Code now.' };
    case 'failed':
      return { title: 'Repair finished', description: 'Proven Code still fails; the banner lists what failed.' };
    case 'unproven':
    case 'unknown':
      return { title: 'Repair finished', description: 'Nothing fails any more, but the project is not proven.' };
    default: {
      const unreachable: never = verdict;
      return unreachable;
    }
  }
}

export const pipelineRunner = new PipelineRunner({
  fetch: (input, init) => window.fetch(input, init),
  onEffect: applyEffect,
  notify: (notice) => toast(notice),
});

let pageLoaded = false;

/** Once per page load: clears stored pipeline state and reattaches to a run still under way. */
function onPageLoad(): void {
  if (pageLoaded) return;
  pageLoaded = true;
  completedProjectIdStore.remove();
  pipelineProgressStore.remove();
  const runId = currentPipelineIdStore.get();
  if (runId) void pipelineRunner.reattach(runId);
}

/** What a start needs besides the idea. */
export interface StartOptions {
  attachments?: readonly Attachment[];
  /** Engine keys in stage order; empty lets the server choose. */
  modelOrder?: readonly string[];
  /** Builds on this project instead of the stored continue-project id. */
  projectId?: string | undefined;
}

/** The run's state and its actions. */
export function usePipelineRun() {
  const state = useSyncExternalStore(pipelineRunner.subscribe, pipelineRunner.getState, pipelineRunner.getState);

  useEffect(onPageLoad, []);

  const start = useCallback((idea: string, options: StartOptions = {}) => {
    const projectId = options.projectId ?? continueProjectIdStore.get() ?? undefined;
    const body: StreamRequestInput = { idea, modelOrder: [...(options.modelOrder ?? [])], cycles: 1 };
    if (projectId) body.projectId = projectId;
    if (options.attachments && options.attachments.length > 0) body.attachments = [...options.attachments];
    // The continue id is used once: the run that sends it builds on the project (spec core §4).
    if (projectId) continueProjectIdStore.remove();
    completedProjectIdStore.remove();
    return pipelineRunner.start({ kind: 'build', request: body });
  }, []);

  /** "Repair again" on a project whose Proven Code gate failed: a run of Proven Code alone. */
  const repair = useCallback((projectId: string, options: Pick<StartOptions, 'modelOrder'> = {}) => {
    if (isRunActive(pipelineRunner.getState().phase)) {
      // The build screen follows one run at a time; the one under way goes on.
      toast({ title: 'A run is under way', description: 'Wait for it to finish, then choose Repair again.', variant: 'destructive' });
      return Promise.resolve();
    }
    completedProjectIdStore.remove();
    const request = options.modelOrder && options.modelOrder.length > 0 ? { modelOrder: [...options.modelOrder] } : {};
    return pipelineRunner.start({ kind: 'repair', projectId, request });
  }, []);

  return {
    state,
    start,
    repair,
    resume: useCallback(() => pipelineRunner.resume(), []),
    reconnect: useCallback(() => pipelineRunner.reconnect(), []),
    log: useCallback((type: string, message: string) => pipelineRunner.log(type, message), []),
    clearFeed: useCallback(() => pipelineRunner.clearFeed(), []),
    dismissResult: useCallback(() => pipelineRunner.dismissResult(), []),
  };
}
