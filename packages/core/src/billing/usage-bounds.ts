/**
 * What an engine call is counted (and billed) for, from the usage its endpoint reported. Reported
 * numbers are the provider's word, not a fact: a broken proxy sends "1e6", 0.4 or 1e300, a buggy
 * one a million tokens for a short answer. Each count must be a whole, non-negative number, and
 * no more than the call could have used: its prompt no more tokens than bytes sent (every token is
 * at least one byte; images and message framing get a fixed allowance) nor than the context window,
 * its completion no more than the `max_tokens` it asked for. Unusable usage is replaced by the
 * request's own estimate; usage over the bounds is cut to them. Either way `problem` says so.
 */
import type { ChatMessage, EngineUsage } from '../engines/engine.js';

/** Tokens allowed for one attached image: above what either provider counts for the largest. */
export const IMAGE_TOKEN_ALLOWANCE = 6000;
/** Tokens of framing per message (role markers, separators) and per request (priming). */
export const MESSAGE_FRAMING_TOKENS = 16;

/** The usage an endpoint reported, raw from the wire. `input` may come in parts (cache reads) that add up. */
export interface ReportedUsage {
  input: readonly unknown[];
  output: unknown;
}

export interface UsageLimits {
  /** The most prompt tokens the call could have used. */
  maxInputTokens: number;
  /** The call's `max_tokens`: the most completion tokens it could have used. */
  maxOutputTokens: number;
}

export interface CountedUsage {
  usage: EngineUsage;
  /** True when the reported usage was unusable and `usage` is the request's estimate. */
  estimated: boolean;
  /** Why the reported usage was not taken as it came, for the run's log; undefined when it was. */
  problem?: string;
}

const utf8 = new TextEncoder();

/** The most prompt tokens `messages` can be: their UTF-8 bytes, images and framing, within the context window. */
export function maxInputTokens(messages: readonly ChatMessage[], contextTokens: number = Number.POSITIVE_INFINITY): number {
  let tokens = MESSAGE_FRAMING_TOKENS;
  for (const message of messages) {
    tokens += MESSAGE_FRAMING_TOKENS;
    const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const part of parts) tokens += part.type === 'text' ? utf8.encode(part.text).length : IMAGE_TOKEN_ALLOWANCE;
  }
  return Math.min(tokens, contextTokens);
}

/** A count as the wire should carry it: a whole number from 0 up to the largest exact integer. */
function wholeCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * The usage a call is counted for: what was reported when it is whole numbers within `limits`, cut
 * to `limits` when above them, else `estimate` (itself kept within `limits`).
 */
export function countedUsage(engineKey: string, reported: ReportedUsage | undefined, limits: UsageLimits, estimate: EngineUsage): CountedUsage {
  const fallback = (problem?: string): CountedUsage => {
    const inputTokens = Math.min(estimate.inputTokens, limits.maxInputTokens);
    const outputTokens = Math.min(estimate.outputTokens, limits.maxOutputTokens);
    return { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, estimated: true, ...(problem ? { problem } : {}) };
  };
  if (!reported) return fallback();
  const values = [...reported.input, reported.output];
  const bad = values.findIndex((v) => wholeCount(v) === undefined);
  if (bad >= 0) {
    return fallback(
      `Engine ${engineKey} reported token usage that is not a whole, non-negative number (${shown(values[bad])}); its calls are billed from each request's own estimate instead.`,
    );
  }
  const input = reported.input.reduce<number>((sum, v) => sum + (v as number), 0);
  const output = reported.output as number;
  const inputTokens = Math.min(input, limits.maxInputTokens);
  const outputTokens = Math.min(output, limits.maxOutputTokens);
  const usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (inputTokens === input && outputTokens === output) return { usage, estimated: false };
  return {
    usage,
    estimated: false,
    problem: `Engine ${engineKey} reported ${input + output} tokens for a call that could use at most ${limits.maxInputTokens + limits.maxOutputTokens} (${limits.maxInputTokens} in, ${limits.maxOutputTokens} out); its calls are billed for at most what they could use.`,
  };
}
