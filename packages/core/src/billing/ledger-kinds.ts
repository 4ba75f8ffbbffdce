/**
 * The kinds of ledger entry. A ledger entry is the only way money moves: each has a
 * signed amount in cents and a unique reference, so a retried or duplicated request finds its
 * entry already there and changes nothing.
 */
export const LEDGER_KINDS = [
  'welcome_bonus',
  'monthly_grant',
  'grant_expiry',
  'top_up',
  'pack_bonus',
  /** A stage's worst-case cost held before it runs (negative). */
  'reservation',
  /** The hold given back when the stage settles (positive, equal to the reservation). */
  'reservation_release',
  'engine_usage',
  'referral_reward',
  /** Referral credit lost to expiry and decay (negative). */
  'referral_decay',
  'listing_purchase',
  'listing_sale',
  'refund',
  'adjustment',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** What a person reads for each kind in recent activity. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  welcome_bonus: 'Welcome bonus',
  monthly_grant: 'Monthly free credits',
  grant_expiry: 'Unused monthly credits expired',
  top_up: 'Credit purchase',
  pack_bonus: 'Pack bonus',
  reservation: 'Held for a stage',
  reservation_release: 'Hold released',
  engine_usage: 'Engine usage',
  referral_reward: 'Referral reward',
  referral_decay: 'Referral credit expired',
  listing_purchase: 'Showcase purchase',
  listing_sale: 'Showcase sale',
  refund: 'Refund',
  adjustment: 'Adjustment',
};
