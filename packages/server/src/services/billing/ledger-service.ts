import type { MikroORM } from '@mikro-orm/core';
import { AppError, centsToDollars, grantMonth, LEDGER_KIND_LABELS, type LedgerEntryItemJson, type LedgerKind } from '@wolfpack/core';
import type { Sql } from '../../db/plain-sql.js';
import type { EntryInput, HoldScope } from './ledger-writes.js';
import { WalletTransaction, type Posted, type ReserveResult, type WalletRow, type WalletTx } from './wallet-transaction.js';

export type { EntryInput, HoldScope } from './ledger-writes.js';
export type { Posted, ReserveResult, WalletRow, WalletTx } from './wallet-transaction.js';

/**
 * The only place money moves. Every movement is a ledger entry with a unique reference, written in
 * the same transaction as the balance change, under the wallet row's lock (SELECT … FOR UPDATE), so
 * concurrent debits never lose an update and the balance never goes below zero (the table's check
 * constraint backs that up). Opening a wallet credits the welcome bonus and this month's grant;
 * every transaction first rolls the grant over when the month changed.
 */
export class LedgerService {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async transact<T>(userId: string, work: (tx: WalletTx) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      const wallet = await this.lockWallet(sql, userId);
      const tx = new WalletTransaction(sql, userId, wallet, this.clock);
      await tx.openAndRollOver();
      const result = await work(tx);
      await tx.writeWallet();
      return result;
    });
  }

  post(userId: string, entry: EntryInput, options?: { clamp?: boolean }): Promise<Posted> {
    return this.transact(userId, (tx) => tx.post(entry, options));
  }

  /** Holds `cents` for an engine call (see {@link WalletTx.reserve}). */
  reserve(userId: string, holdId: string, cents: number, scope: HoldScope, atLeastCents?: number): Promise<ReserveResult> {
    return this.transact(userId, (tx) => tx.reserve(holdId, cents, scope, atLeastCents));
  }

  async balance(userId: string): Promise<{ balanceCents: number; grantCents: number; grantMonth: string }> {
    return this.transact(userId, async (tx) => ({ balanceCents: tx.balanceCents(), grantCents: (tx as WalletTransaction).grantCents, grantMonth: grantMonth(this.clock()) }));
  }

  /** Newest first; `before` is the id of the last entry of the previous page. */
  async entries(userId: string, query: { limit: number; before?: number }): Promise<LedgerEntryItemJson[]> {
    // Read in the wallet's transaction: a new wallet's welcome bonus, or this month's grant, is
    // posted first, so the activity a user opens first agrees with the balance read beside it.
    return this.transact(userId, (tx) => this.readEntries(tx.em as Sql, userId, query));
  }

  private async readEntries(em: Sql, userId: string, query: { limit: number; before?: number }): Promise<LedgerEntryItemJson[]> {
    const rows = await em.execute<Array<{ id: string | number; kind: LedgerKind; amount_cents: string | number; balance_after_cents: string | number; created_at: Date | string }>>(
      `select id, kind, amount_cents, balance_after_cents, created_at from ledger_entries
       where user_id = ? ${query.before ? 'and id < ?' : ''} order by id desc limit ?`,
      query.before ? [userId, query.before, query.limit] : [userId, query.limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      kind: r.kind,
      label: LEDGER_KIND_LABELS[r.kind] ?? r.kind,
      amountCents: Number(r.amount_cents),
      amountDollars: centsToDollars(Number(r.amount_cents)),
      balanceAfterCents: Number(r.balance_after_cents),
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  private async lockWallet(em: Sql, userId: string): Promise<WalletRow & { created: boolean }> {
    const lock = () => em.execute<WalletRow[]>('select balance_cents, grant_cents, grant_month from wallets where user_id = ? for update', [userId]);
    const found = (await lock())[0];
    if (found) return { ...found, created: false };
    const now = this.clock();
    // Two first requests of a new user race here: one insert wins, both then lock the same row.
    const inserted = await em.execute<Array<{ user_id: string }>>(
      `insert into wallets (user_id, balance_cents, grant_cents, grant_month, created_at, updated_at)
       values (?, 0, 0, null, ?, ?) on conflict (user_id) do nothing returning user_id`,
      [userId, now, now],
    );
    const row = (await lock())[0];
    if (!row) throw new AppError('NOT_FOUND', 'This account has no wallet.');
    return { ...row, created: inserted.length > 0 };
  }
}

