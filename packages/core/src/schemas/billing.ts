/**
 * Credits and billing payloads (companion §2 Settings, §3 Balance and Usage history item, §7, §9).
 */
import { z } from 'zod';
import { cents, countLike, entityId, numberLike, timestamp } from './common.js';

/** GET /api/billing/balance */
export const balanceReply = z.object({
  balanceCents: cents,
  balanceDollars: numberLike,
  monthlyGrantDollars: numberLike,
  /** When the monthly free grant is next reset. */
  grantResetDate: timestamp,
  referralEarningsDollars: numberLike,
  totalReferrals: countLike,
  referralCode: z.string(),
});
export type BalanceReply = z.infer<typeof balanceReply>;

export const usageHistoryItem = z.object({
  id: entityId,
  /** The pipeline stage or engine role that used the tokens. */
  role: z.string(),
  totalTokens: countLike,
  createdAt: timestamp,
  billedDollars: numberLike,
});
export type UsageHistoryItem = z.infer<typeof usageHistoryItem>;

/** GET /api/billing/history */
export const billingHistoryReply = z.object({ history: z.array(usageHistoryItem) });
export type BillingHistoryReply = z.infer<typeof billingHistoryReply>;

/** The credit packs a top-up may buy, in dollars (companion §9). */
export const CREDIT_PACK_DOLLARS = [10, 25, 50, 100] as const;
export type CreditPackDollars = (typeof CREDIT_PACK_DOLLARS)[number];

/** POST /api/billing/top-up */
export const topUpRequest = z.object({
  amountDollars: z.literal(CREDIT_PACK_DOLLARS, { error: 'Choose a credit pack of $10, $25, $50 or $100' }),
});
export type TopUpRequest = z.infer<typeof topUpRequest>;

/** Reply of top-up and listing purchase: the browser is sent to this Stripe Checkout page. */
export const checkoutReply = z.object({ checkoutUrl: z.url() });
export type CheckoutReply = z.infer<typeof checkoutReply>;
export const topUpReply = checkoutReply;
export type TopUpReply = CheckoutReply;

/** Below this balance Settings shows "Low balance - Consider adding credits." (companion §2). */
export const LOW_BALANCE_CENTS = 500;
