/**
 * AI Enhance as a pure state machine (spec core §4 Enhance: idle, enhancing, finished). Every
 * enhancement event is handled in the one `switch (event.type)` of {@link applyEnhancementEvent},
 * which also names the side effects (feed lines, the new prompt, toasts) the event calls for, so the
 * whole flow is testable without React or a server.
 */
import { ENHANCEMENT_STEPS, type EnhancementEvent } from '@wolfpack/core';
import { clientFeedItem, type FeedItem } from './pipeline-state';

export type EnhancePhase = 'idle' | 'enhancing' | 'finished';

/** How a finished enhancement ended. */
export type EnhanceOutcome = 'enhanced' | 'kept-original' | 'failed';

export interface EnhanceState {
  phase: EnhancePhase;
  /** Steps finished so far (each step is one engine of one pass). */
  current: number;
  /** Steps in all: 2 passes x 4 engines (spec core §9). */
  total: number;
  /** current / total as a whole percentage. */
  percent: number;
  /** The server's estimate after the latest step; null before the first step. */
  estimatedRemainingSeconds: number | null;
  /** Pass of the latest finished step; null before the first step. */
  passNumber: number | null;
  /** The prompt as it was before the enhancement, so it can be restored. */
  originalPrompt: string | null;
  outcome: EnhanceOutcome | null;
  /** Why it failed, as a sentence for a person (only when the outcome is 'failed'). */
  error: string | null;
}

/** A side effect the enhancement calls for; the owner carries it out. */
export type EnhanceEffect =
  | { type: 'log'; item: FeedItem }
  /** A non-empty enhanced prompt replaces the textarea text. */
  | { type: 'replace-prompt'; prompt: string }
  /** toast 'Enhancement Issue' (spec core §8). */
  | { type: 'empty-result' }
  /** toast 'Enhancement Failed' with the server's sentence, when there is one. */
  | { type: 'failed'; description: string | undefined };

export interface EnhanceTransition {
  state: EnhanceState;
  effects: EnhanceEffect[];
}

export const initialEnhanceState: EnhanceState = {
  phase: 'idle',
  current: 0,
  total: ENHANCEMENT_STEPS,
  percent: 0,
  estimatedRemainingSeconds: null,
  passNumber: null,
  originalPrompt: null,
  outcome: null,
  error: null,
};

/** The feed line and toast text of an empty result (spec core §8, word for word). */
export const EMPTY_RESULT_MESSAGE = 'Enhancement completed but result was empty. Using original prompt.';

/** The feed lines of a failure (spec core §8). */
export type EnhanceFailureMessage = 'Failed to enhance prompt' | 'No reader available';

/** The percentage shown while enhancing: finished steps of all steps (spec core §9). */
export function enhancePercent(current: number, total: number = ENHANCEMENT_STEPS): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((current / total) * 100)));
}

/** A run begins for `prompt`. */
export function startEnhancement(prompt: string, now?: Date): EnhanceTransition {
  return {
    state: { ...initialEnhanceState, phase: 'enhancing', originalPrompt: prompt },
    effects: [
      {
        type: 'log',
        item: clientFeedItem('info', 'AI Enhance started: 2 passes through 4 engines refine your prompt.', undefined, now),
      },
    ],
  };
}

/**
 * Applies one server event. Steps arrive as engines finish (the engines of a pass run side by side),
 * so the count only ever grows.
 */
export function applyEnhancementEvent(state: EnhanceState, event: EnhancementEvent, now?: Date): EnhanceTransition {
  switch (event.type) {
    case 'step': {
      const total = event.progress.total > 0 ? event.progress.total : state.total;
      const current = Math.min(total, Math.max(state.current, event.progress.current));
      return {
        state: {
          ...state,
          current,
          total,
          percent: enhancePercent(current, total),
          estimatedRemainingSeconds: event.estimatedRemainingSeconds,
          passNumber: Math.max(state.passNumber ?? 0, event.passNumber),
        },
        // The server's own log lines say how each pass went; a line per engine would drown them.
        effects: [],
      };
    }
    case 'log':
      return {
        state,
        effects: [
          { type: 'log', item: { id: event.id, type: event.level, message: event.message, timestamp: event.timestamp } },
        ],
      };
    case 'complete': {
      const finished = { ...state, phase: 'finished' as const, estimatedRemainingSeconds: 0, error: null };
      if (!event.finalPrompt.trim()) {
        return {
          state: { ...finished, outcome: 'kept-original' },
          effects: [{ type: 'log', item: clientFeedItem('warning', EMPTY_RESULT_MESSAGE, undefined, now) }, { type: 'empty-result' }],
        };
      }
      return {
        state: { ...finished, current: state.total, percent: 100, outcome: 'enhanced' },
        effects: [
          { type: 'replace-prompt', prompt: event.finalPrompt },
          {
            type: 'log',
            item: clientFeedItem(
              'success',
              `Prompt enhanced: ${countChars(state.originalPrompt ?? '')} → ${countChars(event.finalPrompt)} characters.`,
              undefined,
              now,
            ),
          },
        ],
      };
    }
    case 'error':
      return failEnhancement(state, 'Failed to enhance prompt', event.error, now);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * The enhancement could not run or stopped: the feed gets `message`, a toast says why
 * (`description`, the server's sentence when there is one), and the prompt stays as it was.
 */
export function failEnhancement(
  state: EnhanceState,
  message: EnhanceFailureMessage,
  description: string | undefined,
  now?: Date,
): EnhanceTransition {
  return {
    state: {
      ...state,
      phase: 'finished',
      outcome: 'failed',
      error: description ?? message,
      estimatedRemainingSeconds: null,
    },
    effects: [{ type: 'log', item: clientFeedItem('error', message, undefined, now) }, { type: 'failed', description }],
  };
}

function countChars(text: string): string {
  return text.trim().length.toLocaleString('en-US');
}
