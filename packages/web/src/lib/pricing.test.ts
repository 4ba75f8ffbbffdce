import { CREDIT_PACKS, DEFAULT_PRICE_PER_1K_TOKENS_CENTS } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { formatTokenPrice, packCreditCents, packTitle, tokenPriceExample } from './pricing';

describe('pricing texts', () => {
  it("states the spec's token price and example", () => {
    expect(formatTokenPrice(DEFAULT_PRICE_PER_1K_TOKENS_CENTS)).toBe('$3.05 per 1,000 tokens');
    expect(tokenPriceExample(DEFAULT_PRICE_PER_1K_TOKENS_CENTS)).toBe('about 20K tokens is about $60');
  });

  it('follows another price, keeping fractions of a cent', () => {
    expect(formatTokenPrice(0.06)).toBe('$0.0006 per 1,000 tokens');
    expect(formatTokenPrice(150)).toBe('$1.50 per 1,000 tokens');
    expect(tokenPriceExample(150)).toBe('about 20K tokens is about $30');
    expect(tokenPriceExample(0.06)).toBe('about 20K tokens is about $0.02');
  });

  it("names the four packs as the spec does and adds each bonus", () => {
    expect(CREDIT_PACKS.map(packTitle)).toEqual(['$10', '$25 +2%', '$50 +4%', '$100 +4%']);
    expect(CREDIT_PACKS.map(packCreditCents)).toEqual([1000, 2550, 5200, 10400]);
    expect(CREDIT_PACKS.filter((p) => p.popular).map((p) => p.dollars)).toEqual([50]);
  });
});
