import type { EnhancementEvent } from '@wolfpack/core';
import { EMPTY_RESULT_MESSAGE, formatEstimate, type EnhanceItem, type EnhanceView } from '@wolfpack/core/client';

export type { EnhanceItem };

/** Shows an enhancement as it goes: the live grid, plain lines, or JSON lines. */
export interface EnhanceReporter {
  /** One more event, with the state after it. */
  update(item: EnhanceItem, state: EnhanceView): void;
  /** Stops drawing; a live view leaves its last frame on screen. */
  close(): Promise<void>;
}

/** `--json`: each event as one JSON line on `stream`, as the server sent it, with its number first as `eventId`. */
export function jsonEnhanceReporter(stream: NodeJS.WritableStream): EnhanceReporter {
  return {
    update(item) {
      stream.write(`${JSON.stringify({ eventId: item.id, ...item.event })}\n`);
    },
    close: async () => {},
  };
}

/**
 * Outside a terminal: one readable line per event on `stream`. That is stderr, because stdout is
 * kept for the prompt itself (`PROMPT=$(wolfpack enhance "…")`).
 */
export function plainEnhanceReporter(stream: NodeJS.WritableStream): EnhanceReporter {
  return {
    update(item) {
      const line = enhanceEventLine(item.event);
      if (line !== undefined) stream.write(`${line}\n`);
    },
    close: async () => {},
  };
}

/**
 * "[step] Pass 1, engine 2 done (demo-beta): 3 of 8, 38%, ~4s left", "[log] warning: …".
 * undefined for what the CLI says in its own words (the empty result's warning).
 */
export function enhanceEventLine(event: EnhancementEvent): string | undefined {
  switch (event.type) {
    case 'step': {
      const { passNumber, engineOrder, engine, progress, estimatedRemainingSeconds } = event;
      const by = engine === undefined ? '' : ` (${engine})`;
      const left = progress.current >= progress.total ? 'merging the proposals' : `${formatEstimate(estimatedRemainingSeconds)} left`;
      return `[step] Pass ${passNumber}, engine ${engineOrder} done${by}: ${progress.current} of ${progress.total}, ${progress.percent}%, ${left}`;
    }
    case 'log':
      if (event.message === EMPTY_RESULT_MESSAGE) return undefined;
      return `[log] ${event.level === 'info' || event.level === 'success' ? '' : `${event.level}: `}${event.message}`;
    case 'complete': {
      if (event.finalPrompt.trim() === '') return undefined;
      const chars = event.finalPrompt.length;
      return `[complete] Enhanced prompt ready (${chars} ${chars === 1 ? 'character' : 'characters'})`;
    }
    case 'error':
      return `[error] ${event.error}`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
