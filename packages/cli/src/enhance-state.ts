import {
  ENHANCEMENT_ENGINES_PER_PASS,
  ENHANCEMENT_PASSES,
  type EnhancementEvent,
  type EnhancementProgress,
  type ErrorCode,
} from '@wolfpack/core';
import type { LogLine } from './run-state.js';

/** How many activity lines the enhancement view keeps (the newest). */
export const ENHANCE_LOG_LINES = 4;

/**
 * The sentence for an enhancement that came back empty (core keeps the original prompt then).
 * The server sends it as a log line too; the CLI says it once, as its own warning.
 */
export const EMPTY_RESULT_WARNING = 'Enhancement completed but result was empty. Using original prompt.';

/**
 * A step of the grid. Steps of a pass run side by side on the server and only report when they
 * finish, so every unfinished step of the pass under way is shown as running.
 */
export type EnhanceStepStatus = 'pending' | 'running' | 'done';

export interface EnhanceStepView {
  passNumber: number;
  engineOrder: number;
  status: EnhanceStepStatus;
  engine?: string | undefined;
}

export type EnhanceOutcome = { type: 'complete'; finalPrompt: string } | { type: 'error'; error: string; code?: ErrorCode | undefined };

/** Everything the enhancement view draws, derived from the events received so far. */
export interface EnhanceState {
  passes: number;
  enginesPerPass: number;
  /** passes × enginesPerPass steps, pass by pass, each pass in engine order. */
  steps: EnhanceStepView[];
  progress: EnhancementProgress | undefined;
  /** Seconds left as of the last step event, and when (local ms) it arrived, for a live countdown. */
  estimatedRemainingSeconds: number | undefined;
  estimateAt: number | undefined;
  log: LogLine[];
  outcome: EnhanceOutcome | undefined;
}

export function initialEnhanceState(passes = ENHANCEMENT_PASSES, enginesPerPass = ENHANCEMENT_ENGINES_PER_PASS): EnhanceState {
  return withRunning({
    passes,
    enginesPerPass,
    steps: grid(passes, enginesPerPass, []),
    progress: undefined,
    estimatedRemainingSeconds: undefined,
    estimateAt: undefined,
    log: [],
    outcome: undefined,
  });
}

/** The state after one more event. Pure: `now` (ms) is passed in. */
export function reduceEnhance(state: EnhanceState, event: EnhancementEvent, now: number): EnhanceState {
  switch (event.type) {
    case 'step': {
      // A server configured for more passes or engines than the CLI expects still fits the grid.
      const passes = Math.max(state.passes, event.passNumber);
      const enginesPerPass = Math.max(state.enginesPerPass, event.engineOrder);
      const finished = [...state.steps.filter((step) => step.status === 'done'), { passNumber: event.passNumber, engineOrder: event.engineOrder, status: 'done' as const, engine: event.engine }];
      return withRunning({
        ...state,
        passes,
        enginesPerPass,
        steps: grid(passes, enginesPerPass, finished),
        progress: event.progress,
        estimatedRemainingSeconds: event.estimatedRemainingSeconds,
        estimateAt: now,
      });
    }
    case 'log':
      if (event.message === EMPTY_RESULT_WARNING) return state;
      return { ...state, log: [...state.log, { key: event.id, level: event.level, message: event.message, timestamp: event.timestamp }].slice(-ENHANCE_LOG_LINES) };
    case 'complete':
      return withRunning({ ...state, outcome: { type: 'complete', finalPrompt: event.finalPrompt } });
    case 'error':
      return withRunning({ ...state, outcome: { type: 'error', error: event.error, code: event.code } });
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function grid(passes: number, enginesPerPass: number, finished: readonly EnhanceStepView[]): EnhanceStepView[] {
  const steps: EnhanceStepView[] = [];
  for (let passNumber = 1; passNumber <= passes; passNumber++) {
    for (let engineOrder = 1; engineOrder <= enginesPerPass; engineOrder++) {
      const done = finished.find((step) => step.passNumber === passNumber && step.engineOrder === engineOrder);
      steps.push(done ?? { passNumber, engineOrder, status: 'pending' });
    }
  }
  return steps;
}

/** Marks the unfinished steps of the first unfinished pass as running, while the enhancement goes on. */
function withRunning(state: EnhanceState): EnhanceState {
  const current = state.outcome === undefined ? state.steps.find((step) => step.status !== 'done')?.passNumber : undefined;
  const steps = state.steps.map((step): EnhanceStepView => {
    if (step.status === 'done') return step;
    const status = step.passNumber === current ? 'running' : 'pending';
    return step.status === status ? step : { ...step, status };
  });
  return { ...state, steps };
}

/** Whether every step is done and only the final merge of the proposals is left. */
export function merging(state: EnhanceState): boolean {
  return state.outcome === undefined && state.steps.every((step) => step.status === 'done');
}

/** Seconds left, counted down by the local clock between step events. */
export function remainingSeconds(state: EnhanceState, now: number): number | undefined {
  const { estimatedRemainingSeconds, estimateAt } = state;
  if (estimatedRemainingSeconds === undefined || estimateAt === undefined) return undefined;
  if (state.outcome !== undefined) return 0;
  return Math.max(0, estimatedRemainingSeconds - Math.max(0, now - estimateAt) / 1000);
}

/** The estimate as the web page shows it: 7.2 → "~7s", 75 → "~1m 15s". */
export function formatEstimate(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `~${total}s`;
  return `~${Math.floor(total / 60)}m ${total % 60}s`;
}
