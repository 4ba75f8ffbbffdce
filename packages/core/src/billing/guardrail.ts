/**
 * Spend guardrails: what a call may cost is held before it runs, and settles to the real
 * cost, never above it. A run holds per call, with the call's output cap cut to what
 * the balance pays (call-caps.ts, call-purse.ts); a stage's worst case (every call it can make at the
 * full output cap) bounds what a stage can cost, and AI Enhance still holds its worst case up front.
 */
import type { PipelineRole } from '../schemas/events.js';
import { callCostCents } from './money.js';

/** Output cap of every pipeline and enhancement call: what makes the worst case a real bound. */
export const MAX_OUTPUT_TOKENS_PER_CALL = 8192;
/** System prompt, instructions and message framing on top of the content a call carries. */
export const PROMPT_OVERHEAD_TOKENS = 1500;
/**
 * Characters per token assumed for inputs. English and code run near 4; 3 keeps the estimate on the
 * safe side for dense text without reserving several times what a run costs.
 */
export const CHARS_PER_TOKEN_ESTIMATE = 3;

export interface StageShape {
  role: PipelineRole;
  /** Files the plan lists (Building writes each with its own call). */
  plannedFiles: number;
  repairRounds: number;
  completionAttempts: number;
}

/** The most engine calls a stage can make that report usage (failed calls are not billed). */
export function stageMaxCalls(shape: StageShape): number {
  switch (shape.role) {
    case 'Planning':
    case 'Polishing':
      return 1;
    case 'Building':
      // Each planned file, each possibly sent back for completion; then up to two whole-project asks.
      return shape.plannedFiles * (1 + shape.completionAttempts) + 2;
    case 'Checking':
    case 'Proven Code':
      return shape.repairRounds;
    default: {
      const unreachable: never = shape.role;
      return unreachable;
    }
  }
}

/** Tokens one call may use when it sends `inputChars` characters. */
export function callMaxTokens(inputChars: number, maxOutputTokens: number = MAX_OUTPUT_TOKENS_PER_CALL): number {
  return Math.ceil(Math.max(0, inputChars) / CHARS_PER_TOKEN_ESTIMATE) + PROMPT_OVERHEAD_TOKENS + maxOutputTokens;
}

export interface WorstCase {
  calls: number;
  tokens: number;
  cents: number;
}

/**
 * A stage's worst case at the highest price among the engines it may fall back to; each call is
 * rounded up on its own, as billing does.
 */
export function stageWorstCase(shape: StageShape, inputChars: number, pricesPer1kCents: readonly number[], maxOutputTokens?: number): WorstCase {
  const calls = stageMaxCalls(shape);
  return worstCaseOf(calls, callMaxTokens(inputChars, maxOutputTokens), pricesPer1kCents);
}

/**
 * The enhancement's worst case: `steps` calls; the second pass also reads the first pass's answers
 * (each at most the output cap).
 */
export function enhancementWorstCase(promptChars: number, steps: number, enginesPerPass: number, pricesPer1kCents: readonly number[], maxOutputTokens: number = MAX_OUTPUT_TOKENS_PER_CALL): WorstCase {
  const perCall = callMaxTokens(promptChars, maxOutputTokens) + enginesPerPass * maxOutputTokens;
  return worstCaseOf(steps, perCall, pricesPer1kCents);
}

function worstCaseOf(calls: number, tokensPerCall: number, prices: readonly number[]): WorstCase {
  const price = prices.length > 0 ? Math.max(...prices) : 0;
  return { calls, tokens: calls * tokensPerCall, cents: calls * callCostCents(price, tokensPerCall) };
}

export interface SettledCall {
  /** What the call costs at its engine's price, rounded up to whole cents. */
  cents: number;
}

/**
 * How much of each call is billed when a stage settles: the real cost, but never more in total
 * than was reserved (the reservation is the user's promise of a ceiling; an estimate that fell
 * short is ours to absorb). Returns the billed cents per call, in order.
 */
export function settleCalls(calls: readonly SettledCall[], reservedCents: number): number[] {
  let left = Math.max(0, reservedCents);
  return calls.map((call) => {
    const billed = Math.min(left, Math.max(0, call.cents));
    left -= billed;
    return billed;
  });
}

/**
 * Whether a call's hold may be taken while its engine already works (off the run's wait), rather
 * than before the call. Only when the run knows, from its own last hold, a balance that covers
 * what is to be held: earlier stages' settlements only give back, so only spending elsewhere
 * meanwhile can refuse it, and then the calls it covered are cancelled uncharged and asked for
 * again. Never under a cost cap (every call of a capped run waits for its hold), and never for a
 * run's first hold (nothing is known yet: a balance too short stops it before any engine is called).
 */
export function mayHoldInFlight(knownBalanceCents: number | null, worstCaseCents: number, capped: boolean): boolean {
  return !capped && knownBalanceCents !== null && worstCaseCents > 0 && knownBalanceCents >= worstCaseCents;
}
