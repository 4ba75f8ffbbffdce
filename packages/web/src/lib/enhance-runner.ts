/**
 * Runs AI Enhance on the build screen over core's enhancement follower (`followEnhancement`) and
 * feeds every event through enhance-state.ts. Framework-free: the React hook subscribes to it,
 * tests drive it with a fake fetch.
 *
 * Unlike a pipeline run, an enhancement is not resumable: the server stops it when the client
 * leaves, so there is nothing to reattach to and a dropped connection is simply a failure.
 */
import { isAppError, type Attachment } from '@wolfpack/core';
import { EmptyStreamError, ENHANCE_PATH, EnhancementLostError, fetchTransport, followEnhancement, ServerRefusal } from '@wolfpack/core/client';
import { applyEnhancementEvent, failEnhancement, initialEnhanceState, startEnhancement, type EnhanceEffect, type EnhanceState, type EnhanceTransition } from './enhance-state';

export const ENHANCE_URL = ENHANCE_PATH;

export interface EnhanceRunnerDeps {
  fetch: typeof fetch;
  /** Carries out what the enhancement calls for (feed lines, the new prompt, toasts). */
  onEffect?: (effect: EnhanceEffect) => void;
}

/** Sentences for failures the server could not describe. */
export const ENHANCE_FAILURES = {
  unreachable: 'The server could not be reached. Check your connection and try again.',
  dropped: 'The connection closed before the enhancement finished. Please try again.',
} as const;

export class EnhanceRunner {
  private state: EnhanceState = initialEnhanceState;
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | undefined;

  constructor(private readonly deps: EnhanceRunnerDeps) {}

  readonly getState = (): EnhanceState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private apply({ state, effects }: EnhanceTransition): void {
    this.set(state);
    for (const effect of effects) this.deps.onEffect?.(effect);
  }

  private set(state: EnhanceState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** Enhances `prompt`. Ignored while an enhancement is under way or when the prompt is blank. */
  async enhance(prompt: string, attachments: readonly Attachment[] = []): Promise<void> {
    if (this.state.phase === 'enhancing' || !prompt.trim()) return;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    this.apply(startEnhancement(prompt));
    try {
      const transport = fetchTransport(this.deps.fetch, { init: { credentials: 'include' } });
      for await (const { event } of followEnhancement({ transport, request: { prompt, attachments: [...attachments] }, signal })) {
        if (signal.aborted) return;
        this.apply(applyEnhancementEvent(this.state, event));
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof EmptyStreamError) return this.apply(failEnhancement(this.state, 'No reader available', undefined));
      this.apply(failEnhancement(this.state, 'Failed to enhance prompt', failureSentence(error)));
    }
  }

  /** Stops listening (the server then stops the engines) and goes back to idle. */
  cancel(): void {
    this.controller?.abort();
    this.controller = undefined;
    if (this.state.phase !== 'idle') this.set(initialEnhanceState);
  }

  /** Hides the finished notice. */
  dismiss(): void {
    if (this.state.phase === 'finished') this.set(initialEnhanceState);
  }
}

/** The server's sentence, the decoder's (an unreadable event), or the page's own for the connection. */
function failureSentence(error: unknown): string | undefined {
  if (error instanceof ServerRefusal) return error.sentence;
  if (error instanceof EnhancementLostError) return ENHANCE_FAILURES.dropped;
  if (isAppError(error) && error.code === 'SERVICE_UNAVAILABLE') return ENHANCE_FAILURES.unreachable;
  return isAppError(error) ? error.message : ENHANCE_FAILURES.dropped;
}
