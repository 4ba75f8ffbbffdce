/**
 * AI Enhance as the web page and the CLI both show it: a grid of passes × engines, the progress,
 * the time left and the outcome, reduced from the enhancement's events. Pure (`now` is passed in).
 */
import type { ErrorCode } from '../errors.js';
import { ENHANCEMENT_ENGINES_PER_PASS, ENHANCEMENT_PASSES, type EnhancementEvent } from '../schemas/events.js';
import type { FeedItem } from './run-view.js';

/** `idle`: nothing asked. `enhancing`: under way. `finished`: it ended, however it ended. */
export type EnhancePhase = 'idle' | 'enhancing' | 'finished';

/** How a finished enhancement ended: a new prompt, the original kept (an empty result), or failed. */
export type EnhanceOutcome = 'enhanced' | 'kept-original' | 'failed';

/**
 * A step of the grid. Steps of a pass run side by side on the server and only report when they
 * finish, so every unfinished step of the pass under way is running.
 */
export interface EnhanceStepView {
  passNumber: number;
  engineOrder: number;
  status: 'pending' | 'running' | 'complete';
  engine?: string | undefined;
}

export interface EnhanceView {
  phase: EnhancePhase;
  passes: number;
  enginesPerPass: number;
  /** passes × enginesPerPass steps, pass by pass, each pass in engine order. */
  steps: EnhanceStepView[];
  /** Steps finished so far, of `total`, and as a whole percentage. */
  current: number;
  total: number;
  percent: number;
  /** Pass of the latest finished step; null before the first. */
  passNumber: number | null;
  /** The server's estimate after the latest step, and when (local ms) it came; null before the first. */
  estimatedRemainingSeconds: number | null;
  estimateAt: number | null;
  /** The server's lines, oldest first. */
  log: FeedItem[];
  /** The prompt as it was before, so it can be restored or used when the result is empty. */
  originalPrompt: string | null;
  finalPrompt: string | null;
  outcome: EnhanceOutcome | null;
  /** Why it failed, a sentence for a person. */
  error: string | null;
  errorCode: ErrorCode | null;
}

/** The sentence for an empty result (core keeps the original prompt then). */
export const EMPTY_RESULT_MESSAGE = 'Enhancement completed but result was empty. Using original prompt.';

export function initialEnhanceView(passes = ENHANCEMENT_PASSES, enginesPerPass = ENHANCEMENT_ENGINES_PER_PASS): EnhanceView {
  return {
    phase: 'idle',
    passes,
    enginesPerPass,
    steps: grid(passes, enginesPerPass, [], undefined),
    current: 0,
    total: passes * enginesPerPass,
    percent: 0,
    passNumber: null,
    estimatedRemainingSeconds: null,
    estimateAt: null,
    log: [],
    originalPrompt: null,
    finalPrompt: null,
    outcome: null,
    error: null,
    errorCode: null,
  };
}

/** An enhancement of `prompt` begins. */
export function startEnhance(prompt: string): EnhanceView {
  const state = initialEnhanceView();
  return { ...state, phase: 'enhancing', originalPrompt: prompt, steps: grid(state.passes, state.enginesPerPass, [], 1) };
}

/** The percentage: finished steps of all steps. */
export function enhancePercent(current: number, total: number = ENHANCEMENT_PASSES * ENHANCEMENT_ENGINES_PER_PASS): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((current / total) * 100)));
}

/** The state after one more event. Steps arrive as engines finish, so the count only grows. */
export function reduceEnhance(state: EnhanceView, event: EnhancementEvent, now: number): EnhanceView {
  switch (event.type) {
    case 'step': {
      // A server configured for more passes or engines than expected still fits the grid.
      const passes = Math.max(state.passes, event.passNumber);
      const enginesPerPass = Math.max(state.enginesPerPass, event.engineOrder);
      const done = [...state.steps.filter((step) => step.status === 'complete'), { passNumber: event.passNumber, engineOrder: event.engineOrder, status: 'complete' as const, engine: event.engine }];
      const total = event.progress.total > 0 ? event.progress.total : passes * enginesPerPass;
      const current = Math.min(total, Math.max(state.current, event.progress.current));
      return {
        ...state,
        passes,
        enginesPerPass,
        steps: grid(passes, enginesPerPass, done, state.phase === 'enhancing' ? 1 : undefined),
        current,
        total,
        percent: enhancePercent(current, total),
        passNumber: Math.max(state.passNumber ?? 0, event.passNumber),
        estimatedRemainingSeconds: event.estimatedRemainingSeconds,
        estimateAt: now,
      };
    }
    case 'log':
      if (state.log.some((line) => line.id === event.id)) return state;
      return { ...state, log: [...state.log, { id: event.id, type: event.level, message: event.message, timestamp: event.timestamp }] };
    case 'complete': {
      const ended = { ...state, phase: 'finished' as const, steps: settle(state.steps), estimatedRemainingSeconds: 0, error: null, errorCode: null };
      if (!event.finalPrompt.trim()) return { ...ended, outcome: 'kept-original', finalPrompt: state.originalPrompt };
      return { ...ended, current: state.total, percent: 100, outcome: 'enhanced', finalPrompt: event.finalPrompt };
    }
    case 'error':
      return failEnhance(state, event.error, event.code ?? null);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The enhancement could not run or stopped: the prompt stays as it was. */
export function failEnhance(state: EnhanceView, error: string, code: ErrorCode | null = null): EnhanceView {
  return { ...state, phase: 'finished', steps: settle(state.steps), outcome: 'failed', error, errorCode: code, estimatedRemainingSeconds: null };
}

/** Whether every step is done and only the final merge of the proposals is left. */
export function merging(state: EnhanceView): boolean {
  return state.phase === 'enhancing' && state.steps.every((step) => step.status === 'complete');
}

/** Seconds left, counted down by the local clock between step events; null before the first. */
export function remainingSeconds(state: EnhanceView, now: number): number | null {
  const { estimatedRemainingSeconds, estimateAt } = state;
  if (estimatedRemainingSeconds === null || estimateAt === null) return null;
  if (state.phase === 'finished') return 0;
  return Math.max(0, estimatedRemainingSeconds - Math.max(0, now - estimateAt) / 1000);
}

/** The estimate as both clients show it: 7.2 → "~7s", 75 → "~1m 15s". */
export function formatEstimate(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `~${total}s`;
  return `~${Math.floor(total / 60)}m ${total % 60}s`;
}

/**
 * The grid with the finished steps in place; while `running` is set, the unfinished steps of the
 * first unfinished pass run.
 */
function grid(passes: number, enginesPerPass: number, done: readonly EnhanceStepView[], running: 1 | undefined): EnhanceStepView[] {
  const steps: EnhanceStepView[] = [];
  for (let passNumber = 1; passNumber <= passes; passNumber++) {
    for (let engineOrder = 1; engineOrder <= enginesPerPass; engineOrder++) {
      steps.push(done.find((step) => step.passNumber === passNumber && step.engineOrder === engineOrder) ?? { passNumber, engineOrder, status: 'pending' });
    }
  }
  if (running === undefined) return steps;
  const current = steps.find((step) => step.status !== 'complete')?.passNumber;
  return steps.map((step) => (step.status === 'pending' && step.passNumber === current ? { ...step, status: 'running' } : step));
}

/** Once it ended nothing runs any more. */
function settle(steps: readonly EnhanceStepView[]): EnhanceStepView[] {
  return steps.map((step) => (step.status === 'running' ? { ...step, status: 'pending' } : step));
}
