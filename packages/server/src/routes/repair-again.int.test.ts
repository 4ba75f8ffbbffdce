/**
 * "Repair again" through the server: after a failed Proven Code gate, a new run does
 * Proven Code alone on the project's current files, reserved and charged like any stage (and its
 * rounds refunded when they still do not make the code pass), saves a new version with its own
 * record, and is refused where there is nothing to repair, for other users, and while a run works
 * on the project.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { balanceReply, projectDetailReply, runInfoReply, type ChatMessage, type PipelineEvent } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const systemOf = (body: unknown) => ((body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'system')?.content as string) ?? '';
const isRepair = (body: unknown) => /Automated checks found problems/.test(systemOf(body));

describe.each(testDatabases())('Repair again on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((c) => c()));
  });

  /** An engine that writes app.js with a syntax error until `mode.fixes` is set. */
  async function setup() {
    const mode = { fixes: false, delayMs: 0 };
    const fake: OpenAIFakeServer = await startFakeOpenAIServer({
      fallback: (request) => {
        let text = demoReply((request.body as { messages: ChatMessage[] }).messages);
        if (!mode.fixes) text = text.replaceAll('```js app.js\n', '```js app.js\nconst = ;\n');
        return { kind: 'stream', deltas: [text], delayMs: mode.delayMs };
      },
    });
    cleanup.push(() => fake.close());
    const server = await startTestServer(kind, {
      env: {
        WOLFPACK_SANDBOX: 'off',
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
      },
    });
    cleanup.push(() => server.dispose());
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'repairer', password: 'correct-horse' })).status).toBe(201);
    return { fake, server, client, mode };
  }

  const stream = (server: TestServer, client: TestClient, path: string, body: unknown) =>
    readEvents(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: client.cookieHeader() }, body: JSON.stringify(body) });
  const sql = (server: TestServer) => server.db.orm.em.fork() as unknown as Sql;
  const balance = async (client: TestClient) => balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;
  const completeOf = (events: Array<{ event: PipelineEvent }>) => {
    const last = events.at(-1)!.event;
    if (last.type !== 'complete') throw new Error(`the run ended with ${JSON.stringify(last)}`);
    return last;
  };

  it('repairs a failed project with Proven Code alone, charged once, and keeps each version\'s record', async () => {
    const { fake, server, client, mode } = await setup();
    const built = completeOf((await stream(server, client, '/api/wolfpack/stream', { idea: 'A habit tracker' })).events);
    expect(built.verification).toMatchObject({ passed: false, verdict: 'failed' });
    const projectId = built.projectId;

    // A repair that still does not work: one Proven Code stage, repair calls only, refunded, a new version that still failed.
    const callsBefore = fake.requests.length;
    const again = await stream(server, client, `/api/projects/${projectId}/repair`, {});
    expect(again.events[0]!.event).toMatchObject({ type: 'run', stages: ['Proven Code'] });
    const stageEvents = again.events.flatMap((e) => (e.event.type === 'stage' ? [`${e.event.role}:${e.event.ok}`] : []));
    expect(stageEvents).toEqual(['Proven Code:false', 'Proven Code:false']);
    const failedAgain = completeOf(again.events);
    expect(failedAgain).toMatchObject({ projectId, verification: { passed: false, verdict: 'failed' } });
    const repairCalls = fake.requests.slice(callsBefore);
    expect(repairCalls.length).toBe(2);
    expect(repairCalls.every((r) => isRepair(r.body))).toBe(true);
    expect(again.events.some((e) => e.event.type === 'log' && /Refunded \$\d+\.\d\d for repair rounds/.test(e.event.message))).toBe(true);
    let detail = projectDetailReply.parse((await client.get(`/api/projects/${projectId}`)).json);
    expect(detail.verification).toMatchObject({ version: 2, verdict: 'failed' });

    // A repair that works: charged (no refund), app.js fixed, nothing failed any more.
    mode.fixes = true;
    const balanceBefore = await balance(client);
    const fixed = await stream(server, client, `/api/projects/${projectId}/repair`, {});
    const done = completeOf(fixed.events);
    expect(done.verification?.verdict).not.toBe('failed');
    // No sandbox on this test server: nothing failed, but the page was not run, so it says so.
    expect(done.verification).toMatchObject({ passed: true, verdict: 'unproven' });
    const appJs = await sql(server).execute<Array<{ content: string }>>("select content from project_files where project_id = ? and path = 'app.js'", [projectId]);
    expect(appJs[0]!.content).not.toContain('const = ;');
    // The files the repair did not touch are kept with the new version.
    expect(projectDetailReply.parse((await client.get(`/api/projects/${projectId}`)).json).files.sort()).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    detail = projectDetailReply.parse((await client.get(`/api/projects/${projectId}`)).json);
    expect(detail.verification).toMatchObject({ version: 3, verdict: 'unproven' });
    const runId = fixed.events[0]!.event.type === 'run' ? fixed.events[0]!.event.runId : '';
    // The run says which stages it does (a client attaching mid-run has no `run` event to read).
    expect(runInfoReply.parse((await client.get(`/api/wolfpack/runs/${runId}`)).json).run.stages).toEqual(['Proven Code']);
    const builtRun = (await sql(server).execute<Array<{ id: string }>>('select id from conversations where only_stages is null'))[0]!.id;
    expect(runInfoReply.parse((await client.get(`/api/wolfpack/runs/${builtRun}`)).json).run).not.toHaveProperty('stages');
    const usage = await sql(server).execute<Array<{ billed: string | number; purpose: string }>>('select billed_cents as billed, purpose from engine_usage where conversation_id = ?', [runId]);
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((u) => u.purpose === 'repair')).toBe(true);
    const billed = usage.reduce((sum, u) => sum + Number(u.billed), 0);
    expect(billed).toBeGreaterThan(0);
    expect(await balance(client)).toBe(balanceBefore - billed);
    const charges = await sql(server).execute<Array<{ description: string }>>("select description from ledger_entries where conversation_id = ? and kind = 'engine_usage'", [runId]);
    expect(charges.map((c) => c.description)).toEqual([expect.stringMatching(/^Proven Code: \d+ tokens$/)]);
    const holds = await sql(server).execute<Array<{ n: string | number }>>("select count(*) as n from holds where status = 'open'");
    expect(Number(holds[0]!.n)).toBe(0);

    // Nothing failed now: nothing to repair, and the refusal says what to do instead.
    const refused = await client.post(`/api/projects/${projectId}/repair`, {});
    expect(refused.status).toBe(409);
    expect((refused.json as { error: string }).error).toMatch(/nothing to repair.*Re-check it instead/);
  }, 120_000);

  it('is refused to other users, for bad bodies, and while a run is working on the project', async () => {
    const { server, client, mode } = await setup();
    const built = completeOf((await stream(server, client, '/api/wolfpack/stream', { idea: 'A habit tracker' })).events);
    const path = `/api/projects/${built.projectId}/repair`;

    const other = new TestClient(server.url);
    await other.post('/api/auth/register', { username: 'nosy', password: 'correct-horse' });
    expect((await other.post(path, {})).status).toBe(404);
    expect((await new TestClient(server.url).post(path, {})).status).toBe(401);
    const bad = await client.post(path, { maxCostCents: -5 });
    expect(bad.status).toBe(400);
    expect((bad.json as { error: string }).error).toMatch(/maxCostCents must be 0 or more/);
    expect((await client.post(path, { modelOrder: ['no-such-engine'] })).status).toBe(400);

    // Two clicks at once: one run starts, the other is told a run is working on the project.
    mode.delayMs = 400;
    const [first, second] = await Promise.all([
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: client.cookieHeader() }, body: '{}' }),
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: client.cookieHeader() }, body: '{}' }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(((await loser.json()) as { error: string }).error).toBe('A run is already working on this project. Follow it, or wait for it to finish and try again.');
    const winner = first.status === 200 ? first : second;
    await winner.text();
    const running = await sql(server).execute<Array<{ n: string | number }>>("select count(*) as n from conversations where only_stages is not null");
    expect(Number(running[0]!.n)).toBe(1);
  }, 120_000);
});
