import { describe, expect, it } from 'vitest';
import { directReferralCents, generationRewards, workedExample } from './referral-rewards';

describe('referral figures of Pack Perks', () => {
  it('pays $20 per direct referral, split over seven generations', () => {
    expect(directReferralCents()).toBe(2000);
    expect(generationRewards()).toEqual([
      { level: 1, percent: 100, cents: 2000 },
      { level: 2, percent: 45, cents: 900 },
      { level: 3, percent: 20, cents: 400 },
      { level: 4, percent: 9, cents: 180 },
      { level: 5, percent: 4, cents: 80 },
      { level: 6, percent: 2, cents: 40 },
      { level: 7, percent: 1, cents: 20 },
    ]);
  });

  it('adds up the worked example from the same rules', () => {
    const example = workedExample();
    expect(example.steps.map((s) => s.youCents)).toEqual([2000, 900, 400]);
    expect(example.totalCents).toBe(3300);
    expect(example.steps[0]?.text).toContain('$5 + $15');
  });
});
