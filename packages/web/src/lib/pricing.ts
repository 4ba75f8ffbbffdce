/**
 * How prices read on Settings, Pricing and Help (companion §9 Credits): "$3.05 per 1,000 tokens",
 * "about 20K tokens is about $60", and what each pack credits.
 */
import { formatCents, type CreditPack } from '@wolfpack/core';

/** "$3.05 per 1,000 tokens" for a price in cents per 1,000 tokens. */
export function formatTokenPrice(pricePer1kTokensCents: number): string {
  return `${formatPriceCents(pricePer1kTokensCents)} per 1,000 tokens`;
}

/** Whole cents as "$3.05"; a fraction of a cent keeps its digits ("$0.0006"), at least 2 decimals. */
function formatPriceCents(cents: number): string {
  if (Number.isInteger(cents)) return formatCents(cents);
  const text = (cents / 100).toFixed(5).replace(/0+$/, '');
  const [whole = '0', decimals = ''] = text.split('.');
  return `$${whole}.${decimals.padEnd(2, '0')}`;
}

/** Tokens of the spec's worked example. */
export const EXAMPLE_TOKENS = 20_000;

/**
 * The spec's example at this price: "about 20K tokens is about $60" ($61 at $3.05, rounded to ten
 * dollars as the spec does); small amounts keep their cents.
 */
export function tokenPriceExample(pricePer1kTokensCents: number): string {
  const cents = (EXAMPLE_TOKENS / 1000) * pricePer1kTokensCents;
  const amount = cents >= 1000 ? `$${Math.round(cents / 1000) * 10}` : formatCents(Math.ceil(cents));
  return `about 20K tokens is about ${amount}`;
}

/** What a pack puts on the balance: the amount plus its bonus. */
export function packCreditCents(pack: Pick<CreditPack, 'amountCents' | 'bonusCents'>): number {
  return pack.amountCents + pack.bonusCents;
}

/** "$10", "$25 +2%": the pack's name as the spec writes it. */
export function packTitle(pack: { dollars: number; bonusPercent: number }): string {
  return pack.bonusPercent > 0 ? `$${pack.dollars} +${pack.bonusPercent}%` : `$${pack.dollars}`;
}
