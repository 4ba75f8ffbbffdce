/**
 * A local stand-in for Anthropic's Messages API that the real `@anthropic-ai/sdk` talks to via
 * `baseURL`. It streams named events as the API does: message_start (with input usage),
 * content_block_start, ping, content_block_delta…, content_block_stop, message_delta (stop
 * reason and cumulative output usage), message_stop; errors after a 200 as `event: error`.
 *
 *   const fake = await startFakeAnthropicServer({ script: [anthropicReplies.overloaded(), anthropicReplies.stream(['Hi'])] });
 *   const engine = createAnthropicEngine({ key: 'beta', model: 'claude-test', baseURL: fake.baseURL, apiKey: 'k' });
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

/** The inner `error` of Anthropic's error bodies, and of its in-stream `event: error`. */
export interface AnthropicErrorBody {
  type: string;
  message: string;
}

export type AnthropicFakeServer = FakeServer<AnthropicErrorBody>;

export interface FakeAnthropicServerOptions extends FakeServerOptions<AnthropicErrorBody> {
  /**
   * When set, requests that carry neither `x-api-key: <apiKey>` nor `Authorization: Bearer <apiKey>`
   * get Anthropic's 401 (SDK 1.x sends the key as a bearer token; older clients use x-api-key).
   */
  apiKey?: string;
  /** When set, requests for other models get Anthropic's 404 not_found_error. */
  models?: string[];
}

function error(status: number, type: string, message: string, headers?: Record<string, string>): FakeErrorBehaviour {
  return {
    kind: 'error',
    status,
    body: { type: 'error', error: { type, message }, request_id: 'req_fake' },
    headers: { 'request-id': 'req_fake', ...headers },
  };
}

/** Ready-made behaviours in Anthropic's real wording and shapes. */
export const anthropicReplies = {
  stream(deltas: string[] = DEFAULT_FAKE_DELTAS, extra: Omit<FakeStreamBehaviour<AnthropicErrorBody>, 'kind' | 'deltas'> = {}) {
    return { kind: 'stream', deltas, ...extra } satisfies FakeStreamBehaviour<AnthropicErrorBody>;
  },
  rateLimited(retryAfter?: string): FakeErrorBehaviour {
    return error(
      429,
      'rate_limit_error',
      'This request would exceed the rate limit for your organization of 50 requests per minute.',
      { ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}), 'anthropic-ratelimit-requests-remaining': '0' },
    );
  },
  /** What Anthropic answers when the account has run out of prepaid credit. */
  creditBalanceTooLow(): FakeErrorBehaviour {
    return error(
      400,
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    );
  },
  billingError(): FakeErrorBehaviour {
    return error(402, 'billing_error', 'Your account has an outstanding balance. Please update your payment method.');
  },
  invalidKey(): FakeErrorBehaviour {
    return error(401, 'authentication_error', 'invalid x-api-key');
  },
  modelNotFound(model = 'claude-test'): FakeErrorBehaviour {
    return error(404, 'not_found_error', `model: ${model}`);
  },
  contextTooLong(): FakeErrorBehaviour {
    return error(400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum');
  },
  overloaded(): FakeErrorBehaviour {
    return error(529, 'overloaded_error', 'Overloaded');
  },
  serverError(): FakeErrorBehaviour {
    return error(500, 'api_error', 'Internal server error');
  },
  /** An in-stream error body, for `interrupt: { error }`. */
  streamError(type = 'overloaded_error', message = 'Overloaded'): AnthropicErrorBody {
    return { type, message };
  },
};

function modelOf(request: RecordedRequest): string {
  return (request.body as { model?: string } | undefined)?.model ?? 'claude-test';
}

const encoder = {
  start(behaviour: FakeStreamBehaviour<AnthropicErrorBody>, request: RecordedRequest) {
    const usage = fakeUsage(behaviour, request, '');
    const message = {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      content: [],
      model: modelOf(request),
      stop_reason: null,
      stop_sequence: null,
      ...(usage ? { usage: { input_tokens: usage.inputTokens, output_tokens: 1 } } : {}),
    };
    return [
      sseFrame({ type: 'message_start', message }, 'message_start'),
      sseFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sseFrame({ type: 'ping' }, 'ping'),
    ];
  },
  delta(text: string) {
    return sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta');
  },
  finish(behaviour: FakeStreamBehaviour<AnthropicErrorBody>, request: RecordedRequest, text: string) {
    const usage = fakeUsage(behaviour, request, text);
    return [
      sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sseFrame(
        {
          type: 'message_delta',
          delta: { stop_reason: behaviour.finishReason ?? 'end_turn', stop_sequence: null },
          ...(usage ? { usage: { output_tokens: usage.outputTokens } } : {}),
        },
        'message_delta',
      ),
      sseFrame({ type: 'message_stop' }, 'message_stop'),
    ];
  },
  error(body: AnthropicErrorBody) {
    return sseFrame({ type: 'error', error: body }, 'error');
  },
  // Not a ping: the SDK drops pings before our code sees them, so they could not keep a call alive.
  empty() {
    return sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } }, 'content_block_delta');
  },
};

/** Starts the fake on 127.0.0.1 with a free port; `baseURL` is the origin, like Anthropic's. */
export function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<AnthropicFakeServer> {
  return startFakeHttpServer<AnthropicErrorBody>(
    {
      path: '/v1/messages',
      basePath: '',
      encoder,
      streamHeaders: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'request-id': 'req_fake',
      },
      notFound: error(404, 'not_found_error', 'Not found'),
      precheck(request) {
        const { apiKey } = options;
        if (apiKey !== undefined && request.headers['x-api-key'] !== apiKey && request.headers['authorization'] !== `Bearer ${apiKey}`) {
          return anthropicReplies.invalidKey();
        }
        if (options.models && !options.models.includes(modelOf(request))) return anthropicReplies.modelNotFound(modelOf(request));
        return undefined;
      },
    },
    options,
  );
}
