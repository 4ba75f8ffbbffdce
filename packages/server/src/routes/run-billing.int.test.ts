import { afterEach, describe, expect, it } from 'vitest';
import { billingHistoryReply, balanceReply, decodeEventStream, enhancementEvent, type ChatMessage, type EnhancementEvent } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { LedgerService } from '../services/ledger-service.js';
import { TestClient } from '../testing/http-client.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

type Sql = { execute<T>(sql: string, params?: unknown[]): Promise<T> };

const systemOf = (body: unknown) => ((body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'system')?.content as string) ?? '';

interface EngineOptions {
  brokenAppJs?: boolean;
  /** Changes how a request is answered (by its system prompt): a delay, say. */
  answer?: (system: string) => { headersDelayMs: number } | { status: number } | undefined;
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

  it('stops a stage it cannot reserve before its first engine call, and resumes after a top-up', async () => {
    const { fake, server, client } = await setup(15);
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
          return { headersDelayMs: 200 };
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
    const { fake, server, client } = await setup(1);
    const events = await run(server, client, { maxCostCents: 60 });
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ type: 'error', code: 'PAYMENT_REQUIRED' });
    if (last.type === 'error') expect(last.error).toMatch(/^Cost limit reached/);
    const history = billingHistoryReply.parse((await client.get('/api/billing/history?limit=100')).json).history;
    const billed = history.reduce((sum, h) => sum + Math.round(h.billedDollars * 100), 0);
    expect(billed).toBeLessThanOrEqual(60);
    expect(fake.requests.length).toBe(history.length);
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
