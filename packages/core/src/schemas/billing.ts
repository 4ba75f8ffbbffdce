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

/** GET /api/billing/history?limit&before: newest first; `before` is the last item's id of a page. */
export const billingHistoryQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(20),
  before: z.coerce.number({ error: 'before must be an id from an earlier page' }).int('before must be an id from an earlier page').positive('before must be an id from an earlier page').optional(),
});
export type BillingHistoryQuery = z.infer<typeof billingHistoryQuery>;

/** One ledger entry as the Account page's recent activity shows it. */
export const ledgerEntryItem = z.object({
  id: entityId,
  kind: z.string(),
  /** What a person reads ("Credit purchase"). */
  label: z.string(),
  /** Signed: credits positive, debits negative. */
  amountCents: z.int(),
  amountDollars: numberLike,
  balanceAfterCents: z.int(),
  createdAt: timestamp,
});
export type LedgerEntryItem = z.infer<typeof ledgerEntryItem>;

/** GET /api/billing/ledger?limit&before */
export const ledgerReply = z.object({ entries: z.array(ledgerEntryItem) });
export type LedgerReply = z.infer<typeof ledgerReply>;

/** A credit pack as the server offers it (GET /api/billing/packs). */
export const creditPackInfo = z.object({
  dollars: z.int(),
  amountCents: cents,
  bonusPercent: z.number(),
  bonusCents: cents,
  popular: z.boolean(),
});
export const packsReply = z.object({
  packs: z.array(creditPackInfo),
  /** The default token price, cents per 1,000 tokens. */
  pricePer1kTokensCents: z.number(),
  /** False when this server has no Stripe keys: the buy buttons say so. */
  paymentsConfigured: z.boolean(),
});
export type PacksReply = z.infer<typeof packsReply>;

/** The sentence (and 503) when no Stripe keys are configured. */
export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server. Ask its operator to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';

/** The card of the last payment (Account page). */
export const paymentCard = z.object({ brand: z.string(), last4: z.string(), expMonth: z.int(), expYear: z.int() });
export type PaymentCard = z.infer<typeof paymentCard>;

/** GET /api/account */
export const accountReply = z.object({
  username: z.string(),
  status: z.string(),
  createdAt: timestamp,
  billingCycle: z.string(),
  card: paymentCard.nullable(),
  recentActivity: z.array(ledgerEntryItem),
});
export type AccountReply = z.infer<typeof accountReply>;

/** One period of the Savings dashboard. */
export const savingsFigures = z.object({ timeSavedHours: z.number(), costSavedDollars: z.number(), runs: countLike });
export type SavingsFigures = z.infer<typeof savingsFigures>;

/** GET /api/savings: the Savings dashboard from the server's per-user figures. */
export const savingsReply = z.object({
  allTime: savingsFigures,
  thisMonth: savingsFigures,
  /** Per-run averages over all time. */
  perRun: z.object({ timeSavedHours: z.number(), costSavedDollars: z.number(), seconds: z.number() }),
  /** The last 6 months, oldest first, keyed "2026-11". */
  months: z.array(savingsFigures.extend({ month: z.string() })),
});
export type SavingsReply = z.infer<typeof savingsReply>;

/** GET /api/referrals: the Referrals page's counts and credits (from the server). */
export const referralStatsReply = z.object({
  referralCode: z.string(),
  referralLink: z.string(),
  /** Users who signed up with this user's code (direct). */
  totalReferrals: countLike,
  /** Direct referrals whose first build completed. */
  activeReferrals: countLike,
  /** Direct referrals who signed up but have not finished a build yet. */
  pendingReferrals: countLike,
  /** Rewards earned over all generations, before expiry. */
  creditsEarnedDollars: numberLike,
  /** What those rewards are still worth after expiry and decay. */
  creditsValueDollars: numberLike,
  /** Everyone in the chain below this user, per generation (1 = direct). */
  byLevel: z.array(z.object({ level: z.int(), referrals: countLike, earnedDollars: numberLike })),
  /**
   * When rewards are paid (the operator's settings): a referral counts once it buys credit or, when
   * set, once its billed usage reaches qualifyingSpendDollars; one referrer receives at most
   * dailyCapDollars in 24 hours (null: no cap).
   */
  rules: z.object({ qualifyingSpendDollars: numberLike.nullable(), dailyCapDollars: numberLike.nullable() }),
});
export type ReferralStatsReply = z.infer<typeof referralStatsReply>;

/** Replies as the server writes them (dollar amounts as "15.00" strings; clients parse to numbers). */
export type BalanceReplyJson = z.input<typeof balanceReply>;
export type UsageHistoryItemJson = z.input<typeof usageHistoryItem>;
export type LedgerEntryItemJson = z.input<typeof ledgerEntryItem>;
export type AccountReplyJson = z.input<typeof accountReply>;
export type ReferralStatsReplyJson = z.input<typeof referralStatsReply>;
export type SavingsReplyJson = z.input<typeof savingsReply>;
