/**
 * The steps of Checking and Proven Code through the server, for a real project in the sandbox: each
 * step (install, type check, tests, start) sends a start line and an end line with the time it
 * took, from Proven Code's own thread; a replay of the stored run (GET …/events) gives the same
 * lines with the same steps.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logEvent, type ChatMessage, type LogEvent, type PipelineEvent } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { needTool, sandboxCheck, startFakeNpmRegistry, STEPPED_PACKAGES, steppedProject, steppedReply, type FakeNpmRegistry } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { completeBuild, readEvents } from '../testing/sse-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), "the step lines of a project run in Proven Code's sandbox");

/** The test waits this long: a step that takes a known time, to compare with the time its line says. */
const TEST_MS = 2500;
const files = steppedProject(TEST_MS);

const stepLines = (events: readonly { event: PipelineEvent }[]) => events.flatMap((e) => (e.event.type === 'log' && e.event.step ? [e.event] : []));

describe.skipIf(!sandboxed)('step lines of Checking and Proven Code', () => {
  let engine: OpenAIFakeServer;
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  let server: TestServer;

  beforeAll(async () => {
    registry = await startFakeNpmRegistry(STEPPED_PACKAGES);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-steps-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    engine = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [steppedReply(files, (request.body as { messages: ChatMessage[] }).messages)] }) });
    server = await startTestServer('pglite', {
      env: {
        WOLFPACK_SANDBOX: 'on',
        WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
        npm_config_registry: registry.url,
        WOLFPACK_PROOF_CACHE_DIR: cacheDir,
        // The defaults (20 s for all checks) are for a server's own machine; two suites beside this
        // one slowed the type check alone past them, and this test is about the lines, not the limits.
        WOLFPACK_PROOF_TIME_LIMIT_MS: '120000',
        // One command (the sleeping test) gets as long: a loaded machine runs it past the default 15 s.
        WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS: '120000',
        // And a start gets 20 s to end before it counts as hanging: the project's program ends at
        // once, yet Node took over 3 s to run it there.
        WOLFPACK_PROOF_START_MS: '20000',
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await engine?.close();
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('sends a start line and an end line with its time for the install, the type check, the tests and the start, and replays them', { timeout: 180_000 }, async () => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'stepper', password: 'correct-horse' })).status).toBe(201);
    const events = await completeBuild(server.url, client.cookieHeader(), 'A greeter');
    const last = events.at(-1)!.event as Extract<PipelineEvent, { type: 'complete' }>;
    expect(last.verification, JSON.stringify(last.verification)).toMatchObject({ passed: true, verdict: 'passed' });
    const lines = stepLines(events);
    for (const line of lines) expect(logEvent.parse(line)).toEqual(line);

    // Every step that started ended, after its start, with the same start time.
    const starts = lines.filter((l) => l.step!.state === 'running');
    const ends = new Map(lines.filter((l) => l.step!.state !== 'running').map((l) => [l.step!.id, l]));
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(ends.size).toBe(starts.length);
    for (const start of starts) {
      const end = ends.get(start.step!.id)!;
      expect(end.step!.startedAt).toBe(start.step!.startedAt);
      expect(lines.indexOf(end)).toBeGreaterThan(lines.indexOf(start));
    }
    const endOf = (startText: string): LogEvent => {
      const start = starts.find((l) => l.message === startText);
      if (!start) throw new Error(`no step line "${startText}" among ${JSON.stringify(starts.map((l) => l.message))}`);
      return ends.get(start.step!.id)!;
    };
    // Checking ran the project: its lines come between Checking's stage events, before Proven Code's.
    const checking = events.findIndex((e) => e.event.type === 'stage' && e.event.role === 'Checking');
    const proven = events.findIndex((e) => e.event.type === 'stage' && e.event.role === 'Proven Code');
    const firstStart = events.findIndex((e) => e.event.type === 'log' && e.event.step?.state === 'running');
    expect(firstStart).toBeGreaterThan(checking);
    expect(firstStart).toBeLessThan(proven);

    const install = endOf('Installing 1 dependency…');
    expect(install).toMatchObject({ level: 'success', step: { state: 'passed' } });
    expect(install.message).toMatch(/^Installed 1 dependency( from the cache)? in \d+\.\d s$/);
    const typeCheck = endOf('Type checking 3 TypeScript files…');
    expect(typeCheck.message).toMatch(/^Type check passed in \d+\.\d s$/);
    const tests = endOf('Running the tests…');
    expect(tests.message).toMatch(/^1 test passed in \d+\.\d s$/);
    // The test sleeps 2.5 s: the line's time is the step's, not a guess.
    expect(tests.step!.elapsedMs).toBeGreaterThanOrEqual(TEST_MS);
    expect(tests.step!.elapsedMs).toBeLessThan(TEST_MS + 15_000);
    expect(tests.message).toBe(`1 test passed in ${(tests.step!.elapsedMs! / 1000).toFixed(1)} s`);
    expect(endOf('Starting the app…').message).toMatch(/^Started the app in \d+\.\d s$/);
    // The steps ran on Proven Code's thread and came back as messages.
    expect(server.proofThread?.alive).toBe(true);

    // A replay of the stored run (a reload, a resume) shows the same lines, steps and all.
    const runId = (events[0]!.event as Extract<PipelineEvent, { type: 'run' }>).runId;
    const replay = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader() } });
    expect(stepLines(replay.events)).toEqual(lines);
  });
});
