import { describe, expect, it } from 'vitest';
import { EngineError } from './engine.js';
import { classifyFailure, classifyTransportError, formatDuration, redact, retryAfterMsFromHeaders, type ErrorContext } from './engine-errors.js';
import { backoffDelayMs, resolveResilience, runResilient } from './resilience.js';

const ctx: ErrorContext = { engineKey: 'alpha', host: 'gpu-box:11434', secrets: ['sk-live-abcdef123456'], now: () => 0 };
const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMsFromHeaders', () => {
  const now = () => Date.parse('2026-11-02T10:00:00Z');
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': '7', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': 'Mon, 02 Nov 2026 10:00:12 GMT' }), now)).toBe(12_000);
  });
  it('ignores what it cannot read and never goes negative', () => {
    expect(retryAfterMsFromHeaders(headers({}), now)).toBeUndefined();
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': 'Mon, 02 Nov 2026 09:00:00 GMT' }), now)).toBe(0);
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the base, caps, and jitters within the upper half', () => {
    const error = new EngineError('alpha', 'server', 'x');
    const low = resolveResilience({ random: () => 0 });
    const high = resolveResilience({ random: () => 0.999999 });
    expect([1, 2, 3].map((n) => backoffDelayMs(n, error, low))).toEqual([500, 1000, 2000]);
    expect([1, 2, 3].map((n) => backoffDelayMs(n, error, high))).toEqual([1000, 2000, 4000]);
    expect(backoffDelayMs(10, error, high)).toBe(30_000);
  });
  it('uses the retry-after of the error as it is', () => {
    const error = new EngineError('alpha', 'rate_limit', 'x', { retryAfterMs: 4200 });
    expect(backoffDelayMs(3, error, resolveResilience())).toBe(4200);
  });
});

describe('classification', () => {
  it('keeps keys out of messages', () => {
    const error = classifyFailure(ctx, { status: 400, detail: 'bad value sk-live-abcdef123456 and sk-other-xyz987654' }, null);
    expect(error.kind).toBe('bad_request');
    expect(error.message).not.toContain('abcdef123456');
    expect(error.message).not.toContain('xyz987654');
    expect(redact('Authorization: Bearer abc.def', [])).toBe('Authorization: [redacted]');
  });

  it('tells a free-tier rate limit that mentions billing from an exhausted quota', () => {
    const limit = classifyFailure(
      ctx,
      { status: 429, code: 'rate_limit_exceeded', detail: 'Add a payment method at https://platform.openai.com/account/billing to increase your rate limit.' },
      null,
    );
    expect(limit.kind).toBe('rate_limit');
    expect(classifyFailure(ctx, { status: 429, code: 'insufficient_quota' }, null).kind).toBe('quota');
  });

  it('reads an HTTP status put into the code of an in-stream error', () => {
    expect(classifyFailure(ctx, { code: 502, detail: 'Upstream error' }, null)).toMatchObject({ kind: 'server', retryable: true });
    expect(classifyFailure(ctx, { code: 'server_error', type: 'server_error', detail: 'the context window is full' }, null).kind).toBe(
      'bad_request',
    );
  });

  it('names the host on connection errors', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    const error = classifyTransportError(ctx, refused);
    expect(error.kind).toBe('connection');
    expect(error.message).toBe(
      'Engine alpha could not connect to gpu-box:11434 (connection refused). Check that the server is running and that the base URL configured for the engine is right.',
    );
    const dns = classifyTransportError(ctx, { cause: { code: 'ENOTFOUND' } });
    expect(dns.message).toContain('could not connect to gpu-box:11434 (host not found)');
  });

  it('formats durations for people', () => {
    expect([200, 1000, 1500, 60_000].map(formatDuration)).toEqual(['200 ms', '1 s', '1.5 s', '60 s']);
  });
});

describe('runResilient', () => {
  it('never retries what cannot get better, and reports one attempt', async () => {
    let calls = 0;
    const promise = runResilient({
      engineKey: 'alpha',
      options: resolveResilience({ sleep: async () => {} }),
      attempt: async () => {
        calls++;
        throw new EngineError('alpha', 'auth', 'Engine alpha rejected its API key (401). Check the key configured for it.');
      },
      toEngineError: (e) => e as EngineError,
    });
    await expect(promise).rejects.toMatchObject({ kind: 'auth', attempts: 1 });
    expect(calls).toBe(1);
  });

  it('counts attempts on success', async () => {
    let calls = 0;
    const { value, attempts } = await runResilient({
      engineKey: 'alpha',
      options: resolveResilience({ sleep: async () => {} }),
      attempt: async () => {
        if (++calls < 3) throw new EngineError('alpha', 'connection', 'lost');
        return 'ok';
      },
      toEngineError: (e) => e as EngineError,
    });
    expect({ value, attempts }).toEqual({ value: 'ok', attempts: 3 });
  });
});
