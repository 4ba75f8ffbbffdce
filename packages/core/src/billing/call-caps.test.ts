import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowanceCents, callCap, fullCallCents, holdWithin, IMAGE_INPUT_CHARS, inputTokensEstimate, MIN_USEFUL_OUTPUT_TOKENS, minimumCallCents, tokensWithin } from './call-caps.js';
import { MAX_OUTPUT_TOKENS_PER_CALL, PROMPT_OVERHEAD_TOKENS } from './guardrail.js';
import { callCostCents } from './money.js';

describe('call caps', () => {
  it('estimates a call\'s input at 3 characters a token plus the overhead every call carries', () => {
    expect(inputTokensEstimate(0)).toBe(PROMPT_OVERHEAD_TOKENS);
    expect(inputTokensEstimate(1)).toBe(PROMPT_OVERHEAD_TOKENS + 1);
    expect(inputTokensEstimate(3)).toBe(PROMPT_OVERHEAD_TOKENS + 1);
    expect(inputTokensEstimate(4)).toBe(PROMPT_OVERHEAD_TOKENS + 2);
    expect(inputTokensEstimate(-50)).toBe(PROMPT_OVERHEAD_TOKENS);
    expect([MIN_USEFUL_OUTPUT_TOKENS, IMAGE_INPUT_CHARS]).toEqual([1024, 6000]);
  });

  it('finds the most tokens a number of cents pays for, as billing rounds them', () => {
    // 10 cents per 1,000 tokens: 1 cent buys 100 tokens, 50 cents 5,000.
    expect(tokensWithin(1, 10)).toBe(100);
    expect(tokensWithin(50, 10)).toBe(5000);
    expect(tokensWithin(50.9, 10)).toBe(5000);
    expect(tokensWithin(0, 10)).toBe(0);
    expect(tokensWithin(-5, 10)).toBe(0);
    // A fraction of a cent per 1,000 tokens, and a free engine.
    expect(tokensWithin(1, 0.06)).toBe(16_666);
    expect(tokensWithin(1, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(tokensWithin(1, 0.0004)).toBe(Number.POSITIVE_INFINITY);
    // Amounts past a hundred million dollars count as that (exact arithmetic).
    expect(tokensWithin(1e15, 1)).toBe(tokensWithin(10_000_000_000, 1));
    expect(tokensWithin(10_000_000_000, 1)).toBe(10_000_000_000_000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 0, max: 5_000_000 }), (priceMilli, cents) => {
        const price = priceMilli / 1000;
        const tokens = tokensWithin(cents, price);
        expect(callCostCents(price, tokens)).toBeLessThanOrEqual(cents);
        expect(callCostCents(price, tokens + 1)).toBeGreaterThan(cents);
      }),
    );
  });

  it('gives a call the engine\'s full output cap when the balance covers it', () => {
    const full = fullCallCents(10, 1735);
    expect(full).toBe(callCostCents(10, 1735 + MAX_OUTPUT_TOKENS_PER_CALL));
    expect(full).toBe(100);
    expect(callCap({ availableCents: 100, pricePer1kTokensCents: 10, inputTokens: 1735 })).toEqual({ ok: true, maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, holdCents: 100 });
    expect(callCap({ availableCents: 1_000_000, pricePer1kTokensCents: 10, inputTokens: 1735, maxOutputTokens: 4000 })).toEqual({ ok: true, maxTokens: 4000, holdCents: callCostCents(10, 5735) });
  });

  it('cuts the output cap to what the balance pays, the input included, and holds exactly that', () => {
    // 50 cents at 10 c/1k pay 5,000 tokens: 1,735 in, 3,265 out.
    expect(callCap({ availableCents: 50, pricePer1kTokensCents: 10, inputTokens: 1735 })).toEqual({ ok: true, maxTokens: 3265, holdCents: 50 });
    expect(callCap({ availableCents: 99, pricePer1kTokensCents: 10, inputTokens: 1735 })).toEqual({ ok: true, maxTokens: 8165, holdCents: 99 });
    // Exactly the useful minimum still goes ahead; a token less does not.
    const least = minimumCallCents(1, 976);
    expect(least).toBe(2);
    expect(callCap({ availableCents: 2, pricePer1kTokensCents: 1, inputTokens: 976 })).toEqual({ ok: true, maxTokens: MIN_USEFUL_OUTPUT_TOKENS, holdCents: 2 });
    expect(callCap({ availableCents: 2, pricePer1kTokensCents: 1, inputTokens: 977 })).toEqual({ ok: false, neededCents: callCostCents(1, 977 + MAX_OUTPUT_TOKENS_PER_CALL) });
  });

  it('refuses a call below the useful minimum, naming what it needs at the full cap', () => {
    // 27 cents pay 2,700 tokens: 965 out, under 1,024.
    expect(callCap({ availableCents: 27, pricePer1kTokensCents: 10, inputTokens: 1735 })).toEqual({ ok: false, neededCents: 100 });
    expect(callCap({ availableCents: 0, pricePer1kTokensCents: 10, inputTokens: 0 })).toEqual({ ok: false, neededCents: callCostCents(10, MAX_OUTPUT_TOKENS_PER_CALL) });
    // A lower minimum lets a shorter call through; a minimum above the cap is the cap.
    expect(callCap({ availableCents: 27, pricePer1kTokensCents: 10, inputTokens: 1735, minOutputTokens: 900 })).toEqual({ ok: true, maxTokens: 965, holdCents: 27 });
    expect(callCap({ availableCents: 27, pricePer1kTokensCents: 10, inputTokens: 1735, maxOutputTokens: 900, minOutputTokens: 5000 })).toEqual({ ok: true, maxTokens: 900, holdCents: 27 });
    expect(minimumCallCents(10, 1735, 900, 5000)).toBe(callCostCents(10, 2635));
    expect(minimumCallCents(10, 1735)).toBe(callCostCents(10, 1735 + MIN_USEFUL_OUTPUT_TOKENS));
  });

  it('holds nothing on a free engine, whatever the balance', () => {
    expect(callCap({ availableCents: 0, pricePer1kTokensCents: 0, inputTokens: 50_000 })).toEqual({ ok: true, maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, holdCents: 0 });
  });

  it('never holds more than is available, never caps above the engine or below the minimum, and gives the most the rest pays for', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 16_384 }),
        fc.integer({ min: 1, max: 4096 }),
        (available, priceMilli, inputTokens, maxOutputTokens, minOutputTokens) => {
          const price = priceMilli / 1000;
          const cap = callCap({ availableCents: available, pricePer1kTokensCents: price, inputTokens, maxOutputTokens, minOutputTokens });
          const floor = Math.min(minOutputTokens, maxOutputTokens);
          if (!cap.ok) {
            expect(callCostCents(price, inputTokens + floor)).toBeGreaterThan(available);
            expect(cap.neededCents).toBe(fullCallCents(price, inputTokens, maxOutputTokens));
            return;
          }
          expect(cap.holdCents).toBeLessThanOrEqual(available);
          expect(cap.holdCents).toBe(callCostCents(price, inputTokens + cap.maxTokens));
          expect(cap.maxTokens).toBeLessThanOrEqual(maxOutputTokens);
          expect(cap.maxTokens).toBeGreaterThanOrEqual(floor);
          // Maximal: one more token would cost more than is there.
          if (cap.maxTokens < maxOutputTokens) expect(callCostCents(price, inputTokens + cap.maxTokens + 1)).toBeGreaterThan(available);
        },
      ),
    );
  });

  it('holds what is wanted, or the whole balance when that is at least the least a call needs, or refuses', () => {
    expect(holdWithin(100, 500)).toBe(100);
    expect(holdWithin(100, 100)).toBe(100);
    expect(holdWithin(99.2, 100)).toBe(100);
    // Without a least, a hold is all or nothing.
    expect(holdWithin(100, 99)).toBeNull();
    expect(holdWithin(100, 99, 30)).toBe(99);
    expect(holdWithin(100, 30, 30)).toBe(30);
    expect(holdWithin(100, 29, 30)).toBeNull();
    expect(holdWithin(100, 29, 29.5)).toBeNull();
    // A least of nothing still needs a cent; a least above what is wanted is what is wanted.
    expect(holdWithin(100, 0, 0)).toBeNull();
    expect(holdWithin(100, 1, -4)).toBe(1);
    expect(holdWithin(100, 60, 500)).toBeNull();
    expect(holdWithin(50, 49, 500)).toBeNull();
    expect(holdWithin(0, 0)).toBe(0);
    expect(holdWithin(-3, 0)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: -10, max: 10_000 }), (wanted, balance, least) => {
        const held = holdWithin(wanted, balance, least);
        if (held === null) {
          expect(balance).toBeLessThan(Math.max(1, Math.min(wanted, least)));
          return;
        }
        expect(held).toBeLessThanOrEqual(Math.max(balance, 0));
        expect(held).toBeLessThanOrEqual(wanted);
        expect(held === wanted || held === balance).toBe(true);
      }),
    );
  });

  it('leaves a run under its own limit what it has not spent or given to calls in flight', () => {
    expect(allowanceCents(null, 5000, 5000)).toBe(Number.POSITIVE_INFINITY);
    expect(allowanceCents(100, 30, 20)).toBe(50);
    expect(allowanceCents(100, 80, 20)).toBe(0);
    expect(allowanceCents(100, 90, 20)).toBe(0);
    expect(allowanceCents(0, 0, 0)).toBe(0);
  });
});
