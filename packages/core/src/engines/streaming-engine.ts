import { DEFAULT_CONTEXT_TOKENS, type EngineAdapterConfig } from './engine-adapter-config.js';
import type { Engine, EngineProvider, EngineRequest, EngineResult } from './engine.js';
import { emptyAnswerError, incompleteStreamError, type ErrorContext } from './engine-errors.js';
import { estimateUsage } from './message-parts.js';
import { countedUsage, maxInputTokens, type ReportedUsage } from '../billing/usage-bounds.js';
import { runResilient, type AttemptContext, type ResolvedResilience } from './resilience.js';
import type { EngineError } from './engine.js';

/** What one streamed attempt of an adapter produced, in provider-neutral terms. */
export interface StreamedAnswer {
  text: string;
  /** As the endpoint reported it, unchecked; undefined when it reported none (then estimated). */
  usage: ReportedUsage | undefined;
  finishReason: EngineResult['finishReason'];
  /** Whether the stream ended the way the provider ends a finished answer. */
  finished: boolean;
}

export interface StreamingEngineParts {
  provider: EngineProvider;
  config: EngineAdapterConfig;
  resilience: ResolvedResilience;
  errorContext: ErrorContext;
  /** One attempt over the provider's SDK. */
  attempt: (request: EngineRequest, ctx: AttemptContext) => Promise<StreamedAnswer>;
  toEngineError: (error: unknown) => EngineError;
  /** The `max_tokens` the adapter sends for `request` (undefined: none sent). */
  maxOutputTokens: (request: EngineRequest) => number | undefined;
}

/**
 * The part every adapter shares: retries and the watchdog around each attempt, a cut-off stream
 * retried like any lost connection, an empty answer refused, usage estimated when missing.
 */
export function createStreamingEngine(parts: StreamingEngineParts): Engine {
  const { config, resilience, errorContext } = parts;
  return {
    key: config.key,
    provider: parts.provider,
    model: config.model,
    supportsImages: config.supportsImages ?? false,
    contextTokens: config.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
    pricePer1kTokensCents: config.pricePer1kTokensCents ?? 0,
    async complete(request: EngineRequest): Promise<EngineResult> {
      const started = resilience.now();
      const { value, attempts } = await runResilient({
        engineKey: config.key,
        options: resilience,
        signal: request.signal,
        onRetry: request.onRetry,
        attempt: async (ctx) => {
          const out = await parts.attempt(request, ctx);
          // Checked inside the attempt so a cut-off stream is retried like any connection loss;
          // an abort also ends the stream early, and runResilient reports that instead.
          if (!out.finished && !ctx.signal.aborted) throw incompleteStreamError(config.key, errorContext.host);
          if (out.text === '' && !ctx.signal.aborted) throw emptyAnswerError(config.key, out.finishReason === 'length');
          return out;
        },
        toEngineError: parts.toEngineError,
      });
      // What the call is billed for: the reported usage only within what the call could have used.
      const window = config.contextTokens ?? Number.POSITIVE_INFINITY;
      const counted = countedUsage(config.key, value.usage, {
        maxInputTokens: maxInputTokens(request.messages, window),
        maxOutputTokens: parts.maxOutputTokens(request) ?? window,
      }, estimateUsage(request.messages, value.text));
      return {
        text: value.text,
        usage: counted.usage,
        finishReason: value.finishReason,
        durationMs: resilience.now() - started,
        attempts,
        ...(counted.estimated ? { usageEstimated: true } : {}),
        ...(counted.problem ? { usageProblem: counted.problem } : {}),
      };
    },
  };
}
