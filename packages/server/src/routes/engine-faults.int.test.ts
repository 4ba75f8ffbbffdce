/**
 * Engines failing during real runs through the server: the real openai and Anthropic SDKs talk
 * to local fakes that answer 429 and 500, reset the socket mid-stream, send a chunk that is not
 * JSON, stall, never answer, or trickle empty chunks forever. A run either retries and completes,
 * or fails with a sentence, in bounded time; either way no hold stays open, no project is half
 * written, and only the calls that produced something the run kept are charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceReply, conversationsReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import {
  anthropicReplies,
  openaiReplies,
  startFakeAnthropicServer,
  startFakeOpenAIServer,
  type AnthropicFakeServer,
  type FakeBehaviour,
  type OpenAIErrorBody,
  type OpenAIFakeServer,
  type RecordedRequest,
} from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

type Stage = 'Planning' | 'Building' | 'Checking' | 'Polishing';

/**
 * Short watchdogs and waits, so each failure mode plays out in seconds, yet long enough that a
 * busy 2-CPU machine running PGlite never trips them on a healthy answer (at 1 s and 1.5 s a slow
 * machine running two suites once did).
 */
const RESILIENCE_ENV = {
  WOLFPACK_ENGINE_MAX_RETRIES: '2',
  WOLFPACK_ENGINE_RETRY_BASE_DELAY_MS: '10',
  WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS: '3000',
  WOLFPACK_ENGINE_STALL_TIMEOUT_MS: '2000',
  WOLFPACK_ENGINE_CALL_TIMEOUT_MS: '10000',
};

/** What the engine of a stage does for its next `times` calls instead of answering well. */
interface Fault {
  stage: Stage;
  times: number;
  behaviour: (answer: string) => FakeBehaviour<OpenAIErrorBody>;
}

const systemOf = (messages: ChatMessage[]) => String(messages.find((m) => m.role === 'system')?.content ?? '');
const stageOf = (messages: ChatMessage[]): Stage | undefined => /You are the (Planning|Building|Checking|Polishing) engine/.exec(systemOf(messages))?.[1] as Stage | undefined;
const messagesOf = (request: RecordedRequest) => (request.body as { messages: ChatMessage[] }).messages;
/** The planned file a Building request asks for. */
const fileOf = (request: RecordedRequest) => /Write the complete file (\S+) \(/.exec(String(messagesOf(request).at(-1)?.content ?? ''))?.[1];

/** The demo answer cut in two, so a fault can strike between the halves. */
const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];

/** A fake engine that answers like the demo engines unless a fault for the request's stage is pending. */
function behaviourFor(faults: Fault[], messages: ChatMessage[]): FakeBehaviour<OpenAIErrorBody> {
  const answer = demoReply(messages);
  const stage = stageOf(messages);
  const fault = faults.find((f) => f.stage === stage && f.times > 0);
  if (fault) {
    fault.times -= 1;
    return fault.behaviour(answer);
  }
  return { kind: 'stream', deltas: halves(answer) };
}

const garbageChunk = 'data: {"id":"chatcmpl-fake","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"oops\n\n';

describe.each(testDatabases())('engines failing during a run on %s', (kind) => {
  let fake: OpenAIFakeServer;
  let server: TestServer;
  const faults: Fault[] = [];
  let users = 0;

  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ fallback: (request) => behaviourFor(faults, (request.body as { messages: ChatMessage[] }).messages) });
    server = await startTestServer(kind, {
      env: {
        ...RESILIENCE_ENV,
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await fake?.close();
  });

  const sql = <T>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text, params);

  async function user(): Promise<{ client: TestClient; userId: string }> {
    faults.length = 0;
    const client = new TestClient(server.url);
    const username = `faulty${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await sql<Array<{ id: string }>>('select id from users where username = ?', [username]);
    return { client, userId: row!.id };
  }

  async function run(client: TestClient): Promise<{ events: ReceivedEvent[]; runId: string }> {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: [], cycles: 1 }),
    });
    const first = events[0]?.event;
    return { events, runId: first?.type === 'run' ? first.runId : '' };
  }

  const balance = async (client: TestClient) => balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;

  /** What the run left behind: its status, holds, usage rows, charges and project files. */
  async function leftovers(runId: string, userId: string) {
    const [conversation] = await sql<Array<{ status: string; error: string | null; project_id: string | null }>>('select status, error, project_id from conversations where id = ?', [runId]);
    const holds = await sql<Array<{ status: string }>>('select status from holds where conversation_id = ?', [runId]);
    const usage = await sql<Array<{ stage: string; attempts: number; billed_cents: number }>>('select stage, attempts, billed_cents from engine_usage where conversation_id = ? order by id', [runId]);
    const charged = await sql<Array<{ total: string | number }>>(`select coalesce(sum(-amount_cents), 0) as total from ledger_entries where user_id = ? and kind = 'engine_usage'`, [userId]);
    const projects = await sql<Array<{ n: string | number }>>('select count(*) as n from projects where user_id = ?', [userId]);
    return {
      conversation: conversation!,
      openHolds: holds.filter((h) => h.status === 'open').length,
      usage: usage.map((u) => ({ stage: u.stage, attempts: Number(u.attempts), billed: Number(u.billed_cents) })),
      chargedCents: Number(charged[0]!.total),
      projects: Number(projects[0]!.n),
    };
  }

  it('retries a 429, a 500, a socket reset mid-stream and a chunk that is not JSON, then completes, billing each call once', async () => {
    const { client, userId } = await user();
    const requestsBefore = fake.requests.length;
    faults.push(
      { stage: 'Planning', times: 1, behaviour: () => openaiReplies.rateLimited('0') },
      { stage: 'Building', times: 1, behaviour: () => openaiReplies.serverError(500) },
      { stage: 'Building', times: 1, behaviour: (answer) => openaiReplies.stream(halves(answer), { interruptAfter: 1, interrupt: 'close' }) },
      { stage: 'Polishing', times: 1, behaviour: (answer) => openaiReplies.stream(halves(answer), { interruptAfter: 1, interrupt: { raw: garbageChunk } }) },
    );
    const { events, runId } = await run(client);
    expect(events.at(-1)!.event.type, JSON.stringify(events.at(-1))).toBe('complete');
    expect(faults.every((f) => f.times === 0)).toBe(true);

    const left = await leftovers(runId, userId);
    expect(left.conversation.status).toBe('completed');
    expect(left.openHolds).toBe(0);
    expect(left.projects).toBe(1);
    // Each failed attempt was retried inside its call: one usage row per call, with its attempts
    // counted, and every request the engine saw is either a billed call or a retried failure.
    const retried = left.usage.reduce((sum, u) => sum + u.attempts - 1, 0);
    expect(retried).toBeGreaterThanOrEqual(4);
    expect(fake.requests.length - requestsBefore).toBe(left.usage.length + retried);
    const billed = left.usage.reduce((sum, u) => sum + u.billed, 0);
    expect(billed).toBeGreaterThan(0);
    expect(left.chargedCents).toBe(billed);
    expect(await balance(client)).toBe(1500 - billed);
  });

  it('an engine that keeps answering 500 fails the run with a sentence: no project, no open hold, only finished stages charged; a new run then completes', async () => {
    const { client, userId } = await user();
    faults.push({ stage: 'Building', times: Infinity, behaviour: () => openaiReplies.serverError(500) });
    const { events, runId } = await run(client);
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ type: 'error', code: 'BAD_GATEWAY' });
    if (last.type !== 'error') return;
    expect(last.error).toMatch(
      /^No engine could complete Building\. Engine alpha had a server error \(500: The server had an error while processing your request\. Sorry about that!\)\. This is usually temporary; try again shortly, or use another engine\. \(Gave up after 3 attempts\.\)$/,
    );

    const left = await leftovers(runId, userId);
    expect(left.conversation).toEqual({ status: 'failed', error: last.error, project_id: null });
    expect(left.openHolds).toBe(0);
    expect(left.projects).toBe(0);
    expect(left.usage.map((u) => u.stage)).toEqual(['Planning']);
    expect(left.chargedCents).toBe(left.usage[0]!.billed);
    expect(await balance(client)).toBe(1500 - left.usage[0]!.billed);
    expect((await client.get(`/api/wolfpack/runs/${runId}`)).json).toMatchObject({ run: { status: 'failed', error: last.error, projectId: null } });
    expect((await client.post(`/api/wolfpack/runs/${runId}/resume`, {})).status).toBe(409);
    // The history lists every stage of the run: Building failed with the error's first sentence, the rest never ran.
    const [history] = conversationsReply.parse((await client.get('/api/conversations')).json).conversations;
    expect(history!.stages.map((s) => [s.role, s.status, s.ok])).toEqual([
      ['Planning', 'complete', true],
      ['Building', 'failed', false],
      ['Checking', 'not-run', false],
      ['Polishing', 'not-run', false],
      ['Proven Code', 'not-run', false],
    ]);
    expect(history!.stages[1]!.reason).toBe('no engine could complete Building');

    // The provider recovers: trying again works, and is charged for its own calls only.
    faults.length = 0;
    const again = await run(client);
    expect(again.events.at(-1)!.event.type).toBe('complete');
    const after = await leftovers(again.runId, userId);
    expect(after.openHolds).toBe(0);
    expect(await balance(client)).toBe(1500 - left.usage[0]!.billed - after.usage.reduce((sum, u) => sum + u.billed, 0));
  });

  it('a stream that stalls is given up at the watchdog, retried, and the run fails in bounded time', async () => {
    const { client, userId } = await user();
    const before = fake.requests.length;
    faults.push({ stage: 'Building', times: Infinity, behaviour: (answer) => openaiReplies.stream(halves(answer), { interruptAfter: 1, interrupt: 'stall' }) });
    // Bounded: the run ends with its error (a run left waiting would meet the test's timeout),
    // and what ended it is the watchdog's sentence, with the configured 2 s.
    const { events, runId } = await run(client);
    const last = events.at(-1)!.event;
    expect(last.type === 'error' && last.error).toMatch(/^No engine could complete Building\. Engine alpha stopped sending output for 2 s\. It may be overloaded; try again, or use another engine\. \(Gave up after 3 attempts\.\)$/);
    // Files are built in parallel: each was tried at most three times, and every stalled
    // connection was closed by us, not left open on the provider.
    const building = fake.requests.slice(before).filter((r) => stageOf(messagesOf(r)) === 'Building');
    const perFile = new Map<string, number>();
    for (const r of building) perFile.set(fileOf(r) ?? '?', (perFile.get(fileOf(r) ?? '?') ?? 0) + 1);
    expect(Math.max(...perFile.values())).toBe(3);
    await expect.poll(() => building.every((r) => r.clientClosedEarly)).toBe(true);
    const left = await leftovers(runId, userId);
    expect(left.openHolds).toBe(0);
    expect(left.projects).toBe(0);
  });

  it('a provider that never sends headers is given up at the first-chunk timeout', async () => {
    const { client } = await user();
    const before = fake.requests.length;
    faults.push({ stage: 'Planning', times: Infinity, behaviour: () => ({ kind: 'hang' }) });
    const { events } = await run(client);
    const last = events.at(-1)!.event;
    expect(last.type === 'error' && last.error).toMatch(/^No engine could complete Planning\. Engine alpha sent no output within 3 s of the request\..*\(Gave up after 3 attempts\.\)$/);
    // Three requests, each given up by us: none is left hanging on the provider.
    const planning = fake.requests.slice(before).filter((r) => stageOf(messagesOf(r)) === 'Planning');
    expect(planning).toHaveLength(3);
    await expect.poll(() => planning.every((r) => r.clientClosedEarly)).toBe(true);
    expect(await balance(client)).toBe(1500);
  });

  it('a stream that trickles empty chunks forever is stopped at the call deadline and not retried', async () => {
    const { client, userId } = await user();
    const before = fake.requests.length;
    faults.push({ stage: 'Building', times: Infinity, behaviour: (answer) => openaiReplies.stream(halves(answer), { interruptAfter: 1, interrupt: { trickle: { everyMs: 50 } } }) });
    const { events, runId } = await run(client);
    const last = events.at(-1)!.event;
    // The call deadline's sentence with the configured 10 s, not the 2 s watchdog's (chunks kept
    // coming). That the deadline fires at its time exactly is core's engine-faults test, on a fake clock.
    expect(last.type === 'error' && last.error).toBe(
      'No engine could complete Building. Engine alpha did not finish its answer within 10 s, the longest one call may take, so it was stopped. Try again, or use another engine.',
    );
    // Not retried: each planned file was asked for once, and the connections were closed.
    const building = fake.requests.slice(before).filter((r) => stageOf(messagesOf(r)) === 'Building');
    expect(building.length).toBeGreaterThan(0);
    expect(new Set(building.map(fileOf)).size).toBe(building.length);
    await expect.poll(() => building.every((r) => r.clientClosedEarly)).toBe(true);
    const left = await leftovers(runId, userId);
    expect(left.openHolds).toBe(0);
    expect(left.usage.map((u) => u.stage)).toEqual(['Planning']);
  });
});

describe.each(testDatabases())('falling back between engines on %s', (kind) => {
  let openai: OpenAIFakeServer;
  let anthropic: AnthropicFakeServer;
  let server: TestServer;

  beforeAll(async () => {
    // alpha's key is wrong: every call is a 401, which no retry can fix.
    openai = await startFakeOpenAIServer({ apiKey: 'sk-the-right-one' });
    anthropic = await startFakeAnthropicServer({
      fallback: (request) => {
        const body = request.body as { system?: string; messages: ChatMessage[] };
        return anthropicReplies.stream(halves(demoReply([{ role: 'system', content: body.system ?? '' }, ...body.messages])));
      },
    });
    server = await startTestServer(kind, {
      env: {
        ...RESILIENCE_ENV,
        WOLFPACK_ENGINES: JSON.stringify([
          { key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: openai.baseURL, apiKey: 'sk-wrong-key-0000', pricePer1kTokensCents: 1 },
          { key: 'beta', provider: 'anthropic', model: 'claude-test', baseURL: anthropic.baseURL, apiKey: 'sk-ant-test', pricePer1kTokensCents: 2 },
        ]),
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await openai?.close();
    await anthropic?.close();
  });

  it('a dead engine is skipped for the rest of the run, the others finish it, and only their calls are billed', async () => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'fallback', password: 'correct-horse' })).status).toBe(201);
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: ['alpha', 'beta'], cycles: 1 }),
    });
    expect(events.at(-1)!.event.type, JSON.stringify(events.at(-1))).toBe('complete');
    const warnings = events.flatMap((e) => (e.event.type === 'log' && e.event.level === 'warning' ? [e.event.message] : []));
    expect(warnings[0]).toBe('Engine alpha rejected its API key (401). Check the key configured for it. Falling back to engine beta for Planning.');
    // The key never shows, and a rejected key is not retried: one request, then alpha is left alone.
    expect(JSON.stringify(events)).not.toContain('sk-wrong-key-0000');
    expect(openai.requests).toHaveLength(1);
    const usage = await (server.db.orm.em.fork() as unknown as Sql).execute<Array<{ engine_key: string; total_tokens: number; billed_cents: number }>>(
      'select engine_key, total_tokens, billed_cents from engine_usage',
    );
    expect(usage.length).toBe(anthropic.requests.length);
    expect(new Set(usage.map((u) => u.engine_key))).toEqual(new Set(['beta']));
    for (const u of usage) expect(Number(u.billed_cents)).toBe(Math.ceil((2 * Number(u.total_tokens)) / 1000));
    const billed = usage.reduce((sum, u) => sum + Number(u.billed_cents), 0);
    expect(balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents).toBe(1500 - billed);
  });
});
