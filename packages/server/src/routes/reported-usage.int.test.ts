/**
 * Engines that report nonsense usage over the wire ("1e6", 0.4, 1e300, -5, a million tokens for a
 * short answer): the run completes, is billed in whole cents within what its calls could use, and
 * what the run says it cost, the ledger and the stop message's balance all agree.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { balanceReply, formatCents, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeAnthropicServer, startFakeOpenAIServer, type AnthropicFakeServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

type Provider = 'openai' | 'anthropic';
type Reported = { inputTokens: unknown; outputTokens: unknown };

/** A priced engine of either wire format that answers like the demo engines and reports `usage`. */
function reportingEngine(provider: Provider, usage: Reported): Promise<OpenAIFakeServer | AnthropicFakeServer> {
  if (provider === 'openai') {
    return startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)], usage }),
    });
  }
  return startFakeAnthropicServer({
    fallback: (request) => {
      // Anthropic's wire keeps the system prompt apart from the messages.
      const body = request.body as { system?: string; messages: ChatMessage[] };
      return { kind: 'stream', deltas: [demoReply([{ role: 'system', content: body.system ?? '' }, ...body.messages])], usage };
    },
  });
}

/** The prompt tokens a call can be counted for at most: its messages' bytes and framing (no images here). */
function promptBound(provider: Provider, body: unknown): number {
  const { system, messages } = body as { system?: string; messages: Array<{ content: string | Array<{ text: string }> }> };
  const texts = messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join('')));
  return [...(provider === 'anthropic' ? [system ?? ''] : []), ...texts].reduce((n, text) => n + Buffer.byteLength(text) + 16, 16);
}

describe.each(testDatabases())('usage engines report, billed on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((c) => c()));
  });

  async function setup(usage: Reported, pricePer1kTokensCents: number, provider: Provider = 'openai') {
    const fake = await reportingEngine(provider, usage);
    cleanup.push(() => fake.close());
    const model = provider === 'openai' ? 'gpt-test' : 'claude-test';
    const env = { WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider, model, baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents }]) };
    const server = await startTestServer(kind, { env });
    cleanup.push(() => server.dispose());
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'spender', password: 'correct-horse' })).status).toBe(201);
    return { fake, server, client };
  }

  const balance = async (client: TestClient) => balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;
  const sqlOf = (server: TestServer) => server.db.orm.em.fork() as unknown as Sql;
  const billedRows = async (server: TestServer) =>
    sqlOf(server).execute<Array<{ input_tokens: number; output_tokens: number; total_tokens: number; billed_cents: number }>>('select input_tokens, output_tokens, total_tokens, billed_cents from engine_usage');
  const ledgerSum = async (server: TestServer) => Number((await sqlOf(server).execute<Array<{ s: string | number }>>('select coalesce(sum(amount_cents), 0) as s from ledger_entries'))[0]!.s);

  async function run(server: TestServer, client: TestClient): Promise<ReceivedEvent[]> {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: [], cycles: 1 }),
    });
    return events;
  }
  const costs = (events: ReceivedEvent[]) => events.flatMap((e) => (e.event.type === 'cost' ? [e.event.spentCents] : []));
  const warnings = (events: ReceivedEvent[]) => events.flatMap((e) => (e.event.type === 'log' && e.event.level === 'warning' ? [e.event.message] : []));

  it.each([
    ['openai', '"1e6"', '1e6'],
    ['openai', '0.4', 0.4],
    ['openai', '1e300', 1e300],
    ['openai', '-5', -5],
    ['anthropic', '"1e6"', '1e6'],
    ['anthropic', '1e300', 1e300],
  ] as const)('%s usage %s: the run completes, billed from each request\'s estimate, said once', async (provider, _label, bad) => {
    const { fake, server, client } = await setup({ inputTokens: bad, outputTokens: bad }, 1, provider);
    const events = await run(server, client);
    expect(events.at(-1)!.event.type).toBe('complete');
    const rows = await billedRows(server);
    expect(rows.length).toBe(fake.requests.length);
    for (const row of rows) {
      expect(Number.isInteger(row.total_tokens) && row.total_tokens > 0).toBe(true);
      expect(row.billed_cents).toBe(Math.ceil(row.total_tokens / 1000));
    }
    const billed = rows.reduce((sum, r) => sum + r.billed_cents, 0);
    // What the run said it cost is what the ledger took.
    expect(costs(events).at(-1)).toBe(billed);
    expect(await balance(client)).toBe(1500 - billed);
    expect(await ledgerSum(server)).toBe(1500 - billed);
    const said = warnings(events).filter((m) => m.includes('not a whole, non-negative number'));
    expect(said).toHaveLength(1);
  });

  it.each(['openai', 'anthropic'] as const)('%s: 1,000,100 tokens for each short call are cut to what it could use; the cost shown, the ledger and the stop message\'s balance agree', async (provider) => {
    // At $2 per 1,000 tokens a million would be $2,000; counted within bounds the run costs more
    // than the $15 a new account has all the same, so it stops for credits, naming the balance.
    const { fake, server, client } = await setup({ inputTokens: 1_000_000, outputTokens: 100 }, 200, provider);
    const events = await run(server, client);
    const last = events.at(-1)!.event;
    const rows = await billedRows(server);
    expect(rows.length).toBeGreaterThan(0);
    // Each prompt counted at its bytes and framing. Calls of a stage run side by side, and one whose
    // hold was refused while it ran is cancelled unbilled: each billed call is one of those sent.
    const sent = fake.requests.map((r) => promptBound(provider, r.body));
    for (const row of rows) expect(sent).toContain(row.input_tokens);
    expect(rows.every((r) => r.output_tokens === 100)).toBe(true);
    const billed = rows.reduce((sum, r) => sum + r.billed_cents, 0);
    const after = await balance(client);
    expect(after).toBe(1500 - billed);
    expect(await ledgerSum(server)).toBe(after);
    expect(costs(events).at(-1)).toBe(billed);
    expect(warnings(events).filter((m) => m.includes('reported 1000100 tokens'))).toHaveLength(1);
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    if (last.type !== 'error') return;
    expect(last.error).toContain(`your balance is ${formatCents(after)}.`);
  });
});
