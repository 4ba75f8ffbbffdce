import { afterEach, describe, expect, it } from 'vitest';
import { experimentReply, experimentsReply, startExperimentReply, balanceReply, type ChatMessage, type Experiment } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

async function signedIn(server: TestServer, username: string): Promise<TestClient> {
  const client = new TestClient(server.url);
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  return client;
}

async function startExperiment(client: TestClient, body: Record<string, unknown> = {}): Promise<Experiment> {
  const res = await client.post('/api/experiments/start', { projectName: 'Recipe box', testPrompt: 'A recipe tracker with shopping lists', promptType: 'simple', ...body });
  expect(res.status).toBe(201);
  const reply = startExperimentReply.parse(res.json);
  expect(reply.experiment?.id).toBe(reply.experimentId);
  return reply.experiment!;
}

async function getExperiment(client: TestClient, id: string): Promise<Experiment> {
  const res = await client.get(`/api/experiments/${id}`);
  expect(res.status).toBe(200);
  return experimentReply.parse(res.json).experiment;
}

/** Times the Replit-only build: the timer started, then completed. */
async function timeReplitBuild(client: TestClient, id: string): Promise<void> {
  expect((await client.post(`/api/experiments/${id}/replit-start`)).status).toBe(200);
  expect((await client.post(`/api/experiments/${id}/replit-complete`)).status).toBe(200);
}

/** Reads the experiment until its run has finished (the server only looks when asked). */
async function waitForRun(client: TestClient, id: string): Promise<Experiment> {
  for (let i = 0; i < 600; i += 1) {
    const experiment = await getExperiment(client, id);
    if (experiment.status !== 'wolfpack_running') return experiment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the run did not finish within 60 s');
}

// Tests complete real runs; PGlite on a busy machine needs more than the default 30 s.
describe.each(testDatabases())('cost-comparison lab on %s', { timeout: 120_000 }, (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((c) => c()));
  });
  let now = new Date('2026-05-04T10:00:00Z');
  const start = async (env: Record<string, string> = {}) => {
    now = new Date('2026-05-04T10:00:00Z');
    const server = await startTestServer(kind, { clock: () => now, env });
    cleanup.push(() => server.dispose());
    return server;
  };

  it('starts a real, billed pipeline run and takes its cost and processing time once it completes', async () => {
    // A priced engine, so the run costs real cents.
    const fake = await startFakeOpenAIServer({
      fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }),
    });
    cleanup.push(() => fake.close());
    const server = await start({
      WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
    });
    const client = await signedIn(server, 'scientist');
    const balanceBefore = balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;

    const started = await startExperiment(client);
    expect(started).toMatchObject({
      projectName: 'Recipe box',
      testPrompt: 'A recipe tracker with shopping lists',
      promptType: 'simple',
      wolfpackReplitAssemblyCostCents: null,
      replitOnlyStartedAt: null,
      savingsPercent: null,
      createdAt: now.toISOString(),
    });
    expect(['wolfpack_running', 'wolfpack_complete']).toContain(started.status);

    const done = await waitForRun(client, started.id);
    expect(done.status).toBe('wolfpack_complete');
    // The figures are the run's own: what it was billed and how long its stages took.
    const sql = server.db.orm.em.fork() as unknown as Sql;
    const [run] = await sql.execute<Array<{ id: string; idea: string; status: string; execution_ms: string | number; stages: Array<{ role: string; durationMs: number }> | string }>>(
      `select c.id, c.idea, c.status, c.execution_ms, c.stages from conversations c join experiments e on e.conversation_id = c.id where e.id = ?`,
      [started.id],
    );
    expect(run).toMatchObject({ idea: 'A recipe tracker with shopping lists', status: 'completed' });
    const [billed] = await sql.execute<Array<{ total: string | number }>>(`select coalesce(sum(billed_cents), 0) as total from engine_usage where conversation_id = ?`, [run!.id]);
    expect(done.wolfpackCostCents).toBe(Number(billed!.total));
    expect(done.wolfpackCostCents).toBeGreaterThan(0);
    const balanceAfter = balanceReply.parse((await client.get('/api/billing/balance')).json).balanceCents;
    expect(balanceBefore - balanceAfter).toBe(done.wolfpackCostCents);
    // How long its stages took: the run's five stage durations, added up as the run did.
    const stages = typeof run!.stages === 'string' ? (JSON.parse(run!.stages) as Array<{ role: string; durationMs: number }>) : run!.stages;
    expect(stages.map((stage) => stage.role)).toEqual(['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']);
    expect(done.wolfpackProcessingTimeMs).toBe(Number(run!.execution_ms));
    expect(done.wolfpackProcessingTimeMs).toBe(Math.round(stages.reduce((sum, stage) => sum + stage.durationMs, 0)));
    // Present, not a placeholder (a lower bound only: a busy machine makes it larger, never 0).
    expect(done.wolfpackProcessingTimeMs).toBeGreaterThan(0);

    // The costs: Model A = run cost + 300; Replit-only 10000.
    await timeReplitBuild(client, started.id);
    const res = await client.post(`/api/experiments/${started.id}/submit-costs`, { wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 10_000 });
    expect(res.status).toBe(200);
    const submitted = experimentReply.parse(res.json).experiment;
    const expected = Math.round(((10_000 - (done.wolfpackCostCents! + 300)) * 10_000) / 10_000) / 100;
    expect(submitted).toMatchObject({ status: 'completed', wolfpackReplitAssemblyCostCents: 300, wolfpackReplitAssemblyTimeMs: null, replitOnlyCostCents: 10_000, savingsPercent: expected });
    expect(experimentsReply.parse((await client.get('/api/experiments')).json).experiments).toEqual([submitted]);
  });

  it('times the Replit-only build in order: start once, then complete once, with the server clock', async () => {
    const server = await start();
    const client = await signedIn(server, 'timer');
    const { id } = await startExperiment(client);
    const early = await client.post(`/api/experiments/${id}/replit-complete`);
    expect(early.status).toBe(409);
    expect(early.json.error).toBe('Start the Replit-only timer before completing it.');

    const started = await client.post(`/api/experiments/${id}/replit-start`);
    expect(started.status).toBe(200);
    expect(experimentReply.parse(started.json).experiment).toMatchObject({ replitOnlyStartedAt: '2026-05-04T10:00:00.000Z', replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null });
    now = new Date('2026-05-04T10:01:00Z');
    const again = await client.post(`/api/experiments/${id}/replit-start`);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('CONFLICT');

    now = new Date('2026-05-04T10:01:30.250Z');
    const completed = await client.post(`/api/experiments/${id}/replit-complete`, {});
    expect(completed.status).toBe(200);
    expect(experimentReply.parse(completed.json).experiment).toMatchObject({
      replitOnlyStartedAt: '2026-05-04T10:00:00.000Z',
      replitOnlyCompletedAt: '2026-05-04T10:01:30.250Z',
      replitOnlyTotalTimeMs: 90_250,
    });
    const twice = await client.post(`/api/experiments/${id}/replit-complete`);
    expect(twice.status).toBe(409);
    expect(twice.json.error).toBe('The Replit-only timer has already been completed for this experiment.');
    expect((await client.post(`/api/experiments/${id}/replit-start`)).status).toBe(409);
    // The start time did not move.
    expect((await getExperiment(client, id)).replitOnlyStartedAt).toBe('2026-05-04T10:00:00.000Z');
  });

  it('validates the start and the costs, and computes savings only for a non-zero Replit-only cost', async () => {
    const server = await start();
    const client = await signedIn(server, 'validator');
    const blank = await client.post('/api/experiments/start', { projectName: '   ', testPrompt: 'Something' });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe('Please enter both project name and prompt');
    expect((await client.post('/api/experiments/start', { projectName: 'X', testPrompt: 'Y', promptType: 'huge' })).status).toBe(400);
    // Complexity defaults to medium.
    const experiment = await startExperiment(client, { promptType: undefined });
    expect(experiment.promptType).toBe('medium');
    const done = await waitForRun(client, experiment.id);
    expect(done.status).toBe('wolfpack_complete');
    // Demo engines are free: the run cost 0 cents.
    expect(done.wolfpackCostCents).toBe(0);

    const submit = (body: unknown) => client.post(`/api/experiments/${experiment.id}/submit-costs`, body);
    for (const bad of [
      {},
      { wolfpackReplitAssemblyCostCents: 300 },
      { wolfpackReplitAssemblyCostCents: -1, replitOnlyCostCents: 100 },
      { wolfpackReplitAssemblyCostCents: 1.5, replitOnlyCostCents: 100 },
      { wolfpackReplitAssemblyCostCents: '300', replitOnlyCostCents: 100 },
      { wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 100, wolfpackReplitAssemblyTimeMs: -5 },
    ]) {
      const res = await submit(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await getExperiment(client, experiment.id)).replitOnlyCostCents).toBeNull();

    await timeReplitBuild(client, experiment.id);
    const zero = experimentReply.parse((await submit({ wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 0 })).json).experiment;
    expect(zero).toMatchObject({ replitOnlyCostCents: 0, savingsPercent: null, status: 'completed' });

    // Savings of other experiments: (2000 - (0 + 300)) / 2000 = 85 %; 1/3 exactly: (3 - 2) / 3 → 33.33.
    const eightyFive = await startExperiment(client, { projectName: 'Eighty-five' });
    const third = await startExperiment(client, { projectName: 'A third' });
    for (const { id } of [eightyFive, third]) {
      await waitForRun(client, id);
      await timeReplitBuild(client, id);
    }
    const ok = experimentReply.parse((await client.post(`/api/experiments/${eightyFive.id}/submit-costs`, { wolfpackReplitAssemblyCostCents: 300, wolfpackReplitAssemblyTimeMs: 45_000, replitOnlyCostCents: 2000 })).json).experiment;
    expect(ok).toMatchObject({ wolfpackReplitAssemblyCostCents: 300, wolfpackReplitAssemblyTimeMs: 45_000, replitOnlyCostCents: 2000, savingsPercent: 85 });
    const thirds = experimentReply.parse((await client.post(`/api/experiments/${third.id}/submit-costs`, { wolfpackReplitAssemblyCostCents: 2, replitOnlyCostCents: 3 })).json).experiment;
    expect(thirds.savingsPercent).toBe(33.33);
    expect((await getExperiment(client, third.id)).savingsPercent).toBe(33.33);
  });

  it('takes the costs only after the Replit-only timer, and keeps the first ones', async () => {
    const server = await start();
    const client = await signedIn(server, 'measurer');
    const experiment = await startExperiment(client);
    await waitForRun(client, experiment.id);
    const submit = (body: Record<string, number>) => client.post(`/api/experiments/${experiment.id}/submit-costs`, body);
    const costs = { wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 2000 };

    // Before the timer was started: nothing was timed, so nothing is compared.
    const early = await submit(costs);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'CONFLICT', error: 'Start the Replit-only timer first: time building the same prompt on Replit alone, complete the timer, then submit the costs.' });
    expect(await getExperiment(client, experiment.id)).toMatchObject({ replitOnlyCostCents: null, savingsPercent: null, status: 'wolfpack_complete' });
    // While it runs.
    expect((await client.post(`/api/experiments/${experiment.id}/replit-start`)).status).toBe(200);
    const timing = await submit(costs);
    expect(timing.status).toBe(409);
    expect(timing.json.error).toBe('Complete the Replit-only timer first: the costs are submitted once the Replit-only build is done.');
    expect((await client.post(`/api/experiments/${experiment.id}/replit-complete`)).status).toBe(200);

    const first = await submit(costs);
    expect(first.status).toBe(200);
    const result = experimentReply.parse(first.json).experiment;
    expect(result).toMatchObject({ status: 'completed', savingsPercent: 85 });
    // A repeat (a double click, a retried request) answers the same result.
    const again = await submit(costs);
    expect(again.status).toBe(200);
    expect(experimentReply.parse(again.json).experiment).toEqual(result);
    // Other costs do not replace it: 85 % does not become -66.67 %.
    const other = await submit({ wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 180 });
    expect(other.status).toBe(409);
    expect(other.json.error).toBe('The costs of this experiment were already submitted, and its savings are computed from them. To compare other costs, start a new experiment.');
    expect(await getExperiment(client, experiment.id)).toEqual(result);
    // Two different submissions at once: exactly one is taken.
    const racer = await startExperiment(client, { projectName: 'Race' });
    await waitForRun(client, racer.id);
    await timeReplitBuild(client, racer.id);
    const raced = await Promise.all([100, 200].map((replitOnlyCostCents) => client.post(`/api/experiments/${racer.id}/submit-costs`, { wolfpackReplitAssemblyCostCents: 50, replitOnlyCostCents })));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const kept = raced.find((r) => r.status === 200)!;
    expect(await getExperiment(client, racer.id)).toEqual(experimentReply.parse(kept.json).experiment);
  });

  it("keeps each user's experiments to that user and answers 404 for bad ids", async () => {
    const server = await start();
    const alice = await signedIn(server, 'alice');
    const bob = await signedIn(server, 'bob');
    const mine = await startExperiment(alice);

    expect(experimentsReply.parse((await bob.get('/api/experiments')).json).experiments).toEqual([]);
    for (const res of [
      await bob.get(`/api/experiments/${mine.id}`),
      await bob.post(`/api/experiments/${mine.id}/replit-start`),
      await bob.post(`/api/experiments/${mine.id}/replit-complete`),
      await bob.post(`/api/experiments/${mine.id}/submit-costs`, { wolfpackReplitAssemblyCostCents: 1, replitOnlyCostCents: 2 }),
      await alice.get('/api/experiments/not-an-id'),
      await alice.get('/api/experiments/00000000-0000-4000-8000-000000000000'),
      await alice.post('/api/experiments/00000000-0000-4000-8000-000000000000/replit-start'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    // Bob's attempts changed nothing.
    expect((await getExperiment(alice, mine.id)).replitOnlyStartedAt).toBeNull();

    const anonymous = new TestClient(server.url);
    expect((await anonymous.get('/api/experiments')).status).toBe(401);
    expect((await anonymous.post('/api/experiments/start', { projectName: 'A', testPrompt: 'B' })).status).toBe(401);

    const second = await startExperiment(alice, { projectName: 'Second' });
    const list = experimentsReply.parse((await alice.get('/api/experiments')).json).experiments;
    expect(list.map((e) => e.id).sort()).toEqual([mine.id, second.id].sort());
    await waitForRun(alice, mine.id);
    await waitForRun(alice, second.id);
  });
});
