import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countsAsAudience, trendingScore } from './trending.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const count = fc.integer({ min: 0, max: 1_000_000 });
const age = fc.double({ min: 0, max: 24 * 365, noNaN: true });

describe('trendingScore', () => {
  it('is (views + 3 shares) / (age + 2)^1.5', () => {
    expect(trendingScore(10, 2, hoursAgo(2), NOW)).toBeCloseTo(16 / 8, 10);
    expect(trendingScore(0, 0, hoursAgo(5), NOW)).toBe(0);
  });

  it('never decreases with more views or shares', () => {
    fc.assert(
      fc.property(count, count, age, (views, shares, hours) => {
        const base = trendingScore(views, shares, hoursAgo(hours), NOW);
        expect(trendingScore(views + 1, shares, hoursAgo(hours), NOW)).toBeGreaterThan(base);
        expect(trendingScore(views, shares + 1, hoursAgo(hours), NOW)).toBeGreaterThan(base);
      }),
    );
  });

  it('counts a share more than a view', () => {
    fc.assert(
      fc.property(count, count, age, (views, shares, hours) => {
        expect(trendingScore(views, shares + 1, hoursAgo(hours), NOW)).toBeGreaterThan(trendingScore(views + 1, shares, hoursAgo(hours), NOW));
      }),
    );
  });

  it('decays with age for the same attention', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), count, age, fc.double({ min: 0.01, max: 1000, noNaN: true }), (views, shares, hours, later) => {
        expect(trendingScore(views, shares, hoursAgo(hours + later), NOW)).toBeLessThan(trendingScore(views, shares, hoursAgo(hours), NOW));
      }),
    );
  });

  it('treats a future createdAt as brand new and bad dates as now', () => {
    expect(trendingScore(4, 0, hoursAgo(-3), NOW)).toBe(trendingScore(4, 0, NOW, NOW));
    expect(trendingScore(4, 0, 'not a date', NOW)).toBe(trendingScore(4, 0, NOW, NOW));
  });

  it('lets a fresh capsule beat a day-old one with five times the views', () => {
    expect(trendingScore(10, 0, hoursAgo(1), NOW)).toBeGreaterThan(trendingScore(50, 0, hoursAgo(24), NOW));
  });
});

describe('countsAsAudience', () => {
  it("counts views and shares of anyone but the capsule's owner, signed in or not", () => {
    expect(countsAsAudience('owner-id', 'owner-id')).toBe(false);
    expect(countsAsAudience('fan-id', 'owner-id')).toBe(true);
    expect(countsAsAudience(undefined, 'owner-id')).toBe(true);
    expect(countsAsAudience(null, 'owner-id')).toBe(true);
  });
});
