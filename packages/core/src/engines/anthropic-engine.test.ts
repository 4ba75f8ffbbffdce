import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicEngine } from './anthropic-engine.js';
import { EngineError } from './engine.js';
import type { EngineOptions } from './engine-adapter-config.js';
import { IMAGE_DROPPED_NOTE } from './message-parts.js';
import { ManualWatchdog } from './testing/manual-watchdog.js';
import { anthropicReplies, startFakeAnthropicServer, type AnthropicFakeServer } from './testing/fake-anthropic-server.js';

const KEY = 'sk-ant-test-secret-1234567890';
let fake: AnthropicFakeServer;
let slept: number[];
let watchdog: ManualWatchdog;

/** Retries sleep instantly but record the wait; the watchdog fires only when a test fires it. */
function engine(options: EngineOptions = {}, supportsImages = false) {
  return createAnthropicEngine(
    { key: 'beta', model: 'claude-test', baseURL: fake.baseURL, apiKey: KEY, supportsImages },
    { sleep: async (ms) => void slept.push(ms), random: () => 0.5, stallTimeoutMs: 200, firstChunkTimeoutMs: 400, watchdogTimer: watchdog.timer, ...options },
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
  fake = await startFakeAnthropicServer({ apiKey: KEY, models: ['claude-test'] });
  slept = [];
  watchdog = new ManualWatchdog();
});
afterEach(async () => {
  await fake.close();
});

describe('anthropic engine: streaming', () => {
  it('collects text and usage, calls onDelta in order, and sends the system prompt apart', async () => {
    const deltas = ['Grüße', ' vom', ' Rudel 🐺'];
    fake.enqueue(anthropicReplies.stream(deltas, { usage: { inputTokens: 30, outputTokens: 9 } }));
    const seen: string[] = [];
    // Timeouts a busy machine cannot trip: a retry would be answered with the fake's default reply.
    const result = await engine({ stallTimeoutMs: 5_000, firstChunkTimeoutMs: 5_000 }).complete({ messages: ask, maxTokens: 500, onDelta: (d) => seen.push(d) });

    expect(seen).toEqual(deltas);
    expect(result).toMatchObject({
      text: 'Grüße vom Rudel 🐺',
      usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39 },
      finishReason: 'stop',
      attempts: 1,
    });
    expect(result.usageEstimated).toBeUndefined();
    expect(fake.requests[0]?.body).toEqual({
      model: 'claude-test',
      max_tokens: 500,
      stream: true,
      system: 'You write code.',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
  });

  it('estimates usage when a compatible proxy reports none', async () => {
    fake.enqueue(anthropicReplies.stream(['12345'], { usage: 'none' }));
    const result = await engine().complete({ messages: [{ role: 'user', content: 'abcd' }] });
    expect(result.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    expect(result.usageEstimated).toBe(true);
  });

  it("maps stop_reason max_tokens to 'length'", async () => {
    fake.enqueue(anthropicReplies.stream(['cut'], { finishReason: 'max_tokens' }));
    expect((await engine().complete({ messages: ask })).finishReason).toBe('length');
  });

  it('sends images as base64 blocks only to engines that read images', async () => {
    const messages = [
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'Like this:' },
          { type: 'image' as const, dataUrl: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
    ];
    await engine({}, true).complete({ messages });
    await engine({}, false).complete({ messages });
    const withImages = fake.requests[0]?.body as { messages: Array<{ content: unknown }> };
    expect(withImages.messages[0]?.content).toEqual([
      { type: 'text', text: 'Like this:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    const without = fake.requests[1]?.body as { messages: Array<{ content: unknown }> };
    expect(without.messages[0]?.content).toBe(`Like this:\n${IMAGE_DROPPED_NOTE}`);
  });
});

describe('anthropic engine: failures', () => {
  it('retries 429 after its retry-after and 529 overloaded with backoff', async () => {
    fake.enqueue(anthropicReplies.rateLimited('3'), anthropicReplies.overloaded(), anthropicReplies.stream(['ok']));
    const result = await engine().complete({ messages: ask });
    expect(result).toMatchObject({ text: 'ok', attempts: 3 });
    expect(slept).toEqual([3000, 1500]);
  });

  it('rejects a bad key without retrying', async () => {
    const bad = createAnthropicEngine({ key: 'beta', model: 'claude-test', baseURL: fake.baseURL, apiKey: 'sk-ant-wrong' });
    const error = await failure(bad.complete({ messages: ask }));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('Engine beta rejected its API key (401). Check the key configured for it.');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an unknown model', async () => {
    const other = createAnthropicEngine({ key: 'beta', model: 'claude-nope', baseURL: fake.baseURL, apiKey: KEY });
    const error = await failure(other.complete({ messages: ask }));
    expect(error.kind).toBe('model_not_found');
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['a credit balance that is too low', anthropicReplies.creditBalanceTooLow()],
    ['a billing error', anthropicReplies.billingError()],
  ])('treats %s as quota, not retried', async (_name, reply) => {
    fake.enqueue(reply);
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(/^Engine beta is out of credit or quota/);
    expect(fake.requests).toHaveLength(1);
  });

  it('explains a prompt that is too long', async () => {
    fake.enqueue(anthropicReplies.contextTooLong());
    const error = await failure(engine().complete({ messages: ask }));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('context window');
  });

  it('classifies an overloaded_error event after a 200 as a retryable server error', async () => {
    fake.enqueue(
      anthropicReplies.stream(['half'], { interruptAfter: 1, interrupt: { error: anthropicReplies.streamError() } }),
      anthropicReplies.stream(['whole']),
    );
    const kinds: string[] = [];
    const result = await engine().complete({ messages: ask, onRetry: (info) => kinds.push(info.error.kind) });
    expect(result).toMatchObject({ text: 'whole', attempts: 2 });
    expect(kinds).toEqual(['server']);

    fake.enqueue(anthropicReplies.stream([], { interruptAfter: 0, interrupt: { error: anthropicReplies.streamError() } }));
    const error = await failure(engine({ maxRetries: 0 }).complete({ messages: ask }));
    expect(error).toMatchObject({ kind: 'server', retryable: true });
    expect(error.message).toBe('Engine beta is overloaded (overloaded_error). Try again shortly, or use another engine.');
  });

  it('aborts a stalled stream', async () => {
    fake.enqueue(anthropicReplies.stream(['a', 'b'], { interruptAfter: 1, interrupt: 'stall' }));
    const seen: string[] = [];
    const pending = failure(engine({ maxRetries: 0 }).complete({ messages: ask, onDelta: (d) => seen.push(d) }));
    await expect.poll(() => seen).toEqual(['a']);
    await watchdog.fire(200);
    const error = await pending;
    expect(error.kind).toBe('stalled');
    expect(error.message).toMatch(/^Engine beta stopped sending output for 200 ms\./);
    await expect.poll(() => fake.requests[0]?.clientClosedEarly).toBe(true);
  });

  it('retries a stream that ends without message_stop', async () => {
    fake.enqueue(anthropicReplies.stream(['a'], { interruptAfter: 1, interrupt: 'end' }), anthropicReplies.stream(['b']));
    const result = await engine().complete({ messages: ask });
    expect(result).toMatchObject({ text: 'b', attempts: 2 });
  });

  it('stops at once when the signal aborts', async () => {
    // After its first delta the stream goes quiet, open, and the watchdogs are a minute away:
    // only the abort can end this call before the test's timeout.
    fake.enqueue(anthropicReplies.stream(['first', ' never sent'], { interruptAfter: 1, interrupt: 'stall' }));
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
});
