import { defineEntity, p } from '@mikro-orm/core';
import type { LedgerKind } from '@wolfpack/core';

/** A user's balance; locked with SELECT … FOR UPDATE for every movement. */
export const Wallet = defineEntity({
  name: 'Wallet',
  tableName: 'wallets',
  properties: {
    userId: p.uuid().primary(),
    balanceCents: p.bigint('number'),
    /** What is left of this month's free grant (spent first, expires at month end). */
    grantCents: p.integer().default(0),
    /** The month ("2026-11", UTC) the grant was last credited for. */
    grantMonth: p.string().length(7).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** The append-only ledger: the only way money moves. */
export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    userId: p.uuid(),
    kind: p.string().length(32).$type<LedgerKind>(),
    amountCents: p.bigint('number'),
    balanceAfterCents: p.bigint('number'),
    /** How much of this month's grant the entry added (+) or used (-). */
    grantDeltaCents: p.integer().default(0),
    /** Unique: a retried or duplicated movement finds its entry and changes nothing. */
    reference: p.string().length(200).unique(),
    conversationId: p.uuid().nullable(),
    enhancementId: p.uuid().nullable(),
    description: p.text().nullable(),
    createdAt: p.datetime(),
  },
});

/** A stage's (or an enhancement's) reserved worst case, until it settles. */
export const Hold = defineEntity({
  name: 'Hold',
  tableName: 'holds',
  properties: {
    id: p.string().length(200).primary(),
    userId: p.uuid(),
    amountCents: p.bigint('number'),
    status: p.string().length(16).$type<'open' | 'settled'>(),
    conversationId: p.uuid().nullable(),
    enhancementId: p.uuid().nullable(),
    createdAt: p.datetime(),
    settledAt: p.datetime().nullable(),
  },
});

/** One referral reward to one generation of the chain; decays after expiry and grace. */
export const ReferralReward = defineEntity({
  name: 'ReferralReward',
  tableName: 'referral_rewards',
  properties: {
    id: p.uuid().primary(),
    beneficiaryId: p.uuid(),
    referredUserId: p.uuid(),
    event: p.string().length(16).$type<'signup' | 'first_build'>(),
    level: p.integer(),
    amountCents: p.integer(),
    /** Taken back so far by expiry and decay. */
    decayedCents: p.integer().default(0),
    grantedAt: p.datetime(),
  },
});

/** A Stripe Checkout Session this server created, fulfilled once by its signed webhook. */
export const StripeCheckout = defineEntity({
  name: 'StripeCheckout',
  tableName: 'stripe_checkouts',
  properties: {
    id: p.string().length(255).primary(),
    userId: p.uuid(),
    purpose: p.string().length(16).$type<'top_up' | 'listing' | 'njin'>(),
    packDollars: p.integer().nullable(),
    amountCents: p.integer(),
    status: p.string().length(16).$type<'open' | 'paid' | 'expired'>(),
    /** What the purchase is for besides credits (a listing id, a licence). */
    referenceId: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    fulfilledAt: p.datetime().nullable(),
  },
});

/** Stripe event ids already handled (a duplicate is answered 200 and ignored). */
export const StripeEvent = defineEntity({
  name: 'StripeEvent',
  tableName: 'stripe_events',
  properties: {
    id: p.string().length(255).primary(),
    type: p.string().length(100),
    receivedAt: p.datetime(),
  },
});

/** The card of the user's last payment, for the Account page. */
export const PaymentCard = defineEntity({
  name: 'PaymentCard',
  tableName: 'payment_cards',
  properties: {
    userId: p.uuid().primary(),
    brand: p.string().length(32),
    last4: p.string().length(4),
    expMonth: p.integer(),
    expYear: p.integer(),
    updatedAt: p.datetime(),
  },
});
