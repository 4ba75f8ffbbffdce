/**
 * `wolfpack repair` from the built binary against a real server ("Repair again"). The
 * engine is a local OpenAI-compatible fake answering like the demo engines, except that until
 * `mode.fixes` is set every app.js it writes starts with a syntax error, so the Proven Code gate
 * fails for real. The sandbox is off: a repaired project is "not proven" (exit 5 under
 * --require-proof), never "passed".
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipelineCompleteEvent, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer, type RecordedRequest } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, hasTmux, loginCli, parseJsonLines, runCli, startTestServer, tmuxServer, type CliResult, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';
const NOT_FOUND = 'Project not found. `wolfpack projects ls` lists your projects.';
const nothingFailed = (id: string) =>
  `Nothing in this project failed Proven Code, so there is nothing to repair. \`wolfpack verify ${id}\` checks it again and names what could not run.`;
const messagesOf = (request: RecordedRequest) => (request.body as { messages: ChatMessage[] }).messages;
/** A repair round's prompt (core's stage-repair) as opposed to a build stage's. */
const isRepair = (request: RecordedRequest) =>
  /Automated checks found problems/.test(String(messagesOf(request).find((m) => m.role === 'system')?.content ?? ''));

const mode = { fixes: false };
let engine: OpenAIFakeServer;
let server: TestServer;
let home: string;
let configFile: string;

beforeAll(async () => {
  engine = await startFakeOpenAIServer({
    fallback: (request) => {
      const text = demoReply(messagesOf(request));
      return { kind: 'stream', deltas: [mode.fixes ? text : text.replaceAll('```js app.js\n', '```js app.js\nconst = ;\n')] };
    },
  });
  server = await startTestServer({
    env: {
      WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]),
    },
  });
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-repair-'));
  configFile = join(home, 'config.json');
  await loginCli(server.url, 'repairer', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

function wolfpack(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url }, timeoutMs: 90_000 });
}

describe('wolfpack repair', () => {
  let projectId = '';

  it('a build whose gate fails exits 3 under --require-proof', async () => {
    const result = await wolfpack(['build', 'A habit tracker with daily streaks', '--json', '--require-proof']);
    expect(result.code, result.stderr).toBe(3);
    const complete = pipelineCompleteEvent.parse(parseJsonLines(result.stdout).at(-1));
    expect(complete.verification).toMatchObject({ passed: false, verdict: 'failed' });
    projectId = complete.projectId;
  }, 90_000);

  it('repairs with Proven Code alone, says so line by line, and exits 3 when it still fails', async () => {
    const callsBefore = engine.requests.length;
    // The first 8 characters of the id are enough, as for every project command.
    const result = await wolfpack(['repair', projectId.slice(0, 8), '--require-proof']);
    expect(result.code, result.stderr).toBe(3);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^\[run\] Run [0-9a-f-]{36} started: Proven Code only$/);
    const stageLines = lines.filter((line) => line.startsWith('[stage]'));
    expect(stageLines).toHaveLength(2);
    expect(stageLines[0]).toBe('[stage] Proven Code started (engine alpha)');
    expect(stageLines[1]).toMatch(/^\[stage\] Proven Code finished with problems in [\d.]+s \(engine alpha\), 100% of the run$/);
    expect(result.stdout).toMatch(/^\[log\] .*Refunded \$\d+\.\d\d for repair rounds/m);
    expect(result.stdout).toContain(`Project ${projectId}: repair run (Proven Code only) on its `);
    expect(result.stdout).toContain('\nProven Code: failed\n');
    expect(result.stdout).toMatch(/^ {4}app\.js \(syntax\): /m);
    expect(result.stderr).toBe('wolfpack: Proven Code failed (see above); exiting with 3 because of --require-proof.\n');
    // Only repair rounds went to the engine.
    const calls = engine.requests.slice(callsBefore);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every(isRepair)).toBe(true);
  }, 90_000);

  it('--json: the run event names its stages, only Proven Code runs, and the repaired files are written (exit 5: not proven)', async () => {
    mode.fixes = true;
    const out = join(home, 'repaired');
    const result = await wolfpack(['repair', projectId, '--json', '--require-proof', '--out', out, '--engines', 'alpha']);
    expect(result.code, result.stderr).toBe(5);
    const events = parseJsonLines(result.stdout) as Array<{ eventId: number; type: string; role?: string; stages?: string[] }>;
    expect(events.map((event) => event.eventId)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: 'run', stages: ['Proven Code'] });
    expect(new Set(events.filter((event) => event.type === 'stage').map((event) => event.role))).toEqual(new Set(['Proven Code']));
    const complete = pipelineCompleteEvent.parse(events.at(-1));
    expect(complete).toMatchObject({ projectId, verification: { passed: true, verdict: 'unproven' } });
    // Under --json the summary goes to stderr, then the reason for the exit code.
    expect(result.stderr).toContain('repair run (Proven Code only)');
    expect(result.stderr).toContain('Proven Code: not proven');
    expect(result.stderr.endsWith('wolfpack: The project was not proven (see above); exiting with 5 because of --require-proof.\n')).toBe(true);
    expect(await readFile(join(out, 'app.js'), 'utf8')).not.toContain('const = ;');

    // Attached from the middle (its `run` event behind it), the run is still shown as a repair.
    const runId = (events[0] as unknown as { runId: string }).runId;
    const attached = await wolfpack(['attach', runId, '--since', '2']);
    expect(attached.code, attached.stderr).toBe(0);
    expect(attached.stdout).toContain('repair run (Proven Code only)');
  }, 90_000);

  it('is refused once nothing failed (pointing to `wolfpack verify`), and for engines or projects that do not exist', async () => {
    const nothing = await wolfpack(['repair', projectId]);
    expect(nothing).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${nothingFailed(projectId)}\n` });

    const engines = await wolfpack(['repair', projectId, '--engines', 'nope']);
    expect(engines.code).toBe(1);
    expect(engines.stderr).toBe('wolfpack: Unknown engine "nope". Available engines: alpha.\n');

    const missing = await wolfpack(['repair', 'ffffffff']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${NOT_FOUND}\n` });
  }, 60_000);
});

describe('wolfpack repair refused on a server with the demo engines', () => {
  let demo: TestServer;
  const configOf = (user: string) => join(home, `demo-${user}.json`);
  const as = (user: string, args: string[]) =>
    runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: configOf(user), WOLFPACK_URL: demo.url }, timeoutMs: 90_000 });

  beforeAll(async () => {
    demo = await startTestServer();
    for (const user of ['owner', 'stranger']) await loginCli(demo.url, user, PASSWORD, { HOME: home, WOLFPACK_CONFIG: configOf(user) });
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
  });

  // Refused before the demo engines' note: a refusal is the one line printed.
  it("says the same as other commands about another user's project, and points an unproven one to verify", async () => {
    const built = await as('owner', ['build', 'A pomodoro timer', '--json']);
    expect(built.code, built.stderr).toBe(0);
    const complete = pipelineCompleteEvent.parse(parseJsonLines(built.stdout).at(-1));
    expect(complete.verification).toMatchObject({ verdict: 'unproven' });

    expect(await as('stranger', ['repair', complete.projectId])).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${NOT_FOUND}\n` });
    expect(await as('owner', ['repair', complete.projectId.slice(0, 8)])).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${nothingFailed(complete.projectId)}\n` });
  }, 120_000);
});

describe.skipIf(!hasTmux())('wolfpack repair in a terminal (tmux)', () => {
  const term = tmuxServer('wolfpack-cli-repair');
  afterAll(() => term.close());

  it('the live view shows the one stage the run does, and how it ended', async () => {
    mode.fixes = false;
    const built = await wolfpack(['build', 'A pomodoro timer', '--json']);
    const { projectId } = pipelineCompleteEvent.parse(parseJsonLines(built.stdout).at(-1));
    // CI unset: under CI=true Ink draws only the final frame.
    const command = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${server.url}' HOME='${home}' '${process.execPath}' '${BIN}' repair ${projectId}; echo "EXIT=$?"; sleep 600`;
    term.start('repair', command);
    const shown = await term.waitFor('repair', /EXIT=\d+/, 60_000);
    expect(shown).toMatch(/Wolfpack repair run [0-9a-f-]{36} · Proven Code only/);
    expect(shown).toMatch(/✘ Proven Code/);
    // The stages this run does not do are not drawn as pending or done.
    for (const stage of ['Planning', 'Building', 'Polishing']) expect(shown).not.toMatch(new RegExp(`[○✔] ${stage}`));
    expect(shown).toContain('repair run (Proven Code only)');
    expect(shown).toContain('EXIT=0');
  }, 90_000);
});
