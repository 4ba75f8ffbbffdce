/**
 * Usage as endpoints report it, over the wire to the real SDKs: whatever they claim, a call is
 * counted in whole tokens within what it could have used, and never fails for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicEngine } from './anthropic-engine.js';
import { createOpenAIEngine } from './openai-engine.js';
import { estimateUsage } from './message-parts.js';
import { maxInputTokens } from '../billing/usage-bounds.js';
import { anthropicReplies, startFakeAnthropicServer } from './testing/fake-anthropic-server.js';
import { openaiReplies, startFakeOpenAIServer } from './testing/fake-openai-server.js';
import type { Engine } from './engine.js';
import { runEnhancement } from '../enhance/run-enhancement.js';

const ask = [
  { role: 'system' as const, content: 'You write code.' },
  { role: 'user' as const, content: 'Say hello.' },
];
const MAX_TOKENS = 300;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

type Reported = { inputTokens: unknown; outputTokens: unknown };

async function openai(usage: Reported): Promise<Engine> {
  const fake = await startFakeOpenAIServer();
  closers.push(() => fake.close());
  fake.enqueue(openaiReplies.stream(['Hello', ' there'], { usage }));
  return createOpenAIEngine({ key: 'alpha', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'k' });
}

async function anthropic(usage: Reported): Promise<Engine> {
  const fake = await startFakeAnthropicServer();
  closers.push(() => fake.close());
  fake.enqueue(anthropicReplies.stream(['Hello', ' there'], { usage }));
  return createAnthropicEngine({ key: 'beta', model: 'claude-test', baseURL: fake.baseURL, apiKey: 'k' });
}

const estimate = estimateUsage(ask, 'Hello there');
const inputBound = maxInputTokens(ask);

describe.each([
  ['openai', openai],
  ['anthropic', anthropic],
] as const)('%s usage from the wire', (_name, start) => {
  it.each([['1e6'], [0.4], [1e300], [-5], [null]])('usage %s is unusable: the call is counted at its own estimate and says why', async (bad) => {
    const engine = await start({ inputTokens: bad, outputTokens: bad });
    const result = await engine.complete({ messages: ask, maxTokens: MAX_TOKENS });
    expect(result.text).toBe('Hello there');
    expect(result.usage).toEqual(estimate);
    expect(result.usageEstimated).toBe(true);
    expect(result.usageProblem).toContain('not a whole, non-negative number');
  });

  it('one bad count is enough to distrust the rest (a good input, a fractional output)', async () => {
    const engine = await start({ inputTokens: 12, outputTokens: 2.5 });
    const result = await engine.complete({ messages: ask, maxTokens: MAX_TOKENS });
    expect(result.usage).toEqual(estimate);
    expect(result.usageProblem).toContain('(2.5)');
  });

  it('1,000,100 tokens for a short call are cut to what it could use: its prompt bytes and its max_tokens', async () => {
    const engine = await start({ inputTokens: 1_000_000, outputTokens: 100 });
    const result = await engine.complete({ messages: ask, maxTokens: MAX_TOKENS });
    expect(result.usage).toEqual({ inputTokens: inputBound, outputTokens: 100, totalTokens: inputBound + 100 });
    expect(inputBound).toBeLessThan(100);
    expect(result.usageEstimated).toBeUndefined();
    expect(result.usageProblem).toContain('reported 1000100 tokens');
  });

  it('an output over max_tokens is cut to max_tokens', async () => {
    const engine = await start({ inputTokens: 10, outputTokens: 1_000_100 });
    const result = await engine.complete({ messages: ask, maxTokens: MAX_TOKENS });
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: MAX_TOKENS, totalTokens: 10 + MAX_TOKENS });
  });

  it('usage within bounds is taken as reported, with no problem', async () => {
    const engine = await start({ inputTokens: 20, outputTokens: 3 });
    const result = await engine.complete({ messages: ask, maxTokens: MAX_TOKENS });
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 3, totalTokens: 23 });
    expect(result.usageProblem).toBeUndefined();
  });
});

describe('an enhancement over an engine that reports unusable usage', () => {
  it('completes, counts every call at its estimate, and says so once for the engine', async () => {
    const fake = await startFakeOpenAIServer({ fallback: () => ({ kind: 'stream', deltas: ['A sharper prompt'], usage: { inputTokens: '1e6', outputTokens: '1e6' } }) });
    closers.push(() => fake.close());
    const engine = createOpenAIEngine({ key: 'alpha', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'k' });
    const events: Array<{ type: string; level?: string; message?: string }> = [];
    const run = runEnhancement({ prompt: 'A todo app', engines: [engine], passes: 2, enginesPerPass: 2 });
    let step = await run.next();
    while (!step.done) {
      events.push(step.value);
      step = await run.next();
    }
    expect(step.value.finalPrompt).not.toBe('');
    expect(fake.requests.length).toBe(5);
    for (const record of step.value.steps) expect(Number.isSafeInteger(record.usage.totalTokens)).toBe(true);
    const said = events.filter((e) => e.type === 'log' && e.level === 'warning' && e.message?.includes('not a whole, non-negative number'));
    expect(said).toHaveLength(1);
  });
});
