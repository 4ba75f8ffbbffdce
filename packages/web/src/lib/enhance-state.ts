/**
 * AI Enhance on the build screen: core's one enhancement view state (`@wolfpack/core/client`, the
 * CLI draws the same) plus the side effects the page carries out (feed lines, the new prompt,
 * toasts), so the whole flow is testable without React or a server.
 */
import { EMPTY_RESULT_MESSAGE, enhancePercent, failEnhance, initialEnhanceView, reduceEnhance, startEnhance, type EnhanceOutcome, type EnhancePhase, type EnhanceView } from '@wolfpack/core/client';
import type { EnhancementEvent } from '@wolfpack/core';
import { clientFeedItem, type FeedItem } from './pipeline-state';

export { EMPTY_RESULT_MESSAGE, enhancePercent };
export type { EnhanceOutcome, EnhancePhase };
export type EnhanceState = EnhanceView;

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

export const initialEnhanceState: EnhanceState = initialEnhanceView();

/** The feed lines of a failure (spec core §8). */
export type EnhanceFailureMessage = 'Failed to enhance prompt' | 'No reader available';

/** A run begins for `prompt`. */
export function startEnhancement(prompt: string, now?: Date): EnhanceTransition {
  return {
    state: startEnhance(prompt),
    effects: [{ type: 'log', item: clientFeedItem('info', 'AI Enhance started: 2 passes through 4 engines refine your prompt.', undefined, now) }],
  };
}

/** Applies one server event: core's state, and what the page does about it. */
export function applyEnhancementEvent(state: EnhanceState, event: EnhancementEvent, now: Date = new Date()): EnhanceTransition {
  if (event.type === 'error') return failEnhancement(state, 'Failed to enhance prompt', event.error, now);
  const next = reduceEnhance(state, event, now.getTime());
  switch (event.type) {
    case 'step':
      // The server's own log lines say how each pass went; a line per engine would drown them.
      return { state: next, effects: [] };
    case 'log':
      return { state: next, effects: [{ type: 'log', item: { id: event.id, type: event.level, message: event.message, timestamp: event.timestamp } }] };
    case 'complete':
      if (next.outcome === 'kept-original') {
        return { state: next, effects: [{ type: 'log', item: clientFeedItem('warning', EMPTY_RESULT_MESSAGE, undefined, now) }, { type: 'empty-result' }] };
      }
      return {
        state: next,
        effects: [
          { type: 'replace-prompt', prompt: event.finalPrompt },
          { type: 'log', item: clientFeedItem('success', `Prompt enhanced: ${countChars(state.originalPrompt ?? '')} → ${countChars(event.finalPrompt)} characters.`, undefined, now) },
        ],
      };
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
export function failEnhancement(state: EnhanceState, message: EnhanceFailureMessage, description: string | undefined, now?: Date): EnhanceTransition {
  return {
    state: failEnhance(state, description ?? message),
    effects: [{ type: 'log', item: clientFeedItem('error', message, undefined, now) }, { type: 'failed', description }],
  };
}

function countChars(text: string): string {
  return text.trim().length.toLocaleString('en-US');
}
