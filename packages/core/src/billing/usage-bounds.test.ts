import { describe, expect, it } from 'vitest';
import { countedUsage, IMAGE_TOKEN_ALLOWANCE, maxInputTokens, MESSAGE_FRAMING_TOKENS } from './usage-bounds.js';

const limits = { maxInputTokens: 100, maxOutputTokens: 50 };
const estimate = { inputTokens: 30, outputTokens: 10, totalTokens: 40 };

describe('maxInputTokens', () => {
  it('counts UTF-8 bytes (a token is at least one), framing and an allowance per image, within the context window', () => {
    const messages = [
      { role: 'system' as const, content: 'abc' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'é🙂' }, { type: 'image' as const, dataUrl: 'data:image/png;base64,AA', mimeType: 'image/png' }] },
    ];
    expect(maxInputTokens(messages)).toBe(3 * MESSAGE_FRAMING_TOKENS + 3 + 2 + 4 + IMAGE_TOKEN_ALLOWANCE);
    expect(maxInputTokens(messages, 1000)).toBe(1000);
  });
});

describe('countedUsage', () => {
  it('takes whole counts within the limits as reported, adding input parts', () => {
    expect(countedUsage('a', { input: [40, 5, 0], output: 50 }, limits, estimate)).toEqual({ usage: { inputTokens: 45, outputTokens: 50, totalTokens: 95 }, estimated: false });
  });

  it('cuts counts above the limits to them, and says what was reported', () => {
    const counted = countedUsage('a', { input: [1_000_000], output: 100 }, limits, estimate);
    expect(counted.usage).toEqual({ inputTokens: 100, outputTokens: 50, totalTokens: 150 });
    expect(counted.problem).toBe('Engine a reported 1000100 tokens for a call that could use at most 150 (100 in, 50 out); its calls are billed for at most what they could use.');
  });

  it.each([['1e6'], [0.4], [1e300], [-5], [Number.NaN], [Number.POSITIVE_INFINITY], [undefined], [null], [true]])('falls back to the estimate for %s', (bad) => {
    const counted = countedUsage('a', { input: [bad], output: 3 }, limits, estimate);
    expect(counted.usage).toEqual(estimate);
    expect(counted.estimated).toBe(true);
    expect(counted.problem).toMatch(/^Engine a reported token usage that is not a whole, non-negative number \(.+\); its calls are billed from each request's own estimate instead\.$/);
  });

  it('shows a string as the string it was', () => {
    expect(countedUsage('a', { input: ['1e6'], output: 3 }, limits, estimate).problem).toContain('("1e6")');
  });

  it('keeps even the estimate within the limits, and names no problem when nothing was reported', () => {
    expect(countedUsage('a', undefined, { maxInputTokens: 20, maxOutputTokens: 5 }, estimate)).toEqual({ usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 }, estimated: true });
  });
});
