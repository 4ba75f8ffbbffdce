// What the ledger's safety costs on PostgreSQL: debits per second through LedgerService.post (one
// transaction: wallet row lock, duplicate-reference check, entry insert, balance update) against
// plain single-row `update … set n = n - 1` statements, both with 100 concurrent writers on ONE row
// (one user's wallet, one counter), through the server's own connection pool, side by side in one
// run. Every writer hits the same row, so both are serialised by its lock: the ratio is the extra
// work done while holding it. Both final values are checked to the cent: no lost update.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgAdmin, requirePostgres } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { AuthService } from '../src/services/accounts/auth-service.js';
import { LedgerService } from '../src/services/billing/ledger-service.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';
import type { Sql } from '../src/db/plain-sql.js';

const WRITERS = 100;
const PER_WRITER = Number(process.env.BENCH_LEDGER_PER_WRITER ?? 20);
const ROUNDS = 3;

const admin = (sql: string) => pgAdmin(POSTGRES_ADMIN_URL, sql);
await requirePostgres(POSTGRES_ADMIN_URL, 'Set WOLFPACK_TEST_POSTGRES_URL or start PostgreSQL on 127.0.0.1:5432.');

const name = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
await admin(`create database "${name}"`);
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-ledger-'));
const db = await openDatabase({ databaseUrl: withDatabase(POSTGRES_ADMIN_URL, name), dataDir });

/** `WRITERS` concurrent loops of `PER_WRITER` awaited operations each; answers operations per second. */
async function rate(op: (writer: number, i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, async (_, writer) => {
    for (let i = 0; i < PER_WRITER; i++) await op(writer, i);
  }));
  return (WRITERS * PER_WRITER) / ((performance.now() - started) / 1000);
}

try {
  const sql = () => db.orm.em.fork() as Sql;
  const ledger = new LedgerService(db.orm);
  const user = await new AuthService(db.orm).register({ username: 'bench', password: 'bench-password' });
  const total = WRITERS * PER_WRITER * (ROUNDS + 1);
  // Enough credit for every debit of every round (the wallet opens with the welcome bonus and grant).
  const opened = await ledger.post(user.id, { kind: 'top_up', amountCents: total, reference: 'bench:credit' });
  await sql().execute('create table bench_counter (id int primary key, n bigint not null)');
  await sql().execute('insert into bench_counter (id, n) values (1, ?)', [total]);

  const plainRates: number[] = [];
  const ledgerRates: number[] = [];
  let debits = 0;
  // Round 0 warms up connections and plans; then the two alternate, so drift hits both alike.
  for (let round = 0; round <= ROUNDS; round++) {
    const plain = await rate(() => sql().execute('update bench_counter set n = n - 1 where id = 1'));
    const posted = await rate((writer, i) =>
      ledger.post(user.id, { kind: 'adjustment', amountCents: -1, reference: `bench:${round}:${writer}:${i}`, description: 'benchmark debit' }),
    );
    debits += WRITERS * PER_WRITER;
    if (round > 0) {
      plainRates.push(plain);
      ledgerRates.push(posted);
    }
  }

  // Exact to the cent: no debit lost or doubled under contention.
  const [counter] = await sql().execute<Array<{ n: string | number }>>('select n from bench_counter where id = 1');
  const { balanceCents } = await ledger.balance(user.id);
  const [entries] = await sql().execute<Array<{ n: string | number; sum: string | number }>>(
    `select count(*) as n, coalesce(sum(amount_cents), 0) as sum from ledger_entries where user_id = ? and kind = 'adjustment'`,
    [user.id],
  );
  const expectedBalance = opened.balanceAfterCents - debits;
  const checks = [
    [Number(counter!.n) === total - debits, `counter ${counter!.n}, expected ${total - debits}`],
    [balanceCents === expectedBalance, `balance ${balanceCents}, expected ${expectedBalance}`],
    [Number(entries!.n) === debits && Number(entries!.sum) === -debits, `${entries!.n} debit entries summing to ${entries!.sum}, expected ${debits} summing to ${-debits}`],
  ] as const;
  const failed = checks.filter(([ok]) => !ok);
  if (failed.length > 0) throw new Error(`Final values are wrong: ${failed.map(([, why]) => why).join('; ')}`);

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const plain = median(plainRates);
  const posted = median(ledgerRates);
  console.log(`PostgreSQL, ${WRITERS} concurrent writers on one row, ${WRITERS * PER_WRITER} operations per round, median of ${ROUNDS} rounds after a warm-up,`);
  console.log(`through the server's connection pool (10). Final counter and balance exact (${debits} debits each).\n`);
  console.log('| candidate | operations per second | ratio to plain update |');
  console.log('| --- | ---: | ---: |');
  console.log(`| plain \`update bench_counter set n = n - 1\` | ${plain.toFixed(0)} | 1.00 |`);
  console.log(`| LedgerService.post (debit of 1 cent) | ${posted.toFixed(0)} | ${(posted / plain).toFixed(2)} |`);
} finally {
  await db.close();
  await admin(`drop database if exists "${name}" with (force)`).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
