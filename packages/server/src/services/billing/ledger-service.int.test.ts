import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, balanceReply } from '@wolfpack/core';
import { TestClient } from '../../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../../testing/test-server.js';
import { LedgerService } from './ledger-service.js';
import type { Sql } from '../../db/plain-sql.js';

describe.each(testDatabases())('the ledger on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });

  async function withUser(clock?: () => Date): Promise<{ server: TestServer; client: TestClient; userId: string; sql: Sql }> {
    const server = await startTestServer(kind, clock ? { clock } : {});
    servers.push(server);
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: `u${randomUUID().slice(0, 8)}`, password: 'correct-horse' })).status).toBe(201);
    const sql = server.db.orm.em.fork() as unknown as Sql;
    const rows = await sql.execute<Array<{ id: string }>>('select id from users order by created_at desc limit 1');
    return { server, client, userId: rows[0]!.id, sql };
  }

  const sumOf = async (sql: Sql, userId: string) =>
    Number((await sql.execute<Array<{ s: string | number }>>('select coalesce(sum(amount_cents), 0) as s from ledger_entries where user_id = ?', [userId]))[0]!.s);
  const walletOf = async (sql: Sql, userId: string) =>
    Number((await sql.execute<Array<{ b: string | number }>>('select balance_cents as b from wallets where user_id = ?', [userId]))[0]!.b);

  const ledgerRows = (sql: Sql, userId: string) =>
    sql.execute<Array<Record<string, unknown>>>(
      `select kind, amount_cents::int as amount, balance_after_cents::int as after, grant_delta_cents as grant_delta, reference, description from ledger_entries where user_id = ? order by id`,
      [userId],
    );

  it('opens a wallet with the welcome bonus and this month\'s grant: 1,500 cents', async () => {
    const { client } = await withUser(() => new Date('2026-11-23T12:00:00Z'));
    const reply = balanceReply.parse((await client.get('/api/billing/balance')).json);
    expect(reply).toMatchObject({ balanceCents: 1500, balanceDollars: 15, monthlyGrantDollars: 5, grantResetDate: '2026-12-01T00:00:00.000Z' });
    const raw = (await client.get('/api/billing/balance')).json as Record<string, unknown>;
    expect(raw['balanceDollars']).toBe('15.00');
  });

  it('200 concurrent debits leave the balance exact and never negative', async () => {
    const { server, userId, sql } = await withUser();
    const ledger = new LedgerService(server.db.orm);
    await ledger.post(userId, { kind: 'adjustment', amountCents: 500, reference: `seed:${userId}` }); // 2,000 in all
    // 200 debits of 13 cents want 2,600: exactly 153 fit (1,989), the other 47 must be refused.
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => ledger.post(userId, { kind: 'engine_usage', amountCents: -13, reference: `debit:${userId}:${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(153);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(refused.every((r) => ((r as PromiseRejectedResult).reason as AppError).code === 'PAYMENT_REQUIRED')).toBe(true);
    expect(await walletOf(sql, userId)).toBe(2000 - 153 * 13);
    expect(await sumOf(sql, userId)).toBe(2000 - 153 * 13);
    // The same references again change nothing.
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.post(userId, { kind: 'engine_usage', amountCents: -13, reference: `debit:${userId}:${i}` }).catch(() => null)));
    expect(again.filter((p) => p && !p.duplicate)).toHaveLength(0);
    expect(await walletOf(sql, userId)).toBe(2000 - 153 * 13);
  });

  it('grants once per month however many requests race, and expires what was left', async () => {
    let now = new Date('2026-11-20T10:00:00Z');
    const { server, client, userId, sql } = await withUser(() => now);
    expect(balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents).toBe(1500);
    // Spend 200 of the 500 grant this month.
    await new LedgerService(server.db.orm, () => now).post(userId, { kind: 'engine_usage', amountCents: -200, reference: 'spend-nov' });
    now = new Date('2026-12-02T09:00:00Z');
    const replies = await Promise.all(Array.from({ length: 25 }, () => client.get('/api/billing/balance')));
    expect(new Set(replies.map((r) => (r.json as { balanceCents: number }).balanceCents))).toEqual(new Set([1500 - 200 - 300 + 500]));
    const kinds = await sql.execute<Array<{ kind: string; amount_cents: string | number }>>(
      `select kind, amount_cents from ledger_entries where user_id = ? order by id`,
      [userId],
    );
    expect(kinds.map((k) => [k.kind, Number(k.amount_cents)])).toEqual([
      ['welcome_bonus', 1000],
      ['monthly_grant', 500],
      ['engine_usage', -200],
      ['grant_expiry', -300],
      ['monthly_grant', 500],
    ]);
    expect(balanceReply.parse((await client.get('/api/billing/balance')).json).grantResetDate).toBe('2027-01-01T00:00:00.000Z');
    // The wallet row says the month was rolled over (written with the entries or after them): no later
    // transaction rolls it over again and takes the new grant back.
    expect(await sql.execute('select grant_cents, grant_month from wallets where user_id = ?', [userId])).toEqual([{ grant_cents: 500, grant_month: '2026-12' }]);
    await new LedgerService(server.db.orm, () => now).post(userId, { kind: 'engine_usage', amountCents: -100, reference: 'spend-dec' });
    expect(await sql.execute('select balance_cents::int as balance_cents, grant_cents, grant_month from wallets where user_id = ?', [userId])).toEqual([
      { balance_cents: 1400, grant_cents: 400, grant_month: '2026-12' },
    ]);
  });

  it('a hold takes grant first and gives it back when released', async () => {
    const { server, userId, sql } = await withUser();
    const ledger = new LedgerService(server.db.orm);
    const held = await ledger.transact(userId, (tx) => tx.reserve('h1', 700, { conversationId: null }));
    expect(held).toEqual({ ok: true, balanceCents: 800, heldCents: 700 });
    expect(await ledger.transact(userId, (tx) => tx.reserve('h2', 900, { conversationId: null }))).toEqual({ ok: false, balanceCents: 800 });
    await ledger.transact(userId, (tx) => tx.settle('h1', 120, { kind: 'engine_usage', amountCents: -120, reference: 'usage:h1' }));
    await ledger.transact(userId, (tx) => tx.settle('h1', 120, { kind: 'engine_usage', amountCents: -120, reference: 'usage:h1' }));
    expect(await walletOf(sql, userId)).toBe(1380);
    const grant = await sql.execute<Array<{ g: number }>>('select grant_cents as g from wallets where user_id = ?', [userId]);
    expect(grant[0]!.g).toBe(380);
    // A hold of nothing (a stage priced at nothing) settles too, and moves nothing.
    expect(await ledger.reserve(userId, 'h0', 0, { conversationId: null })).toEqual({ ok: true, balanceCents: 1380, heldCents: 0 });
    expect(await sql.execute(`select status from holds where id = 'h0'`)).toEqual([{ status: 'open' }]);
    await ledger.transact(userId, (tx) => tx.settle('h0', 0, null));
    expect(await sql.execute(`select status from holds where id in ('h0', 'h1') order by id`)).toEqual([{ status: 'settled' }, { status: 'settled' }]);
    expect(await walletOf(sql, userId)).toBe(1380);
    // A settlement whose charge's reference is taken fails whole: the hold stays open, nothing moves.
    await ledger.reserve(userId, 'h3', 100, { conversationId: null });
    await ledger.post(userId, { kind: 'adjustment', amountCents: -1, reference: 'usage:h3' });
    const before = await ledgerRows(sql, userId);
    await expect(ledger.transact(userId, (tx) => tx.settle('h3', 50, { kind: 'engine_usage', amountCents: -50, reference: 'usage:h3' }))).rejects.toThrow(/division by zero/);
    expect(await ledgerRows(sql, userId)).toEqual(before);
    expect(await walletOf(sql, userId)).toBe(1279);
    expect(await sql.execute(`select status from holds where id = 'h3'`)).toEqual([{ status: 'open' }]);
  });

  it('moves money once per reference, however often and however concurrently it is asked', async () => {
    const { server, userId, sql } = await withUser();
    const ledger = new LedgerService(server.db.orm);
    const first = await ledger.post(userId, { kind: 'top_up', amountCents: 2000, reference: 'top-up:once' });
    expect(first).toMatchObject({ amountCents: 2000, balanceAfterCents: 3500, duplicate: false });
    // Asked again, even for another amount: the first entry is the answer and nothing moves.
    expect(await ledger.post(userId, { kind: 'top_up', amountCents: 999, reference: 'top-up:once' })).toEqual({ ...first, duplicate: true });
    // A debit already made is answered as made even when the balance could no longer pay it.
    const debit = await ledger.post(userId, { kind: 'adjustment', amountCents: -3000, reference: 'debit:once' });
    expect(debit.balanceAfterCents).toBe(500);
    expect(await ledger.post(userId, { kind: 'adjustment', amountCents: -3000, reference: 'debit:once' })).toEqual({ ...debit, duplicate: true });
    // Twenty transactions racing on one reference: one entry, one movement, no failure.
    const raced = await Promise.all(Array.from({ length: 20 }, () => ledger.post(userId, { kind: 'refund', amountCents: 100, reference: 'refund:raced' })));
    expect(raced.filter((p) => !p.duplicate)).toHaveLength(1);
    expect(await walletOf(sql, userId)).toBe(600);
    expect(await sumOf(sql, userId)).toBe(600);
    // A hold asked twice holds once, and still stands when the balance could not hold it again.
    expect(await ledger.transact(userId, (tx) => tx.reserve('h-once', 400, { conversationId: null }))).toEqual({ ok: true, balanceCents: 200, heldCents: 400 });
    expect(await ledger.transact(userId, (tx) => tx.reserve('h-once', 400, { conversationId: null }))).toEqual({ ok: true, balanceCents: 200, heldCents: 400 });
    const holds = await sql.execute<Array<{ n: string | number }>>(`select count(*) as n from holds where id = 'h-once'`);
    expect(Number(holds[0]!.n)).toBe(1);
    expect(await walletOf(sql, userId)).toBe(200);
    // Another account's reference is refused, not shared.
    const second = new TestClient(server.url);
    expect((await second.post('/api/auth/register', { username: `v${randomUUID().slice(0, 8)}`, password: 'correct-horse' })).status).toBe(201);
    const otherId = (await sql.execute<Array<{ id: string }>>('select id from users where id <> ? order by created_at desc limit 1', [userId]))[0]!.id;
    expect((await second.get('/api/billing/balance')).status).toBe(200);
    await expect(ledger.post(otherId, { kind: 'top_up', amountCents: 1, reference: 'top-up:once' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await sumOf(sql, otherId)).toBe(1500);
  });

  it('a hold with a least it needs takes the whole balance when that is short of what was asked but not of the least', async () => {
    const { server, userId, sql } = await withUser();
    const ledger = new LedgerService(server.db.orm);
    await ledger.balance(userId);
    // 1,500 there, 2,000 asked, 500 at the least: all 1,500.
    expect(await ledger.reserve(userId, 'most', 2000, { conversationId: null }, 500)).toEqual({ ok: true, balanceCents: 0, heldCents: 1500 });
    expect(await sql.execute(`select amount_cents::int as cents from holds where id = 'most'`)).toEqual([{ cents: 1500 }]);
    expect((await ledgerRows(sql, userId)).at(-1)).toMatchObject({ kind: 'reservation', amount: -1500, after: 0, reference: 'hold:most' });
    await ledger.post(userId, { kind: 'adjustment', amountCents: 300, reference: `more:${userId}` });
    // 300 there, 301 at the least: refused, nothing written.
    const before = await ledgerRows(sql, userId);
    expect(await ledger.reserve(userId, 'short', 2000, { conversationId: null }, 301)).toEqual({ ok: false, balanceCents: 300 });
    expect(await ledgerRows(sql, userId)).toEqual(before);
    // 300 at the least: it takes all of it.
    expect(await ledger.transact(userId, (tx) => tx.reserve('rest', 2000, { conversationId: null }, 300))).toEqual({ ok: true, balanceCents: 0, heldCents: 300 });
    // Asked again, a hold made before answers what it held, whatever is asked now.
    expect(await ledger.reserve(userId, 'rest', 2000, { conversationId: null }, 1)).toEqual({ ok: true, balanceCents: 0, heldCents: 300 });
    expect(await ledger.reserve(userId, 'most', 50, { conversationId: null })).toEqual({ ok: true, balanceCents: 0, heldCents: 1500 });
    // Released, each gives back what it held.
    await ledger.transact(userId, async (tx) => {
      await tx.settle('most', 0, null);
      await tx.settle('rest', 0, null);
    });
    expect(await walletOf(sql, userId)).toBe(1800);
    expect(await sumOf(sql, userId)).toBe(1800);
  });

  it('reservations racing debits, credits and settlements on one wallet keep every entry\'s balance in order', async () => {
    const { server, userId, sql } = await withUser();
    const ledger = new LedgerService(server.db.orm);
    await ledger.post(userId, { kind: 'adjustment', amountCents: 500, reference: `seed:${userId}` }); // 2,000
    // Rounds of two reservations at once, then of two reservations, a debit and the settlement of
    // the round before's first hold, all at once.
    for (let round = 0; round < 30; round++) {
      await Promise.all([
        ledger.reserve(userId, `race:${round}:a`, 17, { conversationId: null }),
        ledger.reserve(userId, `race:${round}:b`, 17, { conversationId: null }),
        round % 2 ? ledger.post(userId, { kind: 'engine_usage', amountCents: -11, reference: `race-debit:${round}` }) : null,
        round % 2 ? ledger.transact(userId, (tx) => tx.settle(`race:${round - 1}:a`, 5, { kind: 'engine_usage', amountCents: -5, reference: `race-usage:${round}` })) : null,
      ]);
    }
    const rows = await ledgerRows(sql, userId);
    let balance = 0;
    for (const row of rows) {
      balance += row['amount'] as number;
      expect(row['after']).toBe(balance);
      expect(balance).toBeGreaterThanOrEqual(0);
    }
    expect(await walletOf(sql, userId)).toBe(balance);
    const held = await sql.execute<Array<{ n: string | number }>>(`select count(*) as n from holds where user_id = ? and id like 'race:%'`, [userId]);
    expect(Number(held[0]!.n)).toBe(rows.filter((r) => r['kind'] === 'reservation').length);
    expect(Number(held[0]!.n)).toBe(60);
  });
});
