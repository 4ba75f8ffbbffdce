import { describe, expect, it } from 'vitest';
import { runValue, runValueText } from './run-value.js';

describe('runValue', () => {
  it('says a run that cost more than its estimate saved no money ($0.80 against $0.65)', () => {
    // 13 s: 13 x 0.05 = $0.65 and 13 / 60 x 2.5 = 0.54 h.
    const value = runValue(13, 80);
    expect(value).toMatchObject({ costCents: 80, savedCents: 65, netCents: -15, outcome: 'cost-more' });
    expect(runValueText(value)).toBe('Cost $0.80 · estimated savings about 0.5h and $0.65, $0.15 less than the run cost: no money saved');
    expect(runValueText(value)).not.toContain('$0.65 saved');
  });

  it('says how much more than the cost the estimate is', () => {
    const value = runValue(13, 30);
    expect(value).toMatchObject({ netCents: 35, outcome: 'saved' });
    expect(runValueText(value)).toBe('Cost $0.30 · estimated savings about 0.5h and $0.65, $0.35 more than the run cost');
  });

  it('compares in whole cents: an equal cost is no loss', () => {
    const value = runValue(13, 65);
    expect(value.outcome).toBe('saved');
    expect(runValueText(value)).toBe('Cost $0.65 · estimated savings about 0.5h and $0.65, as much as the run cost');
  });

  it('says when no charge was reported instead of inventing one', () => {
    for (const spent of [null, undefined]) {
      const value = runValue(13, spent);
      expect(value).toMatchObject({ costCents: null, netCents: null, outcome: 'unpriced' });
      expect(runValueText(value)).toBe('No charge reported · estimated savings about 0.5h and $0.65');
    }
  });

  it('treats a free run as costing $0.00, and negative seconds as none', () => {
    expect(runValueText(runValue(4, 0))).toBe('Cost $0.00 · estimated savings about 0.2h and $0.20, $0.20 more than the run cost');
    expect(runValue(-5, 10)).toMatchObject({ savedCents: 0, netCents: -10, outcome: 'cost-more' });
  });
});
