import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { startTestServer, type DatabaseKind, type TestServer } from './test-server.js';

/** The keys a paid test server and its fake Stripe agree on (test values, never real ones). */
export const TEST_STRIPE_KEY = 'sk_test_wolfpack_0123456789';
export const TEST_WEBHOOK_SECRET = 'whsec_wolfpack_test_secret';

export interface PaidTestServer {
  server: TestServer;
  fake: FakeStripe;
  /** Delivers a Stripe event to the server's webhook, signed with the server's secret. */
  deliver(event: object): Promise<{ status: number; json: unknown }>;
  dispose(): Promise<void>;
}

/** A real server with payments on, talking to a fake Stripe that speaks Stripe's wire format. */
export async function startPaidTestServer(kind: DatabaseKind, options: Parameters<typeof startTestServer>[1] = {}): Promise<PaidTestServer> {
  const fake = await startFakeStripe();
  const server = await startTestServer(kind, {
    ...options,
    env: { STRIPE_SECRET_KEY: TEST_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, ...options.env },
  });
  return {
    server,
    fake,
    deliver: (event) => fake.deliver(`${server.url}/api/billing/webhook`, event, TEST_WEBHOOK_SECRET),
    async dispose() {
      await server.dispose();
      await fake.close();
    },
  };
}
