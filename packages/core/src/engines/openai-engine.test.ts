import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError, type EngineRetryInfo } from './engine.js';
import type { EngineOptions } from './engine-adapter-config.js';
import { IMAGE_DROPPED_NOTE } from './message-parts.js';
import { createOpenAIEngine } from './openai-engine.js';
import { ManualWatchdog } from './testing/manual-watchdog.js';
import { openaiReplies, startFakeOpenAIServer, type OpenAIFakeServer } from './testing/fake-openai-server.js';

const KEY = 'sk-test-secret-1234567890';
let fake: OpenAIFakeServer;
let slept: number[];
let watchdog: ManualWatchdog;
/** Retries sleep instantly but record the wait; the watchdog fires only when a test fires it. */
function engine(options: EngineOptions = {}, config: { supportsImages?: boolean; baseURL?: string } = {}) {
  return createOpenAIEngine(
    { key: 'alpha', model: 'gpt-test', baseURL: config.baseURL ?? fake.baseURL, apiKey: KEY, supportsImages: config.supportsImages ?? false },
    {
      sleep: async (ms) => void slept.push(ms),
      random: () => 0.5,
      stallTimeoutMs: 200,
      firstChunkTimeoutMs: 400,
      watchdogTimer: watchdog.timer,
      ...options,
    },
  );
}

const ask = [
  { role: 'system' as const, content: 'You write code.' },
  { role: 'user' as const, content: 'Say hello.' },
];

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

beforeEach(async () => {
  fake = await startFakeOpenAIServer({ apiKey: KEY, models: ['gpt-test'] });
  slept = [];
  watchdog = new ManualWatchdog();
});
afterEach(async () => {
  await fake.close();
});

describe('openai engine: streaming', () => {
  it('collects text and usage, calls onDelta in order, and sends a streaming request with usage', async () => {
    const deltas = ['Grüße', ' vom', ' Rudel 🐺', '!'];
    fake.enqueue(openaiReplies.stream(deltas, { usage: { inputTokens: 21, outputTokens: 7 } }));
    const seen: string[] = [];
    const result = await engine().complete({ messages: ask, maxTokens: 100, temperature: 0.2, onDelta: (d) => seen.push(d) });

    expect(seen).toEqual(deltas);
    expect(result).toMatchObject({
      text: 'Grüße vom Rudel 🐺!',
      usage: { inputTokens: 21, outputTokens: 7, totalTokens: 28 },
      finishReason: 'stop',
      attempts: 1,
    });
    expect(result.usageEstimated).toBeUndefined();
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true }, temperature: 0.2 });
    // A custom base URL means a compatible server, which knows max_tokens.
    expect(body['max_tokens']).toBe(100);
    expect(body['tools']).toBeUndefined();
    expect(body['response_format']).toBeUndefined();
  });

  it('estimates usage at 4 characters a token, and says so, when the endpoint sends none', async () => {
    fake.enqueue(openaiReplies.stream(['12345678', '9'], { usage: 'none' }));
    const result = await engine().complete({ messages: [{ role: 'user', content: 'abcdefgh' }] });
    expect(result.usage).toEqual({ inputTokens: 2, outputTokens: 3, totalTokens: 5 });
    expect(result.usageEstimated).toBe(true);
  });

  it('waits for an answer the fake holds (headersAfter) until the test lets it go', async () => {
    let release!: () => void;
    fake.enqueue(openaiReplies.stream(['held'], { headersAfter: new Promise<void>((resolve) => (release = resolve)) }));
    let settled = false;
    const pending = engine({ firstChunkTimeoutMs: 10_000 })
      .complete({ messages: ask })
      .finally(() => (settled = true));
    await expect.poll(() => fake.requests.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(settled).toBe(false);
    release();
    expect((await pending).text).toBe('held');
  });

  it("maps finish_reason 'length' to a truncated result", async () => {
    fake.enqueue(openaiReplies.stream(['partial'], { finishReason: 'length' }));
    expect((await engine().complete({ messages: ask })).finishReason).toBe('length');
  });

  it('sends images as data URLs only to engines that read images', async () => {
    const dataUrl = 'data:image/png;base64,iVBORw0KGgo=';
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'Like this:' }, { type: 'image' as const, dataUrl, mimeType: 'image/png' }] },
    ];
    await engine({}, { supportsImages: true }).complete({ messages });
    await engine({}, { supportsImages: false }).complete({ messages });

    const withImages = fake.requests[0]?.body as { messages: Array<{ content: unknown }> };
    expect(withImages.messages[0]?.content).toEqual([
      { type: 'text', text: 'Like this:' },
      { type: 'image_url', image_url: { url: dataUrl } },
    ]);
    const without = fake.requests[1]?.body as { messages: Array<{ content: unknown }> };
    expect(without.messages[0]?.content).toBe(`Like this:\n${IMAGE_DROPPED_NOTE}`);
  });
});

describe("openai engine: OpenAI's own API", () => {
  it('sends max_completion_tokens, which its newer models require', async () => {
    // The real host, re-routed to the fake by a custom fetch (the option proxies would use).
    const reroute: typeof fetch = (input, init) =>
      fetch(String(input instanceof Request ? input.url : input).replace('https://api.openai.com/v1', fake.baseURL), init);
    const official = createOpenAIEngine({ key: 'alpha', model: 'gpt-test', apiKey: KEY }, { fetch: reroute });
    await official.complete({ messages: ask, maxTokens: 50 });
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body['max_completion_tokens']).toBe(50);
    expect(body['max_tokens']).toBeUndefined();
  });
});

describe('openai engine: retries', () => {
  it('retries a 429 after the wait its retry-after asks for', async () => {
    fake.enqueue(openaiReplies.rateLimited('2'), openaiReplies.stream(['ok']));
    const retries: EngineRetryInfo[] = [];
    const result = await engine().complete({ messages: ask, onRetry: (info) => retries.push(info) });
    expect(result.text).toBe('ok');
    expect(result.attempts).toBe(2);
    expect(slept).toEqual([2000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, delayMs: 2000, error: { kind: 'rate_limit' } });
  });

  it('prefers retry-after-ms, and reads retry-after as an HTTP date', async () => {
    const now = Date.parse('2026-11-02T10:00:00Z');
    fake.enqueue(
      openaiReplies.rateLimited('9', '1500'),
      openaiReplies.rateLimited(new Date(now + 5000).toUTCString()),
      openaiReplies.stream(['ok']),
    );
    const result = await engine({ now: () => now }).complete({ messages: ask });
    expect(result.attempts).toBe(3);
    expect(slept).toEqual([1500, 5000]);
  });

  it('fails at once when retry-after asks for longer than it is willing to wait', async () => {
    fake.enqueue(openaiReplies.rateLimited('600'));
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('rate_limit');
    expect(error.message).toContain('asked to wait 600 s');
    expect(slept).toEqual([]);
  });

  it('retries a 500 with exponential backoff, then succeeds', async () => {
    fake.enqueue(openaiReplies.serverError(500), openaiReplies.serverError(502), openaiReplies.stream(['fine']));
    const result = await engine().complete({ messages: ask });
    expect(result).toMatchObject({ text: 'fine', attempts: 3 });
    // base 1 s doubling, equal jitter at random() = 0.5 → 3/4 of the step.
    expect(slept).toEqual([750, 1500]);
  });

  it('gives up after maxRetries and says how often it tried', async () => {
    fake.enqueue(...Array.from({ length: 4 }, () => openaiReplies.serverError(503)));
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(4);
    expect(error.message).toMatch(/^Engine alpha had a server error \(503.*Gave up after 4 attempts\.\)$/);
    expect(fake.requests).toHaveLength(4);
  });
});

describe('openai engine: errors that are not retried', () => {
  it('names a rejected key without showing it', async () => {
    const bad = createOpenAIEngine({ key: 'alpha', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-wrong-key-abcdef' }, { sleep: async () => {} });
    const error = await failure(bad.complete({ messages: ask }));
    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('Engine alpha rejected its API key (401). Check the key configured for it.');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an unknown model', async () => {
    const other = createOpenAIEngine({ key: 'alpha', model: 'gpt-nope', baseURL: fake.baseURL, apiKey: KEY });
    const error = await failure(other.complete({ messages: ask }));
    expect(error.kind).toBe('model_not_found');
    expect(error.message).toContain('Engine alpha does not know the model configured for it (404 model_not_found)');
    expect(fake.requests).toHaveLength(1);
  });

  it('treats insufficient_quota as quota, not as a rate limit', async () => {
    fake.enqueue(openaiReplies.insufficientQuota());
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(/^Engine alpha is out of credit or quota \(429\)\. Add credit/);
    expect(fake.requests).toHaveLength(1);
  });

  it('explains a context that is too long', async () => {
    fake.enqueue(openaiReplies.contextTooLong());
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain("longer than the engine's context window (400)");
  });
});

describe('openai engine: broken streams', () => {
  it('aborts a stream that stalls and says for how long', async () => {
    fake.enqueue(openaiReplies.stream(['one', ' two', ' three'], { interruptAfter: 2, interrupt: 'stall' }));
    const seen: string[] = [];
    const pending = failure(engine({ maxRetries: 0 }).complete({ messages: ask, onDelta: (d) => seen.push(d) }));
    await expect.poll(() => seen).toEqual(['one', ' two']);
    await watchdog.fire(200);
    const error = await pending;
    // Only the watchdog says 'stalled', with its 200 ms; the stream itself would never have ended.
    expect(error.kind).toBe('stalled');
    expect(error.message).toMatch(/^Engine alpha stopped sending output for 200 ms\./);
    expect(fake.requests).toHaveLength(1);
    await expect.poll(() => fake.requests[0]?.clientClosedEarly).toBe(true);
  });

  it('retries after a stall and tells the consumer to start over', async () => {
    fake.enqueue(openaiReplies.stream(['lost'], { interruptAfter: 1 }), openaiReplies.stream(['kept']));
    const seen: string[] = [];
    const pending = engine().complete({
      messages: ask,
      onDelta: (d) => seen.push(d),
      onRetry: () => seen.push('<retry>'),
    });
    await expect.poll(() => seen).toEqual(['lost']);
    await watchdog.fire(200);
    const result = await pending;
    expect(result).toMatchObject({ text: 'kept', attempts: 2 });
    expect(seen).toEqual(['lost', '<retry>', 'kept']);
  });

  it('times out when no output arrives at all', async () => {
    fake.enqueue({ kind: 'hang' });
    const pending = failure(engine({ maxRetries: 0 }).complete({ messages: ask }));
    await expect.poll(() => fake.requests.length).toBe(1);
    await watchdog.fire(400);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^Engine alpha sent no output within 400 ms of the request\./);
  });

  it('classifies an error chunk that arrives after a 200, and retries it', async () => {
    fake.enqueue(
      openaiReplies.stream(['so far'], { interruptAfter: 1, interrupt: { error: openaiReplies.streamError() } }),
      openaiReplies.stream(['again']),
    );
    const result = await engine().complete({ messages: ask });
    expect(result).toMatchObject({ text: 'again', attempts: 2 });

    fake.enqueue(openaiReplies.stream([], { interruptAfter: 0, interrupt: { error: openaiReplies.streamError() } }));
    const error = await failure(engine({ maxRetries: 0 }).complete({ messages: ask }));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/^Engine alpha had a server error \(server_error: The server had an error/);
  });

  it('does not retry a quota error that arrives inside the stream', async () => {
    fake.enqueue(
      openaiReplies.stream([], {
        interruptAfter: 0,
        interrupt: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } },
      }),
    );
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('quota');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries when the socket is cut mid-stream, or the stream ends unfinished', async () => {
    fake.enqueue(
      openaiReplies.stream(['a', 'b'], { interruptAfter: 1, interrupt: 'close' }),
      openaiReplies.stream(['a', 'b'], { interruptAfter: 1, interrupt: 'end' }),
      openaiReplies.stream(['whole']),
    );
    const retries: EngineRetryInfo[] = [];
    const result = await engine().complete({ messages: ask, onRetry: (info) => retries.push(info) });
    expect(result).toMatchObject({ text: 'whole', attempts: 3 });
    expect(retries.map((r) => r.error.kind)).toEqual(['connection', 'connection']);
    expect(retries[1]?.error.message).toMatch(/^Engine alpha closed its stream \(127\.0\.0\.1:\d+\) before finishing/);
  });

  it('names the host it could not connect to', async () => {
    const closed = await startFakeOpenAIServer();
    const { port } = closed;
    await closed.close();
    const error = await failure(engine({}, { baseURL: `http://127.0.0.1:${port}/v1` }).complete({ messages: ask }));
    expect(error.kind).toBe('connection');
    expect(error.message).toMatch(
      new RegExp(`^Engine alpha could not connect to 127\\.0\\.0\\.1:${port} \\(connection refused\\)\\. Check that the server is running`),
    );
    expect(error.attempts).toBe(4);
    expect(slept).toHaveLength(3);
  });

  it('lets an error thrown by onDelta through unchanged, without retrying', async () => {
    const mine = new Error('consumer broke');
    const caught = await engine()
      .complete({ messages: ask, onDelta: () => { throw mine; } })
      .catch((e: unknown) => e);
    expect(caught).toBe(mine);
    expect(fake.requests).toHaveLength(1);
  });

  it('treats an answer with no text as empty', async () => {
    fake.enqueue(openaiReplies.stream([]));
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('empty');
  });
});

describe('openai engine: abort', () => {
  it('stops mid-stream at once when the signal aborts', async () => {
    // After its first delta the stream goes quiet, open, and the watchdogs are a minute away:
    // only the abort can end this call before the test's timeout.
    fake.enqueue(openaiReplies.stream(['first', ' never sent'], { interruptAfter: 1, interrupt: 'stall' }));
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await failure(
      engine({ stallTimeoutMs: 60_000, firstChunkTimeoutMs: 60_000 }).complete({
        messages: ask,
        signal: controller.signal,
        onDelta: (delta) => {
          seen.push(delta);
          controller.abort();
        },
      }),
    );
    expect(error.kind).toBe('aborted');
    expect(seen).toEqual(['first']);
    expect(fake.requests).toHaveLength(1);
    await expect.poll(() => fake.requests[0]?.clientClosedEarly).toBe(true);
  });

  it('stops waiting for a retry when the signal aborts', async () => {
    fake.enqueue(openaiReplies.rateLimited('30'));
    const controller = new AbortController();
    const waits: number[] = [];
    // The real sleep this time, 30 s as the 429 asked: the abort, once the wait has begun, has to
    // cut it short (a wait run to its end would outlast the test's timeout).
    const call = engine({ sleep: undefined, maxRetryAfterMs: 60_000 }).complete({
      messages: ask,
      signal: controller.signal,
      onRetry: ({ delayMs }) => {
        waits.push(delayMs);
        queueMicrotask(() => controller.abort());
      },
    });
    const error = await failure(call);
    expect(error.kind).toBe('aborted');
    expect(waits).toEqual([30_000]);
    expect(fake.requests).toHaveLength(1);
  });

  it('does not start when the signal has already aborted', async () => {
    const error = await failure(engine().complete({ messages: ask, signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(fake.requests).toHaveLength(0);
  });
});
