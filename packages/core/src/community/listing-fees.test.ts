import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { saleSplit } from './listing-fees.js';

describe('saleSplit', () => {
  it('gives the platform its share in whole cents and the seller the rest', () => {
    expect(saleSplit(1000, 20)).toEqual({ platformCents: 200, sellerCents: 800 });
    expect(saleSplit(999, 20)).toEqual({ platformCents: 200, sellerCents: 799 }); // 199.8 rounds to 200
    expect(saleSplit(333, 20)).toEqual({ platformCents: 67, sellerCents: 266 }); // 66.6
    expect(saleSplit(100, 0)).toEqual({ platformCents: 0, sellerCents: 100 });
    expect(saleSplit(100, 100)).toEqual({ platformCents: 100, sellerCents: 0 });
    expect(saleSplit(0, 20)).toEqual({ platformCents: 0, sellerCents: 0 });
    expect(saleSplit(105, 10)).toEqual({ platformCents: 11, sellerCents: 94 }); // 10.5 rounds half up
  });

  it('always adds up to the price, both parts whole and not negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 100 }), (price, percent) => {
        const { platformCents, sellerCents } = saleSplit(price, percent);
        expect(platformCents + sellerCents).toBe(price);
        expect(Number.isInteger(platformCents) && Number.isInteger(sellerCents)).toBe(true);
        expect(platformCents).toBeGreaterThanOrEqual(0);
        expect(sellerCents).toBeGreaterThanOrEqual(0);
        expect(Math.abs(platformCents - (price * percent) / 100)).toBeLessThanOrEqual(0.5);
      }),
    );
  });

  it('refuses fractional cents and shares outside 0..100', () => {
    expect(() => saleSplit(10.5, 20)).toThrow(RangeError);
    expect(() => saleSplit(-1, 20)).toThrow(RangeError);
    expect(() => saleSplit(100, 101)).toThrow(RangeError);
    expect(() => saleSplit(100, Number.NaN)).toThrow(RangeError);
  });
});
