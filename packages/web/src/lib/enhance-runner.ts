/**
 * Runs AI Enhance (spec core §7: POST /api/multi-pass-enhancements): sends the prompt and the
 * attached files, decodes the event stream with core's `enhancementEvent` union and feeds every
 * event through the pure state machine in enhance-state.ts. Framework-free: the React hook
 * subscribes to it, tests drive it with a fake fetch.
 *
 * Unlike a pipeline run, an enhancement is not resumable: the server stops it when the client
 * leaves, so there is nothing to reattach to and a dropped connection is simply a failure.
 */
import { decodeEventStream, enhancementEvent, type Attachment, type EnhancementRequestInput } from '@wolfpack/core';
import {
  applyEnhancementEvent,
  failEnhancement,
  initialEnhanceState,
  startEnhancement,
  type EnhanceEffect,
  type EnhanceState,
  type EnhanceTransition,
} from './enhance-state';
import { errorSentence } from './pipeline-runner';

export const ENHANCE_URL = '/api/multi-pass-enhancements';

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
    this.state = state;
    for (const listener of this.listeners) listener();
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
    const body: EnhancementRequestInput = { prompt, attachments: [...attachments] };
    let res: Response;
    try {
      res = await this.deps.fetch(ENHANCE_URL, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      });
    } catch {
      if (!signal.aborted) this.fail('Failed to enhance prompt', ENHANCE_FAILURES.unreachable);
      return;
    }
    if (!res.ok) {
      // Errors before the stream are JSON {success: false, error, code}.
      const sentence = await errorSentence(res);
      if (!signal.aborted) this.fail('Failed to enhance prompt', sentence);
      return;
    }
    if (!res.body) {
      this.fail('No reader available', undefined);
      return;
    }
    try {
      for await (const { data } of decodeEventStream(res.body, enhancementEvent)) {
        if (signal.aborted) return;
        this.apply(applyEnhancementEvent(this.state, data));
        if (data.type === 'complete' || data.type === 'error') return;
      }
    } catch (error) {
      if (signal.aborted) return;
      // decodeEventStream names a protocol problem with an AppError; anything else is the network.
      const sentence = error instanceof Error && error.name === 'AppError' ? error.message : ENHANCE_FAILURES.dropped;
      this.fail('Failed to enhance prompt', sentence);
      return;
    }
    if (!signal.aborted) this.fail('Failed to enhance prompt', ENHANCE_FAILURES.dropped);
  }

  private fail(message: 'Failed to enhance prompt' | 'No reader available', sentence: string | undefined): void {
    this.apply(failEnhancement(this.state, message, sentence));
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
