import { describe, expect, it } from 'vitest';
import { loadLimits } from './limits.js';

describe('loadLimits', () => {
  it('counts capsule views and shares per UTC day unless the operator sets another period', () => {
    expect(loadLimits({}).capsuleCountHours).toBe(24);
    expect(loadLimits({ WOLFPACK_CAPSULE_COUNT_HOURS: '6' }).capsuleCountHours).toBe(6);
  });

  it('refuses a period that is not a whole number of hours from 1 to 8760, naming the variable', () => {
    for (const value of ['0', '1.5', 'day', '8761']) {
      expect(() => loadLimits({ WOLFPACK_CAPSULE_COUNT_HOURS: value })).toThrow(/WOLFPACK_CAPSULE_COUNT_HOURS/);
    }
  });
});
