/**
 * Engine over the official `openai` SDK's chat completions, for OpenAI and every endpoint that
 * speaks its API (Ollama, vLLM, llama.cpp server, OpenRouter, Groq, DeepSeek…). Deliberately
 * plain: streamed text only, no JSON mode and no tool calling, so small local models work too.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { EngineAdapterConfig, EngineOptions } from './engine-adapter-config.js';
import type { ChatMessage, Engine, EngineRequest, EngineResult } from './engine.js';
import type { ReportedUsage } from '../billing/usage-bounds.js';
import {
  classifyFailure,
  classifyTransportError,
  errorContextFor,
  type ErrorContext,
} from './engine-errors.js';
import { hostOf, partsOf, textOf } from './message-parts.js';
import { SDK_TIMEOUT_MARGIN_MS, callBack, resolveResilience, type AttemptContext } from './resilience.js';
import { createStreamingEngine } from './streaming-engine.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Converts messages; image parts become `image_url` data URLs only when the engine reads images. */
export function toOpenAIMessages(messages: readonly ChatMessage[], supportsImages: boolean): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    if (message.role !== 'user') return { role: message.role, content: textOf(message.content) };
    const parts = partsOf(message.content);
    if (!supportsImages || !parts.some((part) => part.type === 'image')) {
      // A plain string, not a list of parts: several local servers reject part lists outright.
      return { role: 'user', content: textOf(message.content) };
    }
    const content = parts.map(
      (part): ChatCompletionContentPart =>
        part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: part.dataUrl } },
    );
    return { role: 'user', content };
  });
}

function toEngineError(ctx: ErrorContext, error: unknown) {
  if (error instanceof APIConnectionTimeoutError) return classifyTransportError(ctx, error, { timedOut: true });
  if (error instanceof APIConnectionError) return classifyTransportError(ctx, error);
  if (error instanceof APIError) {
    const body = (error.error ?? {}) as { message?: unknown };
    return classifyFailure(
      ctx,
      {
        status: error.status,
        code: error.code,
        type: error.type,
        detail: typeof body.message === 'string' ? body.message : undefined,
        headers: error.headers,
      },
      error,
    );
  }
  return classifyTransportError(ctx, error);
}

function mapFinish(reason: string | null): EngineResult['finishReason'] {
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
}

/**
 * An Engine over an OpenAI-compatible chat completions endpoint. Always streams, asks for usage
 * in the stream, and estimates it (`usageEstimated`) when the endpoint sends none.
 */
export function createOpenAIEngine(config: EngineAdapterConfig, options: EngineOptions = {}): Engine {
  const resilience = resolveResilience(options);
  const baseURL = config.baseURL ?? OPENAI_BASE_URL;
  const client = new OpenAI({
    // Local servers accept any key, but the SDK insists on one.
    apiKey: config.apiKey ?? 'no-key',
    baseURL,
    // Explicit nulls keep the SDK from reading OPENAI_* variables meant for something else.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    // Ours are the only retries; the SDK timeout only guards the wait for headers.
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
  // OpenAI's newer models reject `max_tokens`; compatible servers mostly only know it.
  const maxTokensField = hostOf(baseURL) === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';

  async function attempt(request: EngineRequest, ctx: AttemptContext) {
    const maxTokens = request.maxTokens ?? options.defaultMaxTokens;
    const stream = await client.chat.completions.create(
      {
        model: config.model,
        messages: toOpenAIMessages(request.messages, supportsImages),
        stream: true,
        stream_options: { include_usage: true },
        ...(maxTokens !== undefined ? { [maxTokensField]: maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      },
      { signal: ctx.signal, maxRetries: 0 },
    );
    let text = '';
    let finish: string | null = null;
    let usage: ReportedUsage | undefined;
    for await (const chunk of stream) {
      ctx.onChunk();
      // Unchecked: the streaming engine decides what of it counts.
      if (chunk.usage) usage = { input: [chunk.usage.prompt_tokens], output: chunk.usage.completion_tokens };
      // Only the first choice: we never ask for n > 1.
      const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
      const delta = choice?.delta?.content;
      if (delta) {
        text += delta;
        callBack(request.onDelta, delta);
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    return { text, finish, usage };
  }

  return createStreamingEngine({
    provider: 'openai',
    config,
    resilience,
    errorContext,
    attempt: async (request, ctx) => {
      const out = await attempt(request, ctx);
      return { text: out.text, usage: out.usage, finishReason: mapFinish(out.finish), finished: out.finish !== null };
    },
    toEngineError: (error) => toEngineError(errorContext, error),
    maxOutputTokens: (request) => request.maxTokens ?? options.defaultMaxTokens,
  });
}
