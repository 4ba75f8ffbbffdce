/**
 * Money set-up for browser tests: a server of their own wired to a local fake Stripe, and balances. A balance below $5 takes many priced runs to reach, so tests
 * post an adjustment through the server's own ledger (the same code a run's charges go through)
 * on the database of a server they started.
 */
import { afterAll, beforeAll } from 'vitest';
import { startFakeStripe, type FakeStripe, type Sql } from '@wolfpack/server/testing';
import { startTestServer, type TestServer } from './harness';
// The ledger is the server's internal service; the e2e config runs workspace sources, so the test
// uses it as the server does instead of writing ledger rows by hand.
import { LedgerService } from '../../server/src/services/billing/ledger-service';

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

export interface StripeTestServer {
  /** The spec's own server, with payments on. */
  readonly server: TestServer;
  /** The fake Stripe it talks to: its Checkout pages, sessions and events. */
  readonly stripe: FakeStripe;
  /** Posts a Stripe event to the server's webhook, signed with the server's secret, as Stripe does. */
  deliver(event: object): Promise<{ status: number }>;
}

/**
 * Registers hooks for a spec file that pays: a fake Stripe and a server of its own that talks to
 * it (the shared server of the run has no Stripe keys). `name` keeps the keys apart per spec.
 * Read `server` and `stripe` inside tests; they exist once `beforeAll` has run.
 */
export function useStripeTestServer(name: string): StripeTestServer {
  const webhookSecret = `whsec_e2e_${name}`;
  let stripe: FakeStripe | undefined;
  let server: TestServer | undefined;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startTestServer({
      env: { STRIPE_SECRET_KEY: `sk_test_e2e_${name}`, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: stripe.url },
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The Stripe test server is not running; use it inside a test.');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get stripe() {
      return started(stripe);
    },
    deliver: (event) => started(stripe).deliver(`${started(server).url}/api/billing/webhook`, event, webhookSecret),
  };
}
