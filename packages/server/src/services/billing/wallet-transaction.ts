import type { EntityManager } from '@mikro-orm/core';
import { AppError, formatCents, grantMonth, holdWithin, walletMove, MONTHLY_GRANT_CENTS, WELCOME_BONUS_CENTS } from '@wolfpack/core';
import { oneStatement, sqlPart, ungated, type GatedWrite } from '../../db/one-statement.js';
import type { Sql } from '../../db/plain-sql.js';
import { entryWrite, holdWrite, reservationEntry, type EntryInput, type HoldScope } from './ledger-writes.js';

export interface Posted {
  id: number;
  amountCents: number;
  balanceAfterCents: number;
  /** The reference was already in the ledger: nothing changed. */
  duplicate: boolean;
}

/** A hold taken (`heldCents`: what it holds; a hold made before answers what it held) or refused, with the balance after. */
export type ReserveResult = { ok: true; balanceCents: number; heldCents: number } | { ok: false; balanceCents: number };

/** The work of one wallet transaction: the wallet row is locked until it returns. */
export interface WalletTx {
  /** The transaction's entity manager: writes through it commit or roll back with the entries. */
  em: EntityManager;
  userId: string;
  balanceCents(): number;
  /**
   * Appends an entry and moves the balance. A debit larger than the balance throws
   * PAYMENT_REQUIRED, or with `clamp` debits only what is there (0: no entry).
   */
  post(entry: EntryInput, options?: { clamp?: boolean }): Promise<Posted>;
  /**
   * Holds `cents`; answers ok false (and holds nothing) when the balance is short. With
   * `atLeastCents`, a shorter balance is held whole when it is at least that (core's `holdWithin`).
   */
  reserve(holdId: string, cents: number, scope: HoldScope, atLeastCents?: number): Promise<ReserveResult>;
  /**
   * Gives a hold back and charges what the stage really cost (at most what was held, which the
   * caller ensures). Settling a settled hold changes nothing.
   */
  settle(holdId: string, chargeCents: number, usage: EntryInput | null): Promise<void>;
  /** Releases every open hold of a run or enhancement uncharged (the work they covered was lost). */
  releaseOpenHolds(scope: HoldScope): Promise<number>;
}

export interface WalletRow {
  balance_cents: string | number;
  grant_cents: number;
  grant_month: string | null;
}

/**
 * One wallet transaction. Every statement is a round trip on the user's wait (a run reserves before
 * each stage), so the common path takes as few as it can: an entry is inserted first and its
 * reference read back only when it was there already, and the wallet row (locked for the whole
 * transaction, read by nobody else meanwhile) is written in the same statement as each entry,
 * with what the caller adds (a reservation's hold): a reservation is the lock and one statement.
 * Rules stay here: the statement only stores what this code computed.
 */
export class WalletTransaction implements WalletTx {
  private balance: number;
  grantCents: number;
  private grantMonthValue: string | null;
  private readonly created: boolean;
  /** Whether the wallet row must still be written before the commit. */
  private changed = false;

  constructor(
    readonly em: Sql,
    readonly userId: string,
    wallet: WalletRow & { created: boolean },
    private readonly clock: () => Date,
  ) {
    this.balance = Number(wallet.balance_cents);
    this.grantCents = wallet.grant_cents;
    this.grantMonthValue = wallet.grant_month;
    this.created = wallet.created;
  }

  balanceCents(): number {
    return this.balance;
  }

  /** Welcome bonus on a new wallet; the monthly grant once per calendar month (UTC). */
  async openAndRollOver(): Promise<void> {
    const month = grantMonth(this.clock());
    if (this.created) {
      await this.post({ kind: 'welcome_bonus', amountCents: WELCOME_BONUS_CENTS, reference: `welcome:${this.userId}`, description: 'Welcome to the Pack' });
    }
    if (this.grantMonthValue === month) return;
    if (this.grantMonthValue !== null && this.grantCents > 0) {
      const expired = Math.min(this.grantCents, this.balance);
      await this.post({ kind: 'grant_expiry', amountCents: -expired, reference: `grant-expiry:${this.userId}:${this.grantMonthValue}`, description: `Unused free credits of ${this.grantMonthValue}` }, { clamp: true });
    }
    this.grantCents = 0;
    await this.post({ kind: 'monthly_grant', amountCents: MONTHLY_GRANT_CENTS, reference: `grant:${this.userId}:${month}`, description: `Free credits for ${month}` });
    this.grantMonthValue = month;
    this.changed = true;
  }

  /** The wallet row as this transaction left it, just before the commit, when a change was not written with an entry (the month's roll-over). */
  async writeWallet(): Promise<void> {
    if (!this.changed) return;
    await this.em.execute('update wallets set balance_cents = ?, grant_cents = ?, grant_month = ?, updated_at = ? where user_id = ?', [
      this.balance,
      this.grantCents,
      this.grantMonthValue,
      this.clock(),
      this.userId,
    ]);
    this.changed = false;
  }

  /** The entry already posted under this reference, if any: a movement is made once, whatever is asked later. */
  private async posted(reference: string): Promise<Posted | undefined> {
    const rows = await this.em.execute<Array<{ id: string | number; amount_cents: string | number; balance_after_cents: string | number; user_id: string }>>(
      'select id, amount_cents, balance_after_cents, user_id from ledger_entries where reference = ?',
      [reference],
    );
    const found = rows[0];
    if (!found) return undefined;
    if (found.user_id !== this.userId) throw new AppError('CONFLICT', 'That reference belongs to another account.');
    return { id: Number(found.id), amountCents: Number(found.amount_cents), balanceAfterCents: Number(found.balance_after_cents), duplicate: true };
  }

  /**
   * `after` is a second entry written in the same statement, with the wallet as the first leaves it,
   * when the first is new (a settlement's charge after its release); the caller ensures it fits.
   */
  async post(entry: EntryInput, options: { clamp?: boolean; alongside?: ReadonlyArray<readonly [string, GatedWrite]>; after?: EntryInput } = {}): Promise<Posted> {
    let amount = Math.trunc(entry.amountCents);
    if (amount < 0 && -amount > this.balance) {
      // Already posted, it is answered as such whatever the balance is now.
      const existing = await this.posted(entry.reference);
      if (existing) return existing;
      if (!options.clamp) {
        throw new AppError('PAYMENT_REQUIRED', `Not enough credits: this needs ${formatCents(-amount)} and your balance is ${formatCents(this.balance)}. Add credits in Settings.`);
      }
      amount = -this.balance;
    }
    if (amount === 0 && entry.kind !== 'welcome_bonus' && entry.kind !== 'monthly_grant') {
      return (await this.posted(entry.reference)) ?? { id: 0, amountCents: 0, balanceAfterCents: this.balance, duplicate: false };
    }
    const first = walletMove({ balanceCents: this.balance, grantCents: this.grantCents }, { ...entry, amountCents: amount });
    const now = this.clock();
    const after = options.after && { ...options.after, amountCents: Math.trunc(options.after.amountCents) };
    const then = after && walletMove({ balanceCents: first.balanceAfterCents, grantCents: first.grantAfterCents }, after);
    if (then && then.balanceAfterCents < 0) throw new Error(`ledger entry ${after!.reference} does not fit after ${entry.reference}`);
    const leaves = then ?? first;
    // The entry, and in the same statement the wallet row as it leaves it (and what the caller adds),
    // written only when the entry is new: the unique reference decides, so an entry posted before
    // (by this or a racing transaction) stays the only one and moves nothing again.
    const wallet: GatedWrite = (from) =>
      sqlPart(`update wallets set balance_cents = ?, grant_cents = ?, grant_month = ?, updated_at = ? from ${from.text} as c where wallets.user_id = ?`, [
        leaves.balanceAfterCents,
        leaves.grantAfterCents,
        this.grantMonthValue,
        now,
        ...from.params,
        this.userId,
      ]);
    const next: ReadonlyArray<readonly [string, GatedWrite]> = then ? [['next_entry', entryWrite(this.userId, after!, then.balanceAfterCents, then.grantDeltaCents, now)]] : [];
    const { text, params } = oneStatement(
      ['entry', entryWrite(this.userId, { ...entry, amountCents: amount }, first.balanceAfterCents, first.grantDeltaCents, now)(ungated())],
      [['wallet', wallet], ...next, ...(options.alongside ?? [])],
      // The second entry's reference already used would leave the wallet moved without it: the
      // division by zero fails the statement (and the transaction) instead.
      sqlPart(then ? 'select id, 1 / (select count(*)::int from next_entry) as whole from entry' : 'select id from entry'),
    );
    const rows = await this.em.execute<Array<{ id: string | number }>>(text, params);
    if (!rows[0]) {
      const existing = await this.posted(entry.reference);
      if (!existing) throw new Error(`ledger entry ${entry.reference} conflicted but cannot be read`);
      return existing;
    }
    this.balance = leaves.balanceAfterCents;
    this.grantCents = leaves.grantAfterCents;
    // The row now holds every field as this transaction has them.
    this.changed = false;
    return { id: Number(rows[0].id), amountCents: amount, balanceAfterCents: first.balanceAfterCents, duplicate: false };
  }

  async reserve(holdId: string, cents: number, scope: HoldScope, atLeastCents?: number): Promise<ReserveResult> {
    const fits = holdWithin(cents, this.balance, atLeastCents);
    // A hold made before stands, whatever the balance is now. Otherwise its reservation entry says
    // so (they are written together), except for a hold of nothing, which has no entry.
    if (fits === null || fits === 0) {
      const held = await this.em.execute<Array<{ amount_cents: string | number }>>('select amount_cents from holds where id = ?', [holdId]);
      if (held.length > 0) return { ok: true, balanceCents: this.balance, heldCents: Number(held[0]!.amount_cents) };
      if (fits === null) return { ok: false, balanceCents: this.balance };
    }
    const amount = fits;
    const hold = holdWrite(holdId, this.userId, amount, scope, this.clock());
    // The hold is written with its reservation entry (and the wallet), in one statement: a
    // reservation is on the user's wait before each stage. A hold of nothing has no entry to go with.
    const posted = await this.post(reservationEntry(holdId, amount, scope), amount > 0 ? { alongside: [['hold', hold]] } : {});
    // Made before (its entry is there): what it held then.
    if (posted.duplicate) return { ok: true, balanceCents: this.balance, heldCents: -posted.amountCents };
    if (amount === 0) {
      const { text, params } = hold(ungated());
      await this.em.execute(text, params);
    }
    return { ok: true, balanceCents: this.balance, heldCents: amount };
  }

  async settle(holdId: string, chargeCents: number, usage: EntryInput | null): Promise<void> {
    // The hold with what its reservation took from the grant, in one round trip.
    const rows = await this.em.execute<Array<{ amount_cents: string | number; status: string; conversation_id: string | null; enhancement_id: string | null; grant_delta_cents: number | null }>>(
      `select h.amount_cents, h.status, h.conversation_id, h.enhancement_id, r.grant_delta_cents
       from holds h left join ledger_entries r on r.reference = 'hold:' || h.id
       where h.id = ? and h.user_id = ? for update of h`,
      [holdId, this.userId],
    );
    const hold = rows[0];
    if (!hold || hold.status !== 'open') return;
    const amount = Number(hold.amount_cents);
    const now = this.clock();
    const settled: GatedWrite = (from) => sqlPart(`update holds set status = 'settled', settled_at = ? from ${from.text} as c where holds.id = ?`, [now, ...from.params, holdId]);
    const settleAlone = () => {
      const { text, params } = settled(ungated());
      return this.em.execute(text, params);
    };
    // A hold of nothing moved nothing (it has no entry): settling it moves nothing either.
    if (amount <= 0) {
      await settleAlone();
      return;
    }
    const charge = usage && chargeCents > 0 ? { ...usage, amountCents: -Math.min(chargeCents, amount) } : undefined;
    // The release, the charge and the hold settled: one statement, on the run's wait at its end.
    const released = await this.post(
      {
        kind: 'reservation_release',
        amountCents: amount,
        reference: `release:${holdId}`,
        conversationId: hold.conversation_id,
        enhancementId: hold.enhancement_id,
        grantReturnCents: -Number(hold.grant_delta_cents ?? 0),
        description: 'Hold released',
      },
      { ...(charge ? { after: charge } : {}), alongside: [['settled', settled]] },
    );
    if (!released.duplicate) return;
    // Released before (by a transaction that did not settle the hold with it): the rest, one by one.
    if (charge) await this.post(charge);
    await settleAlone();
  }

  async releaseOpenHolds(scope: HoldScope): Promise<number> {
    const column = scope.conversationId ? 'conversation_id' : 'enhancement_id';
    const value = scope.conversationId ?? scope.enhancementId;
    if (!value) return 0;
    const open = await this.em.execute<Array<{ id: string }>>(`select id from holds where user_id = ? and ${column} = ? and status = 'open'`, [this.userId, value]);
    for (const hold of open) await this.settle(hold.id, 0, null);
    return open.length;
  }
}
