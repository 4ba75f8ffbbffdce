import { describe, expect, it } from 'vitest';
import { idempotencyKey, redirectOrigin } from './payment-routes.js';

describe('payment route helpers', () => {
  it('redirects to the public origin when configured, else to the server as reached', () => {
    expect(redirectOrigin({ protocol: 'http', host: '127.0.0.1:3000' }, undefined)).toBe('http://127.0.0.1:3000');
    expect(redirectOrigin({ protocol: 'http', host: 'internal:3000' }, 'https://wolfpack.example.com/')).toBe('https://wolfpack.example.com');
  });

  it('accepts an optional visible-ASCII Idempotency-Key of at most 100 characters', () => {
    expect(idempotencyKey('')).toBeUndefined();
    expect(idempotencyKey('click-1')).toBe('click-1');
    expect(idempotencyKey('x'.repeat(100))).toHaveLength(100);
    for (const bad of ['x'.repeat(101), 'has space', 'ünicode', 'tab\t']) expect(() => idempotencyKey(bad)).toThrow(/Idempotency-Key/);
  });
});
