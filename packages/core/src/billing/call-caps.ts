/**
 * Holds that fit what the balance can pay. A stage's worst case (every call it may make
 * at the full output cap) was often fifty times what it spent, so a run was refused work its user
 * could pay for. Instead each engine call holds only its own cost, as it starts, with its output
 * cap (`max_tokens`) cut down to what is left to hold: never above the engine's cap, never below a
 * useful minimum. A call that cannot get that minimum stops the run (PAYMENT_REQUIRED), naming
 * what the call needs.
 */
import { CHARS_PER_TOKEN_ESTIMATE, MAX_OUTPUT_TOKENS_PER_CALL, PROMPT_OVERHEAD_TOKENS } from './guardrail.js';
import { callCostCents } from './money.js';

/**
 * Below this output cap a call is not worth making: a plan or a small file needs about this much,
 * and an answer cut shorter is thrown away (a file left open is not saved), so its cost is lost.
 */
export const MIN_USEFUL_OUTPUT_TOKENS = 1024;

/** Characters an image attachment counts for in a call's input (about 2,000 tokens). */
export const IMAGE_INPUT_CHARS = 6000;

/**
 * The input tokens a call is held for: its characters at 3 a token, plus the overhead every call
 * carries (the same estimate the stage worst case used).
 */
export function inputTokensEstimate(inputChars: number): number {
  return Math.ceil(Math.max(0, inputChars) / CHARS_PER_TOKEN_ESTIMATE) + PROMPT_OVERHEAD_TOKENS;
}

/** Cents beyond which no call's cost is reckoned (a hundred million dollars): keeps the arithmetic exact. */
const CENTS_CEILING = 10_000_000_000;

/**
 * The most tokens a call may use for `cents` at `pricePer1kTokensCents`, as {@link callCostCents}
 * bills them (rounded up per call): callCostCents(price, t) <= cents exactly when t <= this.
 * Infinity for a free engine.
 */
export function tokensWithin(cents: number, pricePer1kTokensCents: number): number {
  const priceMilli = Math.round(pricePer1kTokensCents * 1000);
  if (priceMilli <= 0) return Number.POSITIVE_INFINITY;
  const budget = Math.min(CENTS_CEILING, Math.max(0, Math.floor(cents)));
  // cost(t) = ceil(ceil(priceMilli * t / 1000) / 1000) <= budget  <=>  priceMilli * t <= budget * 1e6
  return Math.floor((budget * 1_000_000) / priceMilli);
}

export interface CallCapInput {
  /** What this call may hold: the balance (and the run's remaining allowance) it can still draw on. */
  availableCents: number;
  pricePer1kTokensCents: number;
  /** The call's input, from {@link inputTokensEstimate}. */
  inputTokens: number;
  /** The engine's output cap. @default MAX_OUTPUT_TOKENS_PER_CALL */
  maxOutputTokens?: number;
  /** @default MIN_USEFUL_OUTPUT_TOKENS (never more than `maxOutputTokens`) */
  minOutputTokens?: number;
}

export type CallCap =
  /** The call goes ahead with this output cap, holding `holdCents` (0 on a free engine). */
  | { ok: true; maxTokens: number; holdCents: number }
  /** Not even the useful minimum fits: `neededCents` is what the call costs at the engine's full cap. */
  | { ok: false; neededCents: number };

/** What a call costs at the engine's full output cap: what it holds when the balance allows. */
export function fullCallCents(pricePer1kTokensCents: number, inputTokens: number, maxOutputTokens: number = MAX_OUTPUT_TOKENS_PER_CALL): number {
  return callCostCents(pricePer1kTokensCents, inputTokens + maxOutputTokens);
}

/** What a call costs at the useful minimum output: below this it is not made. */
export function minimumCallCents(pricePer1kTokensCents: number, inputTokens: number, maxOutputTokens: number = MAX_OUTPUT_TOKENS_PER_CALL, minOutputTokens: number = MIN_USEFUL_OUTPUT_TOKENS): number {
  return callCostCents(pricePer1kTokensCents, inputTokens + Math.min(minOutputTokens, maxOutputTokens));
}

/**
 * A call's output cap and hold within `availableCents`: the engine's full cap when it fits, else the
 * most output the rest pays for, never below the useful minimum. The hold is the call's cost at
 * that cap (input included), so a call never costs more than it holds.
 */
export function callCap(input: CallCapInput): CallCap {
  const price = input.pricePer1kTokensCents;
  const maxOutput = input.maxOutputTokens ?? MAX_OUTPUT_TOKENS_PER_CALL;
  const minOutput = Math.min(input.minOutputTokens ?? MIN_USEFUL_OUTPUT_TOKENS, maxOutput);
  const full = fullCallCents(price, input.inputTokens, maxOutput);
  if (input.availableCents >= full) return { ok: true, maxTokens: maxOutput, holdCents: full };
  const output = Math.min(maxOutput, tokensWithin(input.availableCents, price) - input.inputTokens);
  if (output < minOutput) return { ok: false, neededCents: full };
  return { ok: true, maxTokens: output, holdCents: callCostCents(price, input.inputTokens + output) };
}

/**
 * How much of `wantedCents` a hold takes from a balance: all of it when the balance covers it, else
 * the whole balance when that is at least `atLeastCents` (what the call needs at the least), else
 * null (refused). `atLeastCents` defaults to all of it: a hold of a fixed amount.
 */
export function holdWithin(wantedCents: number, balanceCents: number, atLeastCents: number = wantedCents): number | null {
  const wanted = Math.max(0, Math.ceil(wantedCents));
  if (wanted <= balanceCents) return wanted;
  const floor = Math.max(1, Math.min(wanted, Math.ceil(atLeastCents)));
  return balanceCents >= floor ? balanceCents : null;
}

/**
 * What a run may still commit under its own limit (`maxCostCents`): the limit, less what it was
 * billed and what its calls in flight hold. Infinity without a limit; never below 0.
 */
export function allowanceCents(capCents: number | null, spentCents: number, inFlightCents: number): number {
  if (capCents === null) return Number.POSITIVE_INFINITY;
  return Math.max(0, capCents - spentCents - inFlightCents);
}
