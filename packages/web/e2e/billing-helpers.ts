/**
 * Money set-up for browser tests. A balance below $5 takes many priced runs to reach, so tests
 * post an adjustment through the server's own ledger (the same code a run's charges go through)
 * on the database of a server they started.
 */
import type { TestServer } from './harness';
// The ledger is the server's internal service; the e2e config runs workspace sources, so the test
// uses it as the server does instead of writing ledger rows by hand.
import { LedgerService } from '../../server/src/services/ledger-service';

type Sql = { execute<T>(sql: string, params?: unknown[]): Promise<T> };

/** The id of a user by name. */
export async function userIdOf(server: TestServer, username: string): Promise<string> {
  const rows = await (server.db.orm.em.fork() as unknown as Sql).execute<Array<{ id: string }>>('select id from users where username = ?', [username]);
  const id = rows[0]?.id;
  if (!id) throw new Error(`no user ${username}`);
  return id;
}

let adjustments = 0;

/** Moves a user's balance by `amountCents` (negative to spend) with an adjustment entry. */
export async function adjustBalance(server: TestServer, username: string, amountCents: number): Promise<number> {
  adjustments += 1;
  const ledger = new LedgerService(server.db.orm);
  const posted = await ledger.post(await userIdOf(server, username), {
    kind: 'adjustment',
    amountCents,
    reference: `e2e-adjustment:${process.pid}:${Date.now()}:${adjustments}`,
    description: 'Browser test',
  });
  return posted.balanceAfterCents;
}
