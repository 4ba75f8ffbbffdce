/**
 * A local stand-in for OpenAI's chat completions API (and the compatible servers) that the real
 * `openai` SDK talks to via `baseURL`. It streams `chat.completion.chunk` events exactly as the
 * API does: a role chunk, content deltas, a finish chunk, a usage chunk with empty `choices`
 * (only when the request asked for it), then `data: [DONE]`.
 *
 *   const fake = await startFakeOpenAIServer({ script: [openaiReplies.rateLimited('2'), openaiReplies.stream(['Hi'])] });
 *   const engine = createOpenAIEngine({ key: 'alpha', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'k' });
 */
import {
  DEFAULT_FAKE_DELTAS,
  fakeUsage,
  sseFrame,
  startFakeHttpServer,
  type FakeErrorBehaviour,
  type FakeServer,
  type FakeServerOptions,
  type FakeStreamBehaviour,
  type RecordedRequest,
} from './fake-http.js';

/** The body of OpenAI's errors, and of its in-stream `data: {"error": …}` chunk. */
export interface OpenAIErrorBody {
  message: string;
  type: string;
  param?: string | null;
  code?: string | number | null;
}

export type OpenAIFakeServer = FakeServer<OpenAIErrorBody>;

export interface FakeOpenAIServerOptions extends FakeServerOptions<OpenAIErrorBody> {
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /** When set, requests for other models get OpenAI's 404 model_not_found. */
  models?: string[];
}

function error(status: number, body: OpenAIErrorBody, headers?: Record<string, string>): FakeErrorBehaviour {
  return { kind: 'error', status, body: { error: { param: null, code: null, ...body } }, headers: { 'x-request-id': 'req_fake', ...headers } };
}

/** Ready-made behaviours in OpenAI's real wording and shapes. */
export const openaiReplies = {
  stream(deltas: string[] = DEFAULT_FAKE_DELTAS, extra: Omit<FakeStreamBehaviour<OpenAIErrorBody>, 'kind' | 'deltas'> = {}) {
    return { kind: 'stream', deltas, ...extra } satisfies FakeStreamBehaviour<OpenAIErrorBody>;
  },
  /** 429 with `retry-after` (seconds or an HTTP date) and, optionally, `retry-after-ms`. */
  rateLimited(retryAfter?: string, retryAfterMs?: string): FakeErrorBehaviour {
    return error(
      429,
      {
        message: 'Rate limit reached for gpt-test in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      },
      {
        ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}),
        ...(retryAfterMs !== undefined ? { 'retry-after-ms': retryAfterMs } : {}),
        'x-ratelimit-remaining-requests': '0',
      },
    );
  },
  insufficientQuota(): FakeErrorBehaviour {
    return error(429, {
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    });
  },
  invalidKey(shownKey = 'sk-fake***abcd'): FakeErrorBehaviour {
    return error(401, {
      message: `Incorrect API key provided: ${shownKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
  },
  modelNotFound(model = 'gpt-test'): FakeErrorBehaviour {
    return error(404, {
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      type: 'invalid_request_error',
      code: 'model_not_found',
    });
  },
  contextTooLong(): FakeErrorBehaviour {
    return error(400, {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
  },
  serverError(status = 500): FakeErrorBehaviour {
    return error(status, {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
    });
  },
  /** An in-stream error body, for `interrupt: { error }`. */
  streamError(message = 'The server had an error while processing your request. Sorry about that!', type = 'server_error'): OpenAIErrorBody {
    return { message, type, param: null, code: null };
  },
};

const encoder = {
  start(_behaviour: FakeStreamBehaviour<OpenAIErrorBody>, request: RecordedRequest) {
    // Several hosted gateways send SSE comments while the model warms up; the SDK must skip them.
    return [': keep-alive\n\n', sseFrame(chunk(request, { role: 'assistant', content: '' }, null))];
  },
  delta(text: string, _index: number, request: RecordedRequest) {
    return sseFrame(chunk(request, { content: text }, null));
  },
  finish(behaviour: FakeStreamBehaviour<OpenAIErrorBody>, request: RecordedRequest, text: string) {
    const frames = [sseFrame(chunk(request, {}, behaviour.finishReason ?? 'stop'))];
    const body = request.body as { stream_options?: { include_usage?: boolean } } | undefined;
    const usage = fakeUsage(behaviour, request, text);
    if (body?.stream_options?.include_usage && usage) {
      frames.push(
        sseFrame({
          ...chunkBase(request),
          choices: [],
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            // Malformed counts (a test's) are echoed as they are.
            total_tokens: typeof usage.inputTokens === 'number' && typeof usage.outputTokens === 'number' ? usage.inputTokens + usage.outputTokens : usage.inputTokens,
          },
        }),
      );
    }
    frames.push('data: [DONE]\n\n');
    return frames;
  },
  error(body: OpenAIErrorBody) {
    return sseFrame({ error: body });
  },
  empty(request: RecordedRequest) {
    return sseFrame(chunk(request, {}, null));
  },
};

function chunkBase(request: RecordedRequest) {
  const model = (request.body as { model?: string } | undefined)?.model ?? 'gpt-test';
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_fake' };
}

function chunk(request: RecordedRequest, delta: Record<string, unknown>, finishReason: string | null) {
  return { ...chunkBase(request), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null };
}

/** Starts the fake on 127.0.0.1 with a free port; `baseURL` ends in /v1 like OpenAI's. */
export function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<OpenAIFakeServer> {
  return startFakeHttpServer<OpenAIErrorBody>(
    {
      path: '/v1/chat/completions',
      basePath: '/v1',
      encoder,
      streamHeaders: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': 'req_fake',
      },
      notFound: error(404, { message: 'Invalid URL (POST /v1/nothing)', type: 'invalid_request_error' }),
      precheck(request) {
        if (options.apiKey !== undefined && request.headers['authorization'] !== `Bearer ${options.apiKey}`) {
          return openaiReplies.invalidKey();
        }
        const model = (request.body as { model?: string } | undefined)?.model;
        if (options.models && !options.models.includes(model ?? '')) return openaiReplies.modelNotFound(model);
        return undefined;
      },
    },
    options,
  );
}
