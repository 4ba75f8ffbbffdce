import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_BASES, ESTIMATE_MODEL, estimateBasisText, estimateLine, estimateRun, PAST_RUNS_FOR_ESTIMATE, PAST_RUNS_LOOKED_AT, percentile, planEstimate, repricedRunCents, stageCalls, stagePrices } from './estimate.js';

describe('run estimate', () => {
  it('prices each stage at the engine it starts on, as the runner assigns them', () => {
    expect(stagePrices([10, 20], ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code'], 1).map((s) => `${s.role}@${s.price}`)).toEqual([
      'Planning@10',
      'Building@20',
      'Checking@10',
      'Polishing@20',
      'Proven Code@10',
    ]);
    expect(stagePrices([10, 20, 30], ['Proven Code'], 2)).toEqual([
      { role: 'Proven Code', price: 10 },
      { role: 'Proven Code', price: 20 },
    ]);
    // No engine price known: nothing to pay.
    expect(stagePrices([], ['Planning'], 1)).toEqual([{ role: 'Planning', price: 0 }]);
    expect(stagePrices([5], [], 1)).toHaveLength(1);
  });

  it('models each stage\'s calls from the plan size: none to repair at the low end, every round at the high', () => {
    const shape = { ideaChars: 400, existingChars: 0, repairRounds: 2 };
    expect(stageCalls('Planning', 'low', shape)).toEqual({ calls: 1, tokens: 250 + 100 + 100 });
    expect(stageCalls('Planning', 'high', shape)).toEqual({ calls: 1, tokens: 250 + 100 + 1500 });
    expect(stageCalls('Building', 'low', shape)).toEqual({ calls: 3, tokens: 250 + 100 + 60 + 250 });
    expect(stageCalls('Building', 'high', shape)).toEqual({ calls: 12, tokens: 250 + 100 + 240 + 2500 });
    expect(stageCalls('Checking', 'low', shape)).toEqual({ calls: 0, tokens: 250 + 100 + 750 + 2000 });
    expect(stageCalls('Proven Code', 'high', shape)).toEqual({ calls: 2, tokens: 250 + 100 + 8000 + 2000 });
    expect(stageCalls('Polishing', 'low', shape)).toEqual({ calls: 1, tokens: 250 + 100 + 750 + 10 });
    expect(stageCalls('Polishing', 'high', shape)).toEqual({ calls: 1, tokens: 250 + 100 + 8000 + 2000 });
    // A continued project's files: read by Planning and by the calls that read the project, up to the context.
    const continued = { ...shape, existingChars: 4000 };
    expect(stageCalls('Planning', 'low', continued).tokens).toBe(450 + 1000);
    expect(stageCalls('Polishing', 'low', continued).tokens).toBe(1110 + 1000);
    expect(stageCalls('Planning', 'high', { ...shape, existingChars: 1_000_000 }).tokens).toBe(1850 + ESTIMATE_MODEL.contextTokens);
    expect(stageCalls('Checking', 'high', { ...shape, repairRounds: 5 }).calls).toBe(5);
  });

  it('ranges a run from a small plan to a large one at the engines\' prices, each call rounded up', () => {
    // Low: Planning 450 tokens (5 c), Building 3 x 660 (7 c each), Polishing 1,110 (12 c).
    // High: Planning 1,850 (19 c), Building 12 x 3,090 (31 c), Checking and Proven Code 2 x 10,350 (104 c), Polishing 10,350.
    expect(planEstimate({ ideaChars: 400, cycles: 1, prices: [10] })).toEqual({ lowCents: 38, highCents: 911 });
    expect(planEstimate({ ideaChars: 400, cycles: 1, prices: [10, 20] })).toEqual({ lowCents: 5 + 42 + 23, highCents: 19 + 12 * 62 + 208 + 207 + 208 });
    expect(planEstimate({ ideaChars: 400, cycles: 2, prices: [10] })).toEqual({ lowCents: 76, highCents: 1822 });
    expect(planEstimate({ ideaChars: 400, cycles: 1, prices: [10], repairRounds: 0 })).toEqual({ lowCents: 38, highCents: 911 - 416 });
    // "Repair again": Proven Code alone, from nothing to every round.
    expect(planEstimate({ ideaChars: 400, cycles: 1, prices: [10], stages: ['Proven Code'] })).toEqual({ lowCents: 0, highCents: 208 });
    expect(planEstimate({ ideaChars: 400, existingChars: 4000, cycles: 1, prices: [10] }).lowCents).toBe(38 + 10 + 10);
    // Free engines, and nonsense inputs, cost nothing more than their floor.
    expect(planEstimate({ ideaChars: 400, cycles: 1, prices: [0] })).toEqual({ lowCents: 0, highCents: 0 });
    expect(planEstimate({ ideaChars: -5, existingChars: -5, cycles: 0, prices: [10] })).toEqual(planEstimate({ ideaChars: 0, cycles: 1, prices: [10] }));
  });

  it('holds what the demo engines\' 4-file run really costs (4,400 tokens, 47 cents at 10 c/1k)', () => {
    const range = planEstimate({ ideaChars: 'A habit tracker'.length, cycles: 1, prices: [10] });
    expect(range.lowCents).toBeLessThanOrEqual(47);
    expect(range.highCents).toBeGreaterThanOrEqual(47);
  });

  it('never ranges low above high, and grows with the price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1000 }), (ideaChars, existingChars, cycles, price) => {
        const range = planEstimate({ ideaChars, existingChars, cycles, prices: [price] });
        expect(range.lowCents).toBeLessThanOrEqual(range.highCents);
        const dearer = planEstimate({ ideaChars, existingChars, cycles, prices: [price + 1] });
        expect(dearer.lowCents).toBeGreaterThanOrEqual(range.lowCents);
        expect(dearer.highCents).toBeGreaterThanOrEqual(range.highCents);
        if (price > 0) expect(range.highCents).toBeGreaterThan(0);
      }),
    );
  });

  it('prices a past run\'s tokens per stage at today\'s engines, for this run\'s cycles', () => {
    expect(repricedRunCents({ Planning: 1000, Building: 5000 }, 1, { prices: [10], cycles: 1 })).toBe(10 + 50);
    expect(repricedRunCents({ Planning: 1000, Building: 5000 }, 2, { prices: [10], cycles: 1 })).toBe(5 + 25);
    expect(repricedRunCents({ Planning: 1000, Building: 5000 }, 1, { prices: [10], cycles: 3 })).toBe(30 + 150);
    expect(repricedRunCents({ Planning: 1000, Building: 5000 }, 0, { prices: [10], cycles: 0 })).toBe(60);
    expect(repricedRunCents({ Planning: 1000, Building: 5000 }, 1, { prices: [10, 20], cycles: 1 })).toBe(10 + 100);
    // Only the stages the new run does count.
    expect(repricedRunCents({ Planning: 1000, 'Proven Code': 500 }, 1, { prices: [10], cycles: 1, stages: ['Proven Code'] })).toBe(5);
    expect(repricedRunCents({}, 1, { prices: [10], cycles: 1 })).toBe(0);
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentile([], 0.5)).toBe(0);
    expect(percentile([5, 1, 3], 0.5)).toBe(3);
    expect(percentile([5, 1, 3], 0.9)).toBe(5);
    expect(percentile([5, 1, 3], 0)).toBe(1);
    const tens = Array.from({ length: 10 }, (_, i) => 10 - i);
    expect(percentile(tens, 0.5)).toBe(5);
    expect(percentile(tens, 0.9)).toBe(9);
    expect(percentile(tens, 1)).toBe(10);
    expect(percentile(tens, 2)).toBe(10);
    // The input is left as it was.
    expect(tens[0]).toBe(10);
  });

  it('draws the range from the user\'s past runs once there are enough: their median and 90th percentile', () => {
    const input = { ideaChars: 400, cycles: 1, prices: [10] };
    expect(estimateRun(input)).toEqual({ lowCents: 38, highCents: 911, basis: 'plan size and engine prices', pastRuns: 0 });
    expect(estimateRun(input, [40, 50])).toEqual({ lowCents: 38, highCents: 911, basis: 'plan size and engine prices', pastRuns: 0 });
    expect(estimateRun(input, [60, 40, 50])).toEqual({ lowCents: 50, highCents: 60, basis: 'your past runs', pastRuns: 3 });
    expect(estimateRun(input, [40, 45, 50, 55, 60, 65, 70, 75, 80, 200])).toEqual({ lowCents: 60, highCents: 80, basis: 'your past runs', pastRuns: 10 });
    expect(ESTIMATE_BASES).toEqual(['plan size and engine prices', 'your past runs']);
    expect([PAST_RUNS_FOR_ESTIMATE, PAST_RUNS_LOOKED_AT]).toEqual([3, 20]);
  });

  it('is shown as one line, with what it is drawn from', () => {
    expect(estimateLine({ lowCents: 12, highCents: 40 })).toBe('Estimated cost: $0.12–$0.40');
    expect(estimateLine({ lowCents: 1250, highCents: 1250 })).toBe('Estimated cost: about $12.50');
    expect(estimateLine({ lowCents: 0, highCents: 0 })).toBe('Estimated cost: free (these engines cost nothing)');
    expect(estimateBasisText({ basis: 'your past runs', pastRuns: 3 })).toBe("from your last 3 runs at today's prices");
    expect(estimateBasisText({ basis: 'plan size and engine prices', pastRuns: 0 })).toBe("from a typical plan's size at the engines' prices");
  });
});
