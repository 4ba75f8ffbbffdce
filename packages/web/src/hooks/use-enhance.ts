/**
 * AI Enhance for the build screen: one {@link EnhanceRunner} per mounted screen. Its feed lines go
 * into the same Activity Feed as the run's; a non-empty result replaces the prompt; leaving the
 * screen stops the enhancement (the server then stops the engines).
 */
import type { Attachment } from '@wolfpack/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { EnhanceRunner } from '../lib/enhance-runner';
import { EMPTY_RESULT_MESSAGE, type EnhanceEffect } from '../lib/enhance-state';
import { pipelineRunner } from './use-pipeline-run';
import { toast } from './use-toast';

export interface UseEnhanceOptions {
  /** Receives the enhanced prompt (or the original one when the user restores it). */
  onPrompt: (prompt: string) => void;
}

export function useEnhance({ onPrompt }: UseEnhanceOptions) {
  const onPromptRef = useRef(onPrompt);
  onPromptRef.current = onPrompt;

  const [runner] = useState(
    () =>
      new EnhanceRunner({
        fetch: (input, init) => window.fetch(input, init),
        onEffect: (effect: EnhanceEffect) => {
          switch (effect.type) {
            case 'log':
              pipelineRunner.pushFeed(effect.item);
              return;
            case 'replace-prompt':
              onPromptRef.current(effect.prompt);
              return;
            case 'empty-result':
              toast({ title: 'Enhancement Issue', description: EMPTY_RESULT_MESSAGE });
              return;
            case 'failed':
              toast({
                title: 'Enhancement Failed',
                description: effect.description ?? 'The prompt could not be enhanced. Your prompt is unchanged; try again.',
                variant: 'destructive',
              });
              return;
            default: {
              const unreachable: never = effect;
              return unreachable;
            }
          }
        },
      }),
  );
  const state = useSyncExternalStore(runner.subscribe, runner.getState, runner.getState);

  useEffect(() => () => runner.cancel(), [runner]);

  const restoreOriginal = useCallback(() => {
    const original = runner.getState().originalPrompt;
    if (original !== null) onPromptRef.current(original);
    runner.dismiss();
  }, [runner]);

  return {
    state,
    enhancing: state.phase === 'enhancing',
    enhance: useCallback(
      (prompt: string, attachments: readonly Attachment[]) => void runner.enhance(prompt, attachments),
      [runner],
    ),
    dismiss: useCallback(() => runner.dismiss(), [runner]),
    restoreOriginal,
  };
}
