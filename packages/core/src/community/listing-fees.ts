/**
 * How a commercial Showcase sale is split between the platform and the seller, in whole cents.
 */

export interface SaleSplit {
  platformCents: number;
  sellerCents: number;
}

/**
 * The platform keeps `platformSharePercent` of the price, rounded half up to a whole cent; the
 * seller gets the rest, so the two always add up to the price exactly and no cent is made or lost.
 */
export function saleSplit(priceCents: number, platformSharePercent: number): SaleSplit {
  if (!Number.isSafeInteger(priceCents) || priceCents < 0) throw new RangeError(`priceCents must be a whole number of cents ≥ 0, not ${priceCents}`);
  if (!Number.isFinite(platformSharePercent) || platformSharePercent < 0 || platformSharePercent > 100) {
    throw new RangeError(`platformSharePercent must be between 0 and 100, not ${platformSharePercent}`);
  }
  // Multiply before dividing so 20 % of 333 is computed from 6660 / 100, not from 0.2 * 333.
  const platformCents = Math.min(priceCents, Math.round((priceCents * platformSharePercent) / 100));
  return { platformCents, sellerCents: priceCents - platformCents };
}
