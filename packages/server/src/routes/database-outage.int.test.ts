/**
 * PostgreSQL stopped under a running build, on a PostgreSQL of the test's own (a fresh cluster on
 * a free port, run as the `postgres` user): the real server, the real openai SDK against a local
 * fake engine, the real HTTP stream. Stopped once Planning is stored and charged, while Building
 * works: for 15 s (inside the run's window) the run waits, says so, and completes, each stage
 * charged once; for longer than the window (5 s here, 2 minutes by default) the run stops,
 * is left interrupted (never failed) with nothing charged twice, and a resume continues from
 * Planning. GET /api/health answers 503 with the reason while the database is away.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type FakeBehaviour, type OpenAIErrorBody, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const systemOf = (messages: ChatMessage[]) => String(messages.find((m) => m.role === 'system')?.content ?? '');
const stageOf = (messages: ChatMessage[]) => /You are the (Planning|Building|Checking|Polishing) engine/.exec(systemOf(messages))?.[1];
const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];
const logs = (events: ReceivedEvent[]) => events.flatMap(({ event }) => (event.type === 'log' ? [event.message] : []));

describe.skipIf(!existsSync('/usr/lib/postgresql/15/bin/initdb') && !process.env.WOLFPACK_TEST_POSTGRES_BIN)('PostgreSQL stopped during a run', () => {
  let postgres: PrivatePostgres;
  let dataDir: string;
  let fake: OpenAIFakeServer;
  /** What the first Building call does before it answers (the test stops the database there). */
  let onBuilding: (() => Promise<unknown>) | undefined;
  let planningCalls = 0;
  let users = 0;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-outage-'));
    fake = await startFakeOpenAIServer({
      fallback: (request): FakeBehaviour<OpenAIErrorBody> => {
        const messages = (request.body as { messages: ChatMessage[] }).messages;
        const stage = stageOf(messages);
        if (stage === 'Planning') planningCalls += 1;
        const hook = stage === 'Building' ? onBuilding : undefined;
        if (hook) onBuilding = undefined;
        return { kind: 'stream', deltas: halves(demoReply(messages)), ...(hook ? { headersAfter: hook() } : {}) };
      },
    });
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
    await postgres?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function serverWith(retrySeconds?: number): Promise<TestServer> {
    return startTestServer('postgres', {
      reuse: { dataDir, databaseUrl: postgres.url },
      env: {
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
        ...(retrySeconds === undefined ? {} : { WOLFPACK_DB_RETRY_SECONDS: String(retrySeconds) }),
      },
    });
  }

  async function signUp(server: TestServer): Promise<TestClient> {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: `outage${(users += 1)}`, password: 'correct-horse' })).status).toBe(201);
    return client;
  }

  /**
   * The first Building call's answer waits while the test stops PostgreSQL (once Planning's
   * checkpoint is stored), keeps it stopped `downMs`, and starts it again; the health replies
   * seen meanwhile are kept.
   */
  function outageAtBuilding(server: TestServer, downMs: number, client?: TestClient) {
    const health: Array<{ status: number; json: unknown }> = [];
    /** A signed-in page's API call meanwhile: the session and the list need the database. */
    const others: Array<{ status: number; retryAfter: string | null; json: unknown }> = [];
    let stopped!: () => void;
    const down = new Promise<void>((resolve) => (stopped = resolve));
    let over!: () => void;
    const back = new Promise<void>((resolve) => (over = resolve));
    onBuilding = async () => {
      const sql = <T>(text: string) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text);
      for (let i = 0; i < 200; i++) {
        const rows = await sql<Array<{ n: number }>>(`select count(*)::int as n from conversations where checkpoint is not null`);
        if (rows[0]!.n > 0) break;
        await sleep(50);
      }
      await postgres.stop();
      stopped();
      void (async () => {
        const until = Date.now() + downMs;
        while (Date.now() < until) {
          const res = await fetch(`${server.url}/api/health`);
          health.push({ status: res.status, json: await res.json() });
          if (client) {
            const page = await fetch(`${server.url}/api/projects`, { headers: { cookie: client.cookieHeader() } });
            others.push({ status: page.status, retryAfter: page.headers.get('retry-after'), json: await page.json() });
          }
          await sleep(1000);
        }
        await postgres.start();
        over();
      })();
      // Building answers while the database is away: its work must be kept until it is back.
      await sleep(1500);
    };
    return { health, others, down, back };
  }

  async function build(server: TestServer, client: TestClient) {
    return readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A habit tracker', modelOrder: [], cycles: 1 }),
    });
  }

  /** The run's stored events, usage, charges and holds. */
  async function ledgerOf(server: TestServer, runId: string) {
    const sql = <T>(text: string) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text, [runId]);
    const [conversation] = await sql<Array<{ status: string; error: string | null; project_id: string | null }>>('select status, error, project_id from conversations where id = ?');
    const seqs = (await sql<Array<{ seq: number }>>('select seq from run_events where conversation_id = ? order by seq')).map((r) => Number(r.seq));
    const usage = await sql<Array<{ stage: string; call_key: string; billed_cents: number }>>('select stage, call_key, billed_cents from engine_usage where conversation_id = ? order by id');
    const [charged] = await sql<Array<{ total: number }>>(`select coalesce(sum(-amount_cents), 0)::int as total from ledger_entries where conversation_id = ? and kind = 'engine_usage'`);
    const [held] = await sql<Array<{ n: number }>>(`select count(*)::int as n from holds where conversation_id = ? and status = 'held'`);
    return { conversation: conversation!, seqs, usage, charged: Number(charged!.total), openHolds: Number(held!.n) };
  }

  it('stopped for 15 s mid-run: the run waits, says so, and completes with each stage charged once; health answers 503 meanwhile', async () => {
    const server = await serverWith();
    try {
      const client = await signUp(server);
      planningCalls = 0;
      const outage = outageAtBuilding(server, 15_000, client);
      const started = Date.now();
      const { status, events } = await build(server, client);
      await outage.back;
      expect(status).toBe(200);
      expect(events.at(-1)?.event.type).toBe('complete');
      // The run's end came only after the database was back (it waited, it did not skip anything).
      expect(Date.now() - started).toBeGreaterThan(15_000);
      expect(logs(events)).toContain("The database is unreachable; retrying for up to 2 minutes. The run's work so far is kept.");
      // Sent live (it could not be stored), numbered as the stored event before it.
      const at = events.findIndex(({ event }) => event.type === 'log' && event.message.startsWith('The database is unreachable'));
      expect(events[at]!.event).toMatchObject({ type: 'log', level: 'warning', live: true });
      expect(events[at]!.id).toBe(events[at - 1]!.id);
      expect(logs(events).some((line) => /^The database answered again after \d+ seconds; the run goes on\.$/.test(line))).toBe(true);
      const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
      const after = await ledgerOf(server, runId);
      expect(after.conversation.status).toBe('completed');
      expect(after.conversation.project_id).not.toBeNull();
      // Every event stored once, numbered without gaps.
      expect(after.seqs).toEqual(after.seqs.map((_, i) => i + 1));
      // Each call stored (and billed) once; the charges are what the usage rows say.
      expect(new Set(after.usage.map((u) => u.call_key)).size).toBe(after.usage.length);
      expect(after.usage.filter((u) => u.stage === 'Planning')).toHaveLength(1);
      expect(after.charged).toBe(after.usage.reduce((sum, u) => sum + u.billed_cents, 0));
      expect(after.charged).toBeGreaterThan(0);
      expect(after.openHolds).toBe(0);
      expect(planningCalls).toBe(1);
      // Health said why while the database was away, and is well again.
      expect(outage.health.length).toBeGreaterThan(5);
      for (const reply of outage.health) {
        expect(reply.status).toBe(503);
        const body = healthReply.parse(reply.json);
        expect(body).toMatchObject({ ok: false, database: 'postgres' });
        expect(body.ok === false && body.reason).toMatch(/^The database cannot be reached: /);
      }
      const res = await fetch(`${server.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, database: 'postgres' });
      // Other requests meanwhile were told to come back (503, Retry-After), never a bare 500.
      expect(outage.others.length).toBeGreaterThan(5);
      for (const reply of outage.others) {
        expect(reply).toEqual({ status: 503, retryAfter: '5', json: { success: false, code: 'SERVICE_UNAVAILABLE', error: 'Wolfpack cannot reach its database right now. Try again in a few seconds.', retryAfterSeconds: 5 } });
      }
      expect((await client.get('/api/projects')).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('stopped for longer than WOLFPACK_DB_RETRY_SECONDS: the run is left interrupted, not failed, and a resume continues from its last stored stage, charging nothing twice', async () => {
    const server = await serverWith(5);
    try {
      const client = await signUp(server);
      planningCalls = 0;
      const outage = outageAtBuilding(server, 20_000);
      const { status, events } = await build(server, client);
      await outage.back;
      expect(status).toBe(200);
      const lines = logs(events);
      expect(lines).toContain("The database is unreachable; retrying for up to 5 seconds. The run's work so far is kept.");
      expect(lines).toContain(
        'The database stayed unreachable for 5 seconds, so the run stopped. Its finished stages are kept; once the database answers, the run is marked interrupted and can be resumed from its last finished stage.',
      );
      // The stream's last word, stored once the database answered again.
      const last = events.at(-1)!;
      expect(last.event).toEqual({
        type: 'error',
        code: 'SERVICE_UNAVAILABLE',
        error: 'The run stopped because the database was unreachable for more than 5 seconds. Its finished stages are kept and were charged once: resume it to continue from the last one.',
      });
      expect(last.id).toBeGreaterThan(0);
      const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
      const stopped = await ledgerOf(server, runId);
      expect(stopped.conversation.status).toBe('interrupted');
      expect(stopped.seqs).toEqual(stopped.seqs.map((_, i) => i + 1));
      expect(stopped.seqs.at(-1)).toBe(last.id);
      // Planning was stored and charged before the outage; the unfinished stage's holds went back.
      expect(stopped.usage.filter((u) => u.stage === 'Planning')).toHaveLength(1);
      expect(stopped.charged).toBe(stopped.usage.reduce((sum, u) => sum + u.billed_cents, 0));
      expect(stopped.openHolds).toBe(0);

      const resumed = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/resume`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
        body: '{}',
      });
      expect(resumed.status).toBe(200);
      expect(resumed.events.at(-1)?.event.type).toBe('complete');
      expect(logs(resumed.events)).toContain('Resumed after an interruption: 1 finished stage(s) kept, continuing from there.');
      const done = await ledgerOf(server, runId);
      expect(done.conversation.status).toBe('completed');
      expect(done.conversation.project_id).not.toBeNull();
      // Planning ran once in all: resumed from it, never charged twice.
      expect(planningCalls).toBe(1);
      expect(done.usage.filter((u) => u.stage === 'Planning')).toHaveLength(1);
      expect(new Set(done.usage.map((u) => u.call_key)).size).toBe(done.usage.length);
      expect(done.charged).toBe(done.usage.reduce((sum, u) => sum + u.billed_cents, 0));
      expect(done.openHolds).toBe(0);
      expect(done.seqs).toEqual(done.seqs.map((_, i) => i + 1));
    } finally {
      await server.close();
    }
  }, 150_000);
});
