// What one stage's reservation costs on the run's wait: the wallet's locked transaction (`begin`,
// the row lock, the entry with its hold and wallet row, `commit`) against the reservation as one
// statement (the row read, then one compare-and-swap statement: LedgerService.reserveAtOnce), one
// after another on one wallet as a run makes them, side by side in one run, on PGlite and (when
// reachable) PostgreSQL. Twice: back to back, and each after the process idled as long as a run
// waits for its engines (BENCH_IDLE_MS, default 250), which is where a run's statements are slow.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pgAdmin } from './pg-admin.js';
import { openDatabase } from '../src/db/orm.js';
import { AuthService } from '../src/services/accounts/auth-service.js';
import { LedgerService } from '../src/services/billing/ledger-service.js';
import { POSTGRES_ADMIN_URL, withDatabase } from '../src/testing/database-template.js';

const PER_CANDIDATE = Number(process.env.BENCH_RESERVATIONS ?? 40);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 250);

type Row = { database: string; idle: number; locked: number[]; atOnce: number[] };

async function measure(database: string, databaseUrl: string | undefined): Promise<Row[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-bench-reservation-'));
  const db = await openDatabase({ databaseUrl, dataDir });
  try {
    const ledger = new LedgerService(db.orm);
    const user = await new AuthService(db.orm).register({ username: 'bench', password: 'bench-password' });
    await ledger.post(user.id, { kind: 'top_up', amountCents: 100_000, reference: 'bench:credit' });
    const rows: Row[] = [];
    let n = 0;
    for (const idle of [0, IDLE_MS]) {
      const row: Row = { database, idle, locked: [], atOnce: [] };
      // One warm-up each, then the two alternate, so drift hits both alike.
      for (let i = -1; i < PER_CANDIDATE; i++) {
        for (const candidate of ['locked', 'atOnce'] as const) {
          if (idle) await sleep(idle);
          const holdId = `bench:${n++}`;
          const started = performance.now();
          const result =
            candidate === 'locked'
              ? await ledger.transact(user.id, (tx) => tx.reserve(holdId, 1, { conversationId: null }))
              : await ledger.reserveAtOnce(user.id, holdId, 1, { conversationId: null });
          const took = performance.now() - started;
          if (!result?.ok) throw new Error(`the ${candidate} reservation ${holdId} was not made: ${JSON.stringify(result)}`);
          if (i >= 0) row[candidate].push(took);
        }
      }
      rows.push(row);
    }
    // Exact: every reservation held one cent, once.
    const { balanceCents } = await ledger.balance(user.id);
    if (balanceCents !== 1500 + 100_000 - n) throw new Error(`balance ${balanceCents}, expected ${1500 + 100_000 - n}`);
    return rows;
  } finally {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

const rows = await measure('PGlite (embedded)', undefined);
const name = `wolfpack_bench_${randomBytes(6).toString('hex')}`;
let created = false;
try {
  await pgAdmin(POSTGRES_ADMIN_URL, `create database "${name}"`);
  created = true;
} catch (error) {
  console.log(`PostgreSQL skipped: not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}).`);
}
try {
  if (created) rows.push(...(await measure('PostgreSQL', withDatabase(POSTGRES_ADMIN_URL, name))));
} finally {
  if (created) await pgAdmin(POSTGRES_ADMIN_URL, `drop database if exists "${name}" with (force)`).catch(() => {});
}

console.log(`One wallet, ${PER_CANDIDATE} reservations of 1 cent per candidate and row after a warm-up, alternating; every one made, balance exact.\n`);
console.log('| database | idle before each | locked transaction: median / p90 | one statement: median / p90 | one statement ÷ locked (medians) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const [lm, lp, am, ap] = [quantile(r.locked, 0.5), quantile(r.locked, 0.9), quantile(r.atOnce, 0.5), quantile(r.atOnce, 0.9)];
  console.log(`| ${r.database} | ${r.idle} ms | ${lm.toFixed(2)} / ${lp.toFixed(2)} ms | ${am.toFixed(2)} / ${ap.toFixed(2)} ms | ${(am / lm).toFixed(2)} |`);
}
