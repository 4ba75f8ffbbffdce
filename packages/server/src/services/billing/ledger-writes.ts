import type { LedgerKind } from '@wolfpack/core';
import { sqlPart, type GatedWrite } from '../../db/one-statement.js';

// The ledger's rows as SQL (its rules are core's `walletMove`), as the wallet's locked transaction
// writes them; apart from it so that mutation testing (stryker.config.mjs) mutates the SQL alone.

export interface EntryInput {
  kind: LedgerKind;
  /** Signed: + credit, - debit. */
  amountCents: number;
  /** Globally unique: the same reference twice moves money once. */
  reference: string;
  conversationId?: string | null;
  enhancementId?: string | null;
  description?: string | null;
  /**
   * How much of this month's grant the entry gives back (a released hold returns what its
   * reservation took). Debits take from the grant first on their own.
   */
  grantReturnCents?: number;
}

export interface HoldScope {
  conversationId?: string | null;
  enhancementId?: string | null;
}

/** The entry, inserted only when its reference is new (`returning id` says whether it was). */
export function entryWrite(userId: string, entry: EntryInput, balanceAfter: number, grantDelta: number, now: Date): GatedWrite {
  return (from) =>
    sqlPart(
      `insert into ledger_entries (user_id, kind, amount_cents, balance_after_cents, grant_delta_cents, reference, conversation_id, enhancement_id, description, created_at)
       select ?::uuid, ?, ?::bigint, ?::bigint, ?::int, ?, ?::uuid, ?::uuid, ?, ?::timestamptz from ${from.text} as c on conflict (reference) do nothing returning id`,
      [userId, entry.kind, entry.amountCents, balanceAfter, grantDelta, entry.reference, entry.conversationId ?? null, entry.enhancementId ?? null, entry.description ?? null, now, ...from.params],
    );
}

export function holdWrite(holdId: string, userId: string, amount: number, scope: HoldScope, now: Date): GatedWrite {
  return (from) =>
    sqlPart(`insert into holds (id, user_id, amount_cents, status, conversation_id, enhancement_id, created_at, settled_at) select ?, ?::uuid, ?::bigint, 'open', ?::uuid, ?::uuid, ?::timestamptz, null from ${from.text} as c`, [
      holdId,
      userId,
      amount,
      scope.conversationId ?? null,
      scope.enhancementId ?? null,
      now,
      ...from.params,
    ]);
}

export function reservationEntry(holdId: string, amount: number, scope: HoldScope): EntryInput {
  return { kind: 'reservation', amountCents: -amount, reference: `hold:${holdId}`, conversationId: scope.conversationId, enhancementId: scope.enhancementId, description: 'Held for a stage' };
}
