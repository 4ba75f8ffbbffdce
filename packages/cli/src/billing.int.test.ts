/**
 * `wolfpack balance`, `usage`, `topup` and a build that runs out of credits, from the built binary
 * against real servers: one with the free demo engines and no Stripe keys, one with a priced
 * OpenAI-compatible engine (a local fake speaking the real wire format) and a fake Stripe driven
 * through the real `stripe` SDK, so credits are bought the way a person buys them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { balanceReply, formatCents, PAYMENTS_NOT_CONFIGURED, runInfoReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { startFakeStripe, type FakeStripe } from '@wolfpack/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_PAYMENT_REQUIRED } from './exit-code.js';
import { apiGet, loginCli, parseJsonLines, runCli, startTestServer, storedToken, type CliResult, type RunOptions, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';
const STRIPE_KEY = 'sk_test_wolfpack_cli_0123456789';
const WEBHOOK_SECRET = 'whsec_wolfpack_cli_test';
const ROLES = ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code'];
/** The priced engine's cents per 1,000 tokens. */
const PRICE = 220;
const ESTIMATE_LINE = /^Estimated cost: \$\d+\.\d\d–\$\d+\.\d\d \(from a typical plan's size at the engines' prices\)\.$/m;

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-billing-'));
});
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

/** A CLI logged in to `server` as a new user, with its own config file. */
async function newUser(server: TestServer, username: string) {
  const env = { HOME: home, WOLFPACK_CONFIG: join(home, `${username}.json`) };
  await loginCli(server.url, username, PASSWORD, env);
  const wolfpack = (args: string[], options: RunOptions = {}): Promise<CliResult> =>
    runCli(args, { ...options, env: { ...env, WOLFPACK_URL: server.url, ...options.env } });
  const token = await storedToken(env.WOLFPACK_CONFIG, server.url);
  const balanceCents = async () => balanceReply.parse(await apiGet(server.url, token, '/api/billing/balance')).balanceCents;
  return { wolfpack, token, balanceCents };
}

function json<T = Record<string, unknown>>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** The first day of next month (UTC), as the monthly grant resets. */
function nextMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

interface UsageRow {
  id: string;
  role: string;
  totalTokens: number;
  createdAt: string;
  billedDollars: string;
}

describe('with the demo engines and no Stripe keys', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    user = await newUser(server, 'saver');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('balance: a new account has $15.00 (welcome bonus + this month’s grant), in sentences and as JSON', async () => {
    const shown = await user.wolfpack(['balance']);
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toBe('Balance        $15.00');
    expect(lines[1]).toBe(`Monthly grant  $5.00 of free credits, renewed on ${nextMonth().slice(0, 10)} (UTC)`);
    expect(lines[2]).toBe('Referrals      0, earned $0.00');
    expect(lines[3]).toMatch(/^Referral code  WP[A-Z0-9]{6}$/);
    expect(shown.stdout).not.toContain('Low balance');
    expect(shown.stderr).toBe('');

    const data = json(await user.wolfpack(['balance', '--json']));
    expect(data).toEqual({
      balanceCents: 1500,
      balanceDollars: '15.00',
      monthlyGrantDollars: '5.00',
      grantResetDate: nextMonth(),
      referralEarningsDollars: '0.00',
      totalReferrals: 0,
      referralCode: expect.stringMatching(/^WP[A-Z0-9]{6}$/),
      lowBalance: false,
    });
  });

  it('usage: nothing before a build; after one, each engine call with its stage, tokens and $0.00', async () => {
    expect(await user.wolfpack(['usage'])).toEqual({ code: 0, stdout: 'No engine usage yet. Build something with `wolfpack build "IDEA"`.\n', stderr: '' });
    expect(json(await user.wolfpack(['usage', '--json']))).toEqual({ history: [] });

    const build = await user.wolfpack(['build', 'a habit tracker', '--json']);
    expect(build.code, build.stderr).toBe(0);

    const { history } = json<{ history: UsageRow[] }>(await user.wolfpack(['usage', '--json', '--limit', '100']));
    expect(history.length).toBeGreaterThanOrEqual(5);
    expect(history.map((row) => row.role)).toEqual(expect.arrayContaining(['Planning', 'Building']));
    for (const row of history) expect(ROLES).toContain(row.role);
    for (const row of history) {
      expect(row.billedDollars).toBe('0.00');
      expect(row.totalTokens).toBeGreaterThan(0);
    }
    // Newest first, as the server lists them.
    expect(history.map((row) => Number(row.id))).toEqual(history.map((row) => Number(row.id)).sort((a, b) => b - a));

    const table = await user.wolfpack(['usage']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DATE\s+ROLE\s+TOKENS\s+BILLED$/);
    const rows = lines.slice(1, -2);
    expect(rows).toHaveLength(Math.min(10, history.length));
    for (const row of rows) expect(row).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d  (Planning|Building|Checking|Polishing|Proven Code)\s+[\d,]+\s+\$0\.00$/);
    expect(lines.at(-1)).toBe(`${rows.length} calls shown, $0.00 billed.`);

    const two = json<{ history: UsageRow[] }>(await user.wolfpack(['usage', '-n', '2', '--json']));
    expect(two.history).toEqual(history.slice(0, 2));
    // Demo engines are free: the balance did not move.
    expect(await user.balanceCents()).toBe(1500);
  });

  it('usage --limit outside 1..100 is a usage error', async () => {
    for (const limit of ['0', '101', 'ten']) {
      const result = await user.wolfpack(['usage', '--limit', limit]);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `wolfpack: Option '-n, --limit <n>' argument '${limit}' is invalid. Use a whole number from 1 to 100. See \`wolfpack --help\`.\n`,
      });
    }
  });

  it('topup: without Stripe keys the server’s sentence and exit 1; an amount that is not a pack is exit 2', async () => {
    expect(await user.wolfpack(['topup', '25'])).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${PAYMENTS_NOT_CONFIGURED}\n` });
    expect(await user.wolfpack(['topup', '$10', '--json'])).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${PAYMENTS_NOT_CONFIGURED}\n` });
    for (const amount of ['7', '$30', '25.5']) {
      expect(await user.wolfpack(['topup', amount])).toEqual({
        code: 2,
        stdout: '',
        stderr: `wolfpack: "${amount}" is not a credit pack. Choose $10, $25, $50 or $100: wolfpack topup 25\n`,
      });
    }
  });

  it('needs a login', async () => {
    for (const args of [['balance'], ['usage'], ['topup', '10']]) {
      const result = await runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'nobody.json'), WOLFPACK_URL: server.url } });
      expect(result).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n` });
    }
  });
});

describe('with a priced engine and Stripe', () => {
  let engine: OpenAIFakeServer;
  let stripe: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    // Answers like the demo engines, so a run can complete; billed $2.20 per 1,000 tokens, at which a
    // whole run costs more than a new account's $15: its balance runs out partway (the
    // calls it can pay for still run, each with the output cap the balance pays).
    engine = await startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }),
    });
    stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
    server = await startTestServer({
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: PRICE }]),
        STRIPE_SECRET_KEY: STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    await engine?.close();
  });

  /** What Stripe does once the person pays on the checkout page: the session completes, the webhook arrives. */
  async function pay(checkoutUrl: string): Promise<void> {
    const session = stripe.sessionByUrl(checkoutUrl);
    expect(session, `${checkoutUrl} is a session the fake Stripe created`).toBeDefined();
    const delivered = await stripe.deliver(`${server.url}/api/billing/webhook`, stripe.completeSession(session!.id), WEBHOOK_SECRET);
    expect(delivered.status).toBe(200);
  }

  it('topup prints the checkout URL alone on stdout (--json: with the pack), and paying it adds the credits', async () => {
    const user = await newUser(server, 'buyer');
    const shown = await user.wolfpack(['topup', '$25']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_\w+\n$/);
    expect(shown.stderr).toBe('Buy the $25 pack ($25.00 of credits plus a $0.50 bonus) on this Stripe Checkout page; the credits arrive once the payment goes through:\n');
    expect(stripe.sessionByUrl(shown.stdout.trim())).toMatchObject({ amount_total: 2500, currency: 'usd', status: 'open' });

    const data = json<{ amountDollars: number; bonusDollars: string; checkoutUrl: string }>(await user.wolfpack(['topup', '10', '--json']));
    expect(data).toEqual({ amountDollars: 10, bonusDollars: '0.00', checkoutUrl: expect.stringMatching(/\/c\/pay\/cs_\w+$/) });
    expect(data.checkoutUrl).not.toBe(shown.stdout.trim());

    expect(await user.balanceCents()).toBe(1500);
    await pay(shown.stdout.trim());
    expect(await user.balanceCents()).toBe(1500 + 2500 + 50);
    expect(json(await user.wolfpack(['balance', '--json']))).toMatchObject({ balanceCents: 4050, balanceDollars: '40.50', lowBalance: false });
  });

  it('a build that runs out of credits exits 4 and says how to resume; after a top-up, attach finishes it', async () => {
    const user = await newUser(server, 'builder');
    const build = await user.wolfpack(['build', 'a habit tracker', '--json']);
    expect(build.code, build.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    const events = parseJsonLines<{ eventId: number; type: string; [key: string]: unknown }>(build.stdout);
    const runId = events[0]!['runId'] as string;
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    expect(last['error']).toMatch(/^Not enough credits: this stage needs about \$\d+\.\d\d and your balance is \$\d+\.\d\d\. Add credits in Settings\.$/);
    // The sentence on stderr, then how to go on.
    expect(build.stderr).toContain(
      `wolfpack: ${String(last['error'])} The run is paused; once credits are in (\`wolfpack topup 25\` prints a checkout link), resume it with: wolfpack attach ${runId}\n`,
    );
    // Before the run, what it would probably cost: a line for people, a field of the run's first JSON line.
    expect(build.stderr).toMatch(ESTIMATE_LINE);
    expect(events[0]).toMatchObject({ eventId: 1, type: 'run', estimate: { basis: 'plan size and engine prices', pastRuns: 0, engines: [{ key: 'alpha', pricePer1kTokensCents: PRICE }] } });
    const run = runInfoReply.parse(await apiGet(server.url, user.token, `/api/wolfpack/runs/${runId}`)).run;
    expect(run.status).toBe('interrupted');

    // The stages before the one it could not pay for ran, billed at the engine's price; the balance never went below zero.
    const { history } = json<{ history: UsageRow[] }>(await user.wolfpack(['usage', '--json', '--limit', '100']));
    expect(history.map((row) => row.role)).toContain('Planning');
    for (const row of history) expect(Math.round(Number(row.billedDollars) * 100)).toBeLessThanOrEqual(Math.ceil((row.totalTokens * PRICE) / 1000));
    const spent = history.reduce((sum, row) => sum + Math.round(Number(row.billedDollars) * 100), 0);
    expect(spent).toBeGreaterThan(0);
    expect(await user.balanceCents()).toBe(1500 - spent);
    // What the run cost so far came with the events, up to what it was billed.
    const costs = events.flatMap((event) => (event.type === 'cost' ? [event['spentCents'] as number] : []));
    expect(costs.length).toBeGreaterThan(0);
    expect(costs.at(-1)).toBe(spent);
    // The stop sentence names the balance as it is once the stopped stage's holds are back.
    expect(last['error']).toContain(`your balance is ${formatCents(1500 - spent)}.`);

    // Without credits, attaching resumes the run, which pauses again at once: still exit 4.
    const again = await user.wolfpack(['attach', runId]);
    expect(again.code, again.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    expect(again.stderr).toMatch(/^wolfpack: Not enough credits: .* resume it with: wolfpack attach [0-9a-f-]{36}\n$/m);
    expect(await user.balanceCents()).toBe(1500 - spent);

    const topup = await user.wolfpack(['topup', '100']);
    expect(topup.code, topup.stderr).toBe(0);
    await pay(topup.stdout.trim());
    expect(await user.balanceCents()).toBe(1500 - spent + 10_000 + 400);

    // The stored events end with the pause; attach replays it as history and follows the run to the end.
    const attached = await user.wolfpack(['attach', runId, '--json'], { timeoutMs: 60_000 });
    expect(attached.code, attached.stderr).toBe(0);
    const all = parseJsonLines<{ eventId: number; type: string; [key: string]: unknown }>(attached.stdout);
    expect(all.map((event) => event.eventId)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((event) => event.type === 'error')).toHaveLength(2);
    expect(all.at(-1)!.type).toBe('complete');
    expect(attached.stderr).toContain('Proven Code:');

    const after = json<{ history: UsageRow[] }>(await user.wolfpack(['usage', '--json', '--limit', '100'])).history;
    expect(after.map((row) => row.role)).toEqual(expect.arrayContaining(['Planning', 'Building']));
    for (const row of after) expect(ROLES).toContain(row.role);
    // The work done before the pause was kept: Planning ran once.
    expect(after.filter((row) => row.role === 'Planning')).toHaveLength(1);
    const billed = after.reduce((sum, row) => sum + Math.round(Number(row.billedDollars) * 100), 0);
    expect(await user.balanceCents()).toBe(1500 + 10_000 + 400 - billed);
    expect(all.flatMap((event) => (event.type === 'cost' ? [event['spentCents']] : [])).at(-1)).toBe(billed);
  }, 120_000);

  it('a build the balance pays for shows the estimate before it starts and what it cost so far as it goes', async () => {
    const user = await newUser(server, 'watcher');
    const topup = await user.wolfpack(['topup', '100']);
    await pay(topup.stdout.trim());
    const before = await user.balanceCents();
    const build = await user.wolfpack(['build', 'a habit tracker'], { timeoutMs: 60_000 });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toMatch(ESTIMATE_LINE);
    const lines = build.stdout.split('\n');
    // One line per charge, each with the run's total so far.
    const costs = lines.flatMap((line) => /^\[cost\] \$(\d+\.\d\d) so far$/.exec(line)?.slice(1) ?? []).map((d) => Math.round(Number(d) * 100));
    expect(costs.length).toBeGreaterThan(1);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(costs.at(-1)).toBe(before - (await user.balanceCents()));
    // The estimate's range holds what the run cost.
    const [low, high] = /Estimated cost: \$(\d+\.\d\d)–\$(\d+\.\d\d)/.exec(build.stderr)!.slice(1).map((d) => Math.round(Number(d) * 100));
    expect(low).toBeLessThanOrEqual(costs.at(-1)!);
    expect(high).toBeGreaterThanOrEqual(costs.at(-1)!);
  }, 120_000);

  it('build --max-cost stops the run at its own limit: exit 4, and no resume hint', async () => {
    const user = await newUser(server, 'capped');
    const build = await user.wolfpack(['build', 'a habit tracker', '--max-cost', '1']);
    expect(build.code, build.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    expect(build.stderr).toMatch(
      /^wolfpack: Cost limit reached: this stage needs about \$\d+\.\d\d and only \$\d+\.\d\d of this run's \$0\.01 limit is left\. The run stopped at its --max-cost limit; build again with a higher --max-cost to go further\.\n$/m,
    );
    expect(await user.balanceCents()).toBe(1500);
  });
});
