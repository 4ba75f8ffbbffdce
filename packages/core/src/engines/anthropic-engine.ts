/**
 * Engine over `@anthropic-ai/sdk` messages streaming: system prompt apart from the messages,
 * images as base64 blocks, usage from message_start and message_delta.
 */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { EngineAdapterConfig, EngineOptions } from './engine-adapter-config.js';
import type { ChatMessage, Engine, EngineRequest, EngineResult } from './engine.js';
import type { ReportedUsage } from '../billing/usage-bounds.js';
import {
  classifyFailure,
  classifyTransportError,
  errorContextFor,
  type ErrorContext,
} from './engine-errors.js';
import { IMAGE_DROPPED_NOTE, parseDataUrl, partsOf, textOf } from './message-parts.js';
import { SDK_TIMEOUT_MARGIN_MS, callBack, resolveResilience, type AttemptContext } from './resilience.js';
import { createStreamingEngine } from './streaming-engine.js';

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_MAX_TOKENS = 8192;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** Input tokens come in parts: uncached, written to the cache, read from it (absent parts are none). */
function inputParts(usage: { input_tokens?: unknown; cache_creation_input_tokens?: unknown; cache_read_input_tokens?: unknown }): unknown[] {
  return [usage.input_tokens, usage.cache_creation_input_tokens ?? 0, usage.cache_read_input_tokens ?? 0];
}

/** System messages joined into the separate `system` field; the rest as user/assistant turns. */
export function toAnthropicMessages(
  messages: readonly ChatMessage[],
  supportsImages: boolean,
): { system: string | undefined; messages: MessageParam[] } {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n\n');
  const turns = messages
    .filter((message) => message.role !== 'system')
    .map((message): MessageParam => {
      const role = message.role === 'assistant' ? 'assistant' : 'user';
      const parts = partsOf(message.content);
      if (role === 'assistant' || !supportsImages || !parts.some((part) => part.type === 'image')) {
        return { role, content: textOf(message.content) };
      }
      const content = parts.map((part): ContentBlockParam => {
        if (part.type === 'text') return { type: 'text', text: part.text };
        const image = parseDataUrl(part.dataUrl);
        const mediaType = image?.mediaType ?? part.mimeType;
        // The API takes four image types; anything else would fail the whole request.
        if (!image || !IMAGE_TYPES.has(mediaType)) return { type: 'text', text: IMAGE_DROPPED_NOTE };
        return { type: 'image', source: { type: 'base64', media_type: mediaType as ImageMediaType, data: image.data } };
      });
      return { role, content };
    });
  return { system: system === '' ? undefined : system, messages: turns };
}

function toEngineError(ctx: ErrorContext, error: unknown) {
  if (error instanceof APIConnectionTimeoutError) return classifyTransportError(ctx, error, { timedOut: true });
  if (error instanceof APIConnectionError) return classifyTransportError(ctx, error);
  if (error instanceof APIError) {
    return classifyFailure(
      ctx,
      { status: error.status, code: error.errorCode, type: error.type, detail: error.apiMessage, headers: error.headers },
      error,
    );
  }
  return classifyTransportError(ctx, error);
}

function mapStop(reason: string | null): EngineResult['finishReason'] {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  // Both mean the answer was cut off.
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  return 'other';
}

/** An Engine over the Anthropic Messages API, always streaming. */
export function createAnthropicEngine(config: EngineAdapterConfig, options: EngineOptions = {}): Engine {
  const resilience = resolveResilience(options);
  const baseURL = config.baseURL ?? ANTHROPIC_BASE_URL;
  const client = new Anthropic({
    // Passing the key (and the base URL) explicitly keeps the SDK from reading ANTHROPIC_* variables.
    apiKey: config.apiKey ?? 'no-key',
    baseURL,
    maxRetries: 0,
    // A backstop only: the SDK's timer stops at the headers, our watchdog covers the whole stream
    // and, being shorter, is the one that fires with the clearer message.
    timeout: resilience.firstChunkTimeoutMs + SDK_TIMEOUT_MARGIN_MS,
    // The SDK would print a malformed chunk (model output, which may quote the user's files) to the
    // console on its own; every failure already reaches the caller as an EngineError sentence.
    logLevel: 'off',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const errorContext = errorContextFor(config, baseURL, resilience.now);
  const supportsImages = config.supportsImages ?? false;

  const maxTokensFor = (request: EngineRequest) => request.maxTokens ?? options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;

  async function attempt(request: EngineRequest, ctx: AttemptContext) {
    const converted = toAnthropicMessages(request.messages, supportsImages);
    const stream = await client.messages.create(
      {
        model: config.model,
        max_tokens: maxTokensFor(request),
        messages: converted.messages,
        stream: true,
        ...(converted.system !== undefined ? { system: converted.system } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      },
      { signal: ctx.signal, maxRetries: 0 },
    );
    let text = '';
    let stopReason: string | null = null;
    let stopped = false;
    // Unchecked, as reported: the streaming engine decides what of it counts.
    let input: unknown[] | undefined;
    let output: unknown;
    for await (const event of stream) {
      ctx.onChunk();
      switch (event.type) {
        case 'message_start': {
          // Optional in practice: some Anthropic-compatible proxies send no usage at all.
          const usage = event.message.usage as typeof event.message.usage | undefined;
          if (usage) {
            input = inputParts(usage);
            output = usage.output_tokens;
          }
          break;
        }
        case 'content_block_delta':
          if (event.delta.type === 'text_delta' && event.delta.text) {
            text += event.delta.text;
            callBack(request.onDelta, event.delta.text);
          }
          break;
        case 'message_delta':
          stopReason = event.delta.stop_reason ?? stopReason;
          // message_delta usage is cumulative: the latest value is the total, never add them up.
          {
            const usage = event.usage as typeof event.usage | undefined;
            if (usage?.output_tokens != null) output = usage.output_tokens;
            if (usage?.input_tokens != null) input = inputParts(usage);
          }
          break;
        case 'message_stop':
          stopped = true;
          break;
        default:
          break;
      }
    }
    const usage: ReportedUsage | undefined = input !== undefined && output !== undefined ? { input, output } : undefined;
    return { text, stopReason, stopped, usage };
  }

  return createStreamingEngine({
    provider: 'anthropic',
    config,
    resilience,
    errorContext,
    attempt: async (request, ctx) => {
      const out = await attempt(request, ctx);
      return { text: out.text, usage: out.usage, finishReason: mapStop(out.stopReason), finished: out.stopped };
    },
    toEngineError: (error) => toEngineError(errorContext, error),
    maxOutputTokens: (request) => maxTokensFor(request),
  });
}
