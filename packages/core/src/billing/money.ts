/**
 * The money rules of Wolfpack (companion §9 Credits): integer cents everywhere, prices per 1,000
 * tokens, packs and their bonuses, the welcome bonus and the monthly grant. The server only stores
 * and locks; every amount is decided here.
 */
import { CREDIT_PACK_DOLLARS, type CreditPackDollars } from '../schemas/billing.js';

/** A new account's welcome bonus: $10. */
export const WELCOME_BONUS_CENTS = 1000;
/** The monthly free grant: $5, reset every calendar month (UTC). */
export const MONTHLY_GRANT_CENTS = 500;
/** The spec's token price: $3.05 per 1,000 tokens, for engines that configure none. */
export const DEFAULT_PRICE_PER_1K_TOKENS_CENTS = 305;

export interface CreditPack {
  dollars: CreditPackDollars;
  /** What the card is charged, in cents. */
  amountCents: number;
  bonusPercent: number;
  /** Credited on top of the amount, rounded down to whole cents. */
  bonusCents: number;
  popular: boolean;
}

const BONUS_PERCENT: Record<CreditPackDollars, number> = { 10: 0, 25: 2, 50: 4, 100: 4 };

/** The four packs of companion §9: $10; $25 + 2 %; $50 + 4 % (popular); $100 + 4 %. */
export const CREDIT_PACKS: readonly CreditPack[] = CREDIT_PACK_DOLLARS.map((dollars) => creditPack(dollars));

export function creditPack(dollars: CreditPackDollars): CreditPack {
  const amountCents = dollars * 100;
  const bonusPercent = BONUS_PERCENT[dollars];
  return { dollars, amountCents, bonusPercent, bonusCents: Math.floor((amountCents * bonusPercent) / 100), popular: dollars === 50 };
}

/** The pack of a charged amount, or undefined when it is not one of the four. */
export function packForAmountCents(amountCents: number): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.amountCents === amountCents);
}

/**
 * Price of one engine call: tokens x price per 1k, rounded UP to whole cents (companion §9, issue
 * 8). Prices may have fractional cents (0.06 per 1k); the product is computed in exact integer
 * millicents first, so no float drift decides a rounding.
 */
export function callCostCents(pricePer1kTokensCents: number, totalTokens: number): number {
  const millicents = callCostMillicents(pricePer1kTokensCents, totalTokens);
  return Math.ceil(millicents / 1000);
}

/** Thousandths of a cent for a call, exact for prices with at most 3 decimals of a cent. */
export function callCostMillicents(pricePer1kTokensCents: number, totalTokens: number): number {
  const priceMilli = Math.round(pricePer1kTokensCents * 1000); // thousandths of a cent per 1k tokens
  return Math.ceil((priceMilli * Math.max(0, Math.floor(totalTokens))) / 1000);
}

/** Cents as the API's dollar strings: 1500 -> "15.00", -5 -> "-0.05". */
export function centsToDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "$15.00" for people. */
export function formatCents(cents: number): string {
  const text = centsToDollars(cents);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** The calendar month (UTC) a grant belongs to: "2026-11". */
export function grantMonth(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * What a ledger entry of `amountCents` does to a wallet: the grant it takes or gives back and the
 * wallet after it. The month's grant is spent first; a monthly grant adds to it; a credit gives
 * back at most `grantReturnCents` (a released hold returns what its reservation took); the grant
 * never exceeds the balance nor goes below zero.
 */
export function walletMove(
  wallet: { balanceCents: number; grantCents: number },
  entry: { kind: string; amountCents: number; grantReturnCents?: number | undefined },
): { grantDeltaCents: number; balanceAfterCents: number; grantAfterCents: number } {
  const amount = entry.amountCents;
  let grantDeltaCents = 0;
  if (entry.kind === 'monthly_grant') grantDeltaCents = amount;
  else if (amount < 0) grantDeltaCents = -Math.min(wallet.grantCents, -amount);
  else if (entry.grantReturnCents) grantDeltaCents = Math.max(0, Math.min(entry.grantReturnCents, amount));
  const balanceAfterCents = wallet.balanceCents + amount;
  const grantAfterCents = Math.min(balanceAfterCents, Math.max(0, wallet.grantCents + grantDeltaCents));
  return { grantDeltaCents, balanceAfterCents, grantAfterCents };
}

/** When the monthly grant next resets: the first day of next month, 00:00 UTC. */
export function grantResetDate(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The sentence of a run or enhancement that cannot reserve its next stage (HTTP 402 semantics). */
export function notEnoughCreditsMessage(neededCents: number, balanceCents: number): string {
  return `Not enough credits: this stage needs about ${formatCents(neededCents)} and your balance is ${formatCents(balanceCents)}. Add credits in Settings.`;
}

/** The sentence when a request's own cap (maxCostCents) would be passed. */
export function costCapMessage(neededCents: number, remainingCents: number, capCents: number): string {
  return `Cost limit reached: this stage needs about ${formatCents(neededCents)} and only ${formatCents(remainingCents)} of this run's ${formatCents(capCents)} limit is left. Raise maxCostCents or resume with a higher limit.`;
}
