import { afterEach, describe, expect, it } from 'vitest';
import {
  billingHistoryReply,
  balanceReply,
  decodeEventStream,
  enhancementEvent,
  inputTokensEstimate,
  MAX_OUTPUT_TOKENS_PER_CALL,
  MIN_USEFUL_OUTPUT_TOKENS,
  runEstimateReply,
  tokensWithin,
  type ChatMessage,
  type EnhancementEvent,
} from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { messageChars } from '@wolfpack/core/pipeline';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { LedgerService } from '../services/billing/ledger-service.js';
import { TestClient } from '../testing/http-client.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const systemOf = (body: unknown) => ((body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'system')?.content as string) ?? '';

interface EngineOptions {
  brokenAppJs?: boolean;
  /** Changes how a request is answered (by its system prompt): a delay, or the usage it reports, say. */
  answer?: (system: string) => { headersDelayMs?: number; headersAfter?: PromiseLike<unknown>; usage?: { inputTokens: number; outputTokens: number } } | { status: number } | undefined;
}

/** A priced OpenAI-compatible engine that answers like the demo engines (optionally breaking app.js). */
async function pricedEngine(options: EngineOptions = {}): Promise<OpenAIFakeServer> {
  return startFakeOpenAIServer({
    fallback: (request) => {
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      const instead = options.answer?.(systemOf(request.body));
      if (instead && 'status' in instead) return { kind: 'error', status: instead.status, body: { error: { message: 'Invalid request.', type: 'invalid_request_error' } } };
      let text = demoReply(messages);
      // A defect no repair fixes: the engine keeps writing the same syntax error.
      if (options.brokenAppJs) text = text.replaceAll('```js app.js\n', '```js app.js\nconst = ;\n');
      return { kind: 'stream', deltas: [text], ...instead };
    },
  });
}

function engineEnv(fake: OpenAIFakeServer, pricePer1kTokensCents: number): Record<string, string> {
  return {
    WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents }]),
  };
}

describe.each(testDatabases())('credits and spend guardrails on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((c) => c()));
  });

  async function setup(price: number, options: EngineOptions = {}) {
    const fake = await pricedEngine(options);
    cleanup.push(() => fake.close());
    const server = await startTestServer(kind, { env: engineEnv(fake, price) });
    cleanup.push(() => server.dispose());
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'spender', password: 'correct-horse' })).status).toBe(201);
    return { fake, server, client };
  }

  const balance = async (client: TestClient) => balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;

  async function run(server: TestServer, client: TestClient, body: Record<string, unknown>): Promise<ReceivedEvent[]> {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: [], cycles: 1, ...body }),
    });
    return events;
  }

  const sqlOf = (server: TestServer) => server.db.orm.em.fork() as unknown as Sql;
  const spenderId = async (server: TestServer) => (await sqlOf(server).execute<Array<{ id: string }>>(`select id from users where username = 'spender'`))[0]!.id;
  const ledgerSum = async (server: TestServer, userId: string) =>
    Number((await sqlOf(server).execute<Array<{ s: string | number }>>('select coalesce(sum(amount_cents), 0) as s from ledger_entries where user_id = ?', [userId]))[0]!.s);

  async function openHolds(server: TestServer): Promise<number> {
    const rows = await sqlOf(server).execute<Array<{ n: string | number }>>(`select count(*) as n from holds where status = 'open'`);
    return Number(rows[0]!.n);
  }

  it('charges each call at the engine price, rounded up per call, and the ledger adds up', async () => {
    const { server, client } = await setup(1);
    expect(await balance(client)).toBe(1500);
    const events = await run(server, client, {});
    expect(events.at(-1)!.event.type).toBe('complete');
    const after = await balance(client);
    const history = billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history;
    expect(history.length).toBeGreaterThanOrEqual(5);
    for (const item of history) expect(item.billedDollars).toBe(Math.ceil(item.totalTokens / 1000) / 100);
    const billedCents = history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
    expect(billedCents).toBeGreaterThan(0);
    expect(after).toBe(1500 - billedCents);
    expect(await openHolds(server)).toBe(0);
    // Only stages that called an engine held anything: Checking found nothing to fix and Proven
    // Code passed, so positions 2 and 4 took no hold (and left no entries in the ledger).
    const holds = await sqlOf(server).execute<Array<{ id: string }>>('select id from holds order by created_at');
    expect(holds.map((h) => h.id.split(':').at(-2))).toEqual(['0', '1', '3']);
    // Paging: newest first, `before` continues after the last id.
    const first = billingHistoryReply.parse((await client.get('/api/billing/history?limit=2')).json).history;
    const next = billingHistoryReply.parse((await client.get(`/api/billing/history?limit=2&before=${first[1]!.id}`)).json).history;
    expect(next[0]!.id).toBe(history[2]!.id);
    expect((await client.get('/api/billing/history?limit=0')).status).toBe(400);
    const ledger = (await client.get('/api/billing/ledger?limit=100')).json as { entries: Array<{ balanceAfterCents: number }> };
    expect(ledger.entries[0]!.balanceAfterCents).toBe(after);
  });

  const billedOf = async (client: TestClient) =>
    billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
  const costEvents = (events: ReceivedEvent[]) => events.flatMap((e) => (e.event.type === 'cost' ? [e.event.spentCents] : []));
  const stagesOf = (events: ReceivedEvent[]) => events.flatMap((e) => (e.event.type === 'stage' ? [`${e.event.role}:${e.event.ok}`] : []));
  const estimate = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const reply = await client.post('/api/wolfpack/estimate', { idea: 'A habit tracker', modelOrder: [], cycles: 1, ...body });
    expect(reply.status).toBe(200);
    return runEstimateReply.parse(reply.json);
  };

  it('a new account completes a build whose real cost is well under $1 at 10 c/1k (each call holds what it may cost; holding the worst case of all of Building would ask $28)', async () => {
    const { fake, server, client } = await setup(10);
    // Before the run: a range from a typical plan's size at this engine's price.
    const before = await estimate(client);
    expect(before).toMatchObject({ basis: 'plan size and engine prices', pastRuns: 0, engines: [{ key: 'alpha', pricePer1kTokensCents: 10 }] });
    expect(before.lowDollars).toMatch(/^\d+\.\d\d$/);
    const events = await run(server, client, {});
    expect(events.at(-1)!.event.type).toBe('complete');
    const billed = await billedOf(client);
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan(100);
    expect(before.lowCents).toBeLessThanOrEqual(billed);
    expect(before.highCents).toBeGreaterThanOrEqual(billed);
    expect(await balance(client)).toBe(1500 - billed);
    expect(await openHolds(server)).toBe(0);
    expect(await ledgerSum(server, await spenderId(server))).toBe(1500 - billed);
    // Each call held about a dollar, which the balance covers: none was cut short.
    expect(fake.requests.map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual(fake.requests.map(() => MAX_OUTPUT_TOKENS_PER_CALL));
    // What the run cost so far, after every call, up to what it was billed.
    const costs = costEvents(events);
    expect(costs).toHaveLength(fake.requests.length);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(costs.at(-1)).toBe(billed);
  });

  it('cuts each call\'s max_tokens to what the balance pays at the engine\'s price, and stops when not even the useful minimum fits; the work done is kept, and a top-up then resume finishes it', async () => {
    // At $2.20 per 1,000 tokens a full call (about 10,000 tokens) costs $22, more than the $15 a new
    // account has; the run costs about $10 in all, so its balance runs out at Polishing.
    const { fake, server, client } = await setup(220);
    const userId = await spenderId(server);
    const events = await run(server, client, {});
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    if (last.type !== 'error') return;
    expect(last.error).toMatch(/^Not enough credits: this stage needs about \$\d+\.\d\d and your balance is \$\d+\.\d\d\. Add credits in Settings\.$/);
    // Planning, Building and Checking finished; Polishing's call could not be paid.
    expect(stagesOf(events)).toEqual(['Planning:false', 'Planning:true', 'Building:false', 'Building:true', 'Checking:false', 'Checking:true', 'Polishing:false']);
    const body = (i: number) => fake.requests[i]!.body as { messages: ChatMessage[]; max_tokens: number };
    // Planning held the whole balance: its cap is what $15 pays, less its input.
    expect(body(0).max_tokens).toBe(tokensWithin(1500, 220) - inputTokensEstimate(messageChars(body(0).messages)));
    for (const [i] of fake.requests.entries()) {
      expect(body(i).max_tokens).toBeLessThan(MAX_OUTPUT_TOKENS_PER_CALL);
      expect(body(i).max_tokens).toBeGreaterThanOrEqual(MIN_USEFUL_OUTPUT_TOKENS);
    }
    expect(fake.requests).toHaveLength(5);
    // Never below zero, and the ledger adds up.
    const rows = await sqlOf(server).execute<Array<{ after: string | number }>>('select balance_after_cents as after from ledger_entries where user_id = ?', [userId]);
    expect(rows.every((r) => Number(r.after) >= 0)).toBe(true);
    const stranded = await balance(client);
    expect(stranded).toBe(1500 - (await billedOf(client)));
    expect(await ledgerSum(server, userId)).toBe(stranded);
    expect(await openHolds(server)).toBe(0);
    const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
    expect((await client.get(`/api/wolfpack/runs/${runId}`)).json).toMatchObject({ run: { status: 'interrupted' } });

    // A top-up, then resume: Polishing and Proven Code only, the earlier stages kept.
    await new LedgerService(server.db.orm).post(userId, { kind: 'top_up', amountCents: 2000, reference: 'test-top-up-220' });
    expect((await client.post(`/api/wolfpack/runs/${runId}/resume`, {})).status).toBeLessThan(300);
    const { events: rest } = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader(), 'last-event-id': String(events.at(-1)!.id) } });
    expect(rest.at(-1)!.event.type).toBe('complete');
    expect(fake.requests.slice(5).map((r) => systemOf(r.body)).filter((s) => /Planning engine|Building engine/.test(s))).toEqual([]);
    const billed = await billedOf(client);
    expect(await balance(client)).toBe(1500 + 2000 - billed);
    expect(await ledgerSum(server, userId)).toBe(1500 + 2000 - billed);
    // The cost so far picks up where the first attempt left it.
    const costs = costEvents(rest);
    expect(costs[0]).toBeGreaterThan(costEvents(events).at(-1)!);
    expect(costs.at(-1)).toBe(billed);
  });

  it('50 concurrent runs of one user never take the balance below zero, and the ledger adds up to the wallet', async () => {
    // At 10 c/1k a run costs about 50 cents: the $15 pays for some of the 50, not all.
    const { server, client } = await setup(10);
    const userId = await spenderId(server);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => run(server, client, { idea: `A habit tracker number ${i}` })));
    const ends = outcomes.map((events) => events.at(-1)!.event);
    const completed = ends.filter((e) => e.type === 'complete').length;
    const stopped = ends.filter((e) => e.type === 'error' && e.code === 'PAYMENT_REQUIRED').length;
    expect(completed + stopped).toBe(50);
    expect(completed).toBeGreaterThan(0);
    expect(stopped).toBeGreaterThan(0);
    const rows = await sqlOf(server).execute<Array<{ after: string | number }>>('select balance_after_cents as after from ledger_entries where user_id = ?', [userId]);
    expect(rows.every((r) => Number(r.after) >= 0)).toBe(true);
    const wallet = await balance(client);
    expect(wallet).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(server, userId)).toBe(wallet);
    expect(await openHolds(server)).toBe(0);
    const billed = Number((await sqlOf(server).execute<Array<{ s: string | number }>>('select coalesce(sum(billed_cents), 0) as s from engine_usage where user_id = ?', [userId]))[0]!.s);
    expect(wallet).toBe(1500 - billed);
    // 50 whole runs at once: on a machine busy with other suites they take far longer than one.
  }, 180_000);

  it('estimates a run from the user\'s past runs once there are three: their median and 90th percentile at today\'s prices', async () => {
    const { server, client } = await setup(10);
    for (const idea of ['A habit tracker', 'A reading list', 'A recipe box']) expect((await run(server, client, { idea })).at(-1)!.event.type).toBe('complete');
    const costs = await sqlOf(server).execute<Array<{ c: string | number }>>(
      `select sum(billed_cents) as c from engine_usage where user_id = ? group by conversation_id order by c`,
      [await spenderId(server)],
    );
    const [cheapest, median, dearest] = costs.map((r) => Number(r.c));
    const reply = await estimate(client);
    expect(reply).toMatchObject({ basis: 'your past runs', pastRuns: 3 });
    // Repriced per stage rather than per call: within a few cents of what the runs were billed.
    expect(Math.abs(reply.lowCents - median!)).toBeLessThanOrEqual(5);
    expect(Math.abs(reply.highCents - dearest!)).toBeLessThanOrEqual(5);
    expect(reply.lowCents).toBeGreaterThanOrEqual(cheapest! - 5);
    expect(reply.lowDollars).toBe(`0.${String(reply.lowCents).padStart(2, '0')}`);
    // Two cycles: twice what a run of one cost.
    const twice = await estimate(client, { cycles: 2 });
    expect(twice.lowCents).toBeGreaterThanOrEqual(2 * reply.lowCents - 10);
    // A body a run could not start with is refused the same way.
    expect((await client.post('/api/wolfpack/estimate', { idea: '' })).status).toBe(400);
    expect((await client.post('/api/wolfpack/estimate', { idea: 'x', modelOrder: ['nope'] })).status).toBe(400);
  });

  it('stops a stage it cannot reserve before its first engine call, and resumes after a top-up', async () => {
    // At $5 per 1,000 tokens a new account's $15 pays Planning (held at the output cap the balance
    // allows), but not the useful minimum of Building's first call (about 3,000 tokens in and out).
    const { fake, server, client } = await setup(500);
    const events = await run(server, client, {});
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    if (last.type !== 'error') return;
    expect(last.error).toMatch(/^Not enough credits: this stage needs about \$\d+\.\d\d and your balance is \$\d+\.\d\d\. Add credits in Settings\.$/);
    const stages = events.flatMap((e) => (e.event.type === 'stage' ? [`${e.event.role}:${e.event.ok}`] : []));
    // Building started, and stopped at its first call: its hold could not be taken.
    expect(stages).toEqual(['Planning:false', 'Planning:true', 'Building:false']);
    expect(fake.requests.map((r) => systemOf(r.body)).filter((s) => /Planning engine/.test(s))).toHaveLength(1);
    const callsBefore = fake.requests.length;
    expect(callsBefore).toBe(1);
    const stranded = await balance(client);
    expect(stranded).toBeLessThan(1500);
    expect(await openHolds(server)).toBe(0);
    const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
    expect((await client.get(`/api/wolfpack/runs/${runId}`)).json).toMatchObject({ run: { status: 'interrupted' } });

    // A top-up lands (as the Stripe webhook would post it), then the run goes on from Building.
    await new LedgerService(server.db.orm).post(await spenderId(server), { kind: 'top_up', amountCents: 10_000, reference: 'test-top-up' });
    expect((await client.post(`/api/wolfpack/runs/${runId}/resume`, {})).status).toBeLessThan(300);
    const { events: rest } = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader(), 'last-event-id': String(events.at(-1)!.id) } });
    expect(rest.at(-1)!.event.type).toBe('complete');
    expect(fake.requests.slice(callsBefore).some((r) => /Planning engine/.test(systemOf(r.body)))).toBe(false);
    const history = billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history;
    const billed = history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
    expect(await balance(client)).toBe(1500 + 10_000 - billed);
  });

  it('a stage whose hold fits only once the stage before it has settled still runs', async () => {
    // Stages settle behind the pipeline, so the next stage reserves while the last one's hold still
    // counts in full. A balance that is short only because of that must not stop the run.
    const { server, client } = await setup(15);
    const sql = sqlOf(server);
    const userId = await spenderId(server);
    // What Planning and Building hold, and what Planning really costs, read off a first run.
    await new LedgerService(server.db.orm).post(userId, { kind: 'top_up', amountCents: 100_000, reference: 'test-first-top-up' });
    const first = await run(server, client, {});
    expect(first.at(-1)!.event.type).toBe('complete');
    const holds = await sql.execute<Array<{ id: string; amount_cents: string | number }>>(`select id, amount_cents from holds where user_id = ? order by created_at`, [userId]);
    const held = (position: number) => Number(holds.find((h) => h.id.endsWith(`:${position}:0`))!.amount_cents);
    const planningHold = held(0);
    const buildingHold = held(1);
    const charged = await sql.execute<Array<{ cents: string | number }>>(
      `select coalesce(sum(billed_cents), 0) as cents from engine_usage where user_id = ? and stage = 'Planning'`,
      [userId],
    );
    const planningCost = Number(charged[0]!.cents);
    expect(planningCost).toBeLessThan(planningHold);
    // Enough for Building once Planning is settled, one cent short while its hold still counts.
    const target = planningHold + buildingHold - 1;
    await new LedgerService(server.db.orm).post(userId, { kind: 'adjustment', amountCents: target - (await balance(client)), reference: 'test-adjust' });
    expect(await balance(client)).toBe(target);
    const events = await run(server, client, { idea: 'A reading list' });
    const stages = events.flatMap((e) => (e.event.type === 'stage' && e.event.ok ? [e.event.role] : []));
    expect(stages.slice(0, 2)).toEqual(['Planning', 'Building']);
    expect(await openHolds(server)).toBe(0);
  });

  it('a later stage holds while its engines work; spent elsewhere meanwhile, the hold is refused, its calls are cancelled uncharged, and the run stops for credits', async () => {
    // The balance is spent elsewhere while Planning works: the run still believes what its first
    // hold left, so Building's calls go out at once, and its hold is refused. They would answer
    // only after ten minutes, long past the test's timeout: the run can stop in time only by
    // cancelling them.
    let drained: Promise<unknown> | undefined;
    let userId = '';
    let ledger!: LedgerService;
    const { fake, server, client } = await setup(1, {
      answer: (system) => {
        if (/Planning engine/.test(system)) {
          drained ??= ledger.balance(userId).then(({ balanceCents }) => ledger.post(userId, { kind: 'adjustment', amountCents: -balanceCents, reference: 'test-spent-elsewhere' }));
          // Planning uses all it held (more, as reported; it is billed what it held), so its
          // settlement gives nothing back: the balance stays spent, and asked again on the wait,
          // Building's calls get nothing. It answers once the balance is spent, however slowly a
          // busy machine spends it.
          return { headersDelayMs: 200, headersAfter: drained, usage: { inputTokens: 50_000, outputTokens: 50_000 } };
        }
        return /Building engine/.test(system) ? { headersDelayMs: 600_000 } : undefined;
      },
    });
    const sql = sqlOf(server);
    userId = await spenderId(server);
    ledger = new LedgerService(server.db.orm);
    await ledger.post(userId, { kind: 'top_up', amountCents: 100_000, reference: 'test-top-up' });
    const events = await run(server, client, {});
    expect(events.at(-1)!.event).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    const stages = events.flatMap((e) => (e.event.type === 'stage' ? [`${e.event.role}:${e.event.ok}`] : []));
    expect(stages).toEqual(['Planning:false', 'Planning:true', 'Building:false']);
    // Building's calls were sent before its hold was taken, and every one was cancelled.
    const building = fake.requests.filter((r) => /Building engine/.test(systemOf(r.body)));
    expect(building.length).toBeGreaterThan(0);
    await expect.poll(() => building.every((r) => r.clientClosedEarly)).toBe(true);
    // Charged for Planning only, nothing held, and the ledger adds up to the wallet.
    const usage = await sql.execute<Array<{ stage: string }>>('select stage from engine_usage where user_id = ?', [userId]);
    expect(usage.map((u) => u.stage)).toEqual(['Planning']);
    expect(await openHolds(server)).toBe(0);
    expect(await ledgerSum(server, userId)).toBe(await balance(client));
    const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
    expect((await client.get(`/api/wolfpack/runs/${runId}`)).json).toMatchObject({ run: { status: 'interrupted' } });
  });

  it('a later stage whose engines fail while its hold is being taken leaves no hold open, and charges only what was used', async () => {
    const { server, client } = await setup(1, { answer: (system) => (/Building engine/.test(system) ? { status: 400 } : undefined) });
    const sql = sqlOf(server);
    const userId = await spenderId(server);
    await new LedgerService(server.db.orm).post(userId, { kind: 'top_up', amountCents: 100_000, reference: 'test-top-up' });
    const events = await run(server, client, {});
    expect(events.at(-1)!.event).toMatchObject({ type: 'error', code: 'BAD_GATEWAY' });
    expect(await openHolds(server)).toBe(0);
    // Building's hold was taken, then given back whole: only Planning's call is charged.
    const holds = await sql.execute<Array<{ id: string }>>('select id from holds where user_id = ? order by created_at', [userId]);
    expect(holds.map((h) => h.id.split(':').at(-2))).toEqual(['0', '1']);
    const usage = await sql.execute<Array<{ stage: string; billed: string | number }>>('select stage, billed_cents as billed from engine_usage where user_id = ?', [userId]);
    expect(usage.map((u) => u.stage)).toEqual(['Planning']);
    expect(await balance(client)).toBe(1500 + 100_000 - Number(usage[0]!.billed));
    expect(await ledgerSum(server, userId)).toBe(await balance(client));
  });

  it('never plans to spend past maxCostCents', async () => {
    // At 20 c/1k the run costs about $1: its 60-cent limit pays Planning (cut to the limit), not
    // the useful minimum of a Building call with what is left of it. (At 1 c/1k the whole run costs
    // 6 cents, which fits.)
    const { fake, server, client } = await setup(20);
    const events = await run(server, client, { maxCostCents: 60 });
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    if (last.type === 'error') expect(last.error).toMatch(/^Cost limit reached/);
    const history = billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history;
    const billed = history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
    expect(billed).toBeLessThanOrEqual(60);
    expect(fake.requests.length).toBe(history.length);
    // Planning's call was cut to what the limit pays, input included.
    const planning = fake.requests[0]!.body as { messages: ChatMessage[]; max_tokens: number };
    expect(planning.max_tokens).toBe(tokensWithin(60, 20) - inputTokensEstimate(messageChars(planning.messages)));
    expect((await client.post('/api/wolfpack/stream', { idea: 'x', maxCostCents: -1 })).status).toBe(400);
  });

  it('refunds the repair rounds when the Proven Code gate still fails', async () => {
    const { server, client } = await setup(1, { brokenAppJs: true });
    const events = await run(server, client, {});
    const last = events.at(-1)!.event;
    expect(last.type).toBe('complete');
    if (last.type !== 'complete') return;
    expect(last.verification?.passed).toBe(false);
    const rows = await sqlOf(server).execute<Array<{ purpose: string; billed: string | number }>>(
      `select purpose, sum(billed_cents) as billed from engine_usage group by purpose`,
    );
    const repairs = Number(rows.find((r) => r.purpose === 'repair')?.billed ?? 0);
    const all = rows.reduce((sum, r) => sum + Number(r.billed), 0);
    expect(repairs).toBeGreaterThan(0);
    const refunds = await sqlOf(server).execute<Array<{ amount_cents: string | number }>>(`select amount_cents from ledger_entries where kind = 'refund'`);
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([repairs]);
    expect(await balance(client)).toBe(1500 - all + repairs);
    expect(events.some((e) => e.event.type === 'log' && /Refunded \$\d+\.\d\d for repair rounds/.test(e.event.message))).toBe(true);
    // What the run cost so far, after the refund: what it was billed less what came back.
    expect(events.filter((e) => e.event.type === 'cost').at(-1)!.event).toEqual({ type: 'cost', spentCents: all - repairs });
  });

  async function enhance(server: TestServer, client: TestClient): Promise<Array<{ event: EnhancementEvent }>> {
    const res = await fetch(`${server.url}/api/multi-pass-enhancements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ prompt: 'A habit tracker with streaks', attachments: [] }),
    });
    const events: Array<{ event: EnhancementEvent }> = [];
    for await (const { data } of decodeEventStream(res.body!, enhancementEvent)) events.push({ event: data });
    return events;
  }

  it('bills AI Enhance per call from a hold that settles to the real cost', async () => {
    const { fake, server, client } = await setup(1);
    const events = await enhance(server, client);
    expect(events.at(-1)!.event.type).toBe('complete');
    const history = billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history;
    expect(history.length).toBe(fake.requests.length);
    expect(history.every((h) => h.role === 'enhance')).toBe(true);
    const billed = history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
    expect(billed).toBeGreaterThan(0);
    expect(await balance(client)).toBe(1500 - billed);
    expect(await openHolds(server)).toBe(0);
  });

  it('an enhancement that cannot reserve calls no engine', async () => {
    const { fake, server, client } = await setup(15);
    const events = await enhance(server, client);
    expect(events.at(-1)!.event).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    expect(fake.requests).toHaveLength(0);
    expect(await balance(client)).toBe(1500);
  });
});
