/**
 * `wolfpack enhance` and `wolfpack build --enhance` from the built binary against a real server
 * with the offline demo engines (2 passes × 4 engines): JSON lines, the prompt alone on stdout
 * for `$(wolfpack enhance …)`, the enhancement linked to the project it built, and the live grid
 * in a real terminal (tmux).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promptHistoryReply } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiGet,
  BIN,
  hasTmux,
  loginCli,
  parseJsonLines,
  runCli,
  startTestServer,
  storedToken,
  tmuxServer,
  type CliResult,
  type RunOptions,
  type TestServer,
} from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

interface JsonLine {
  eventId: number;
  type: string;
  [key: string]: unknown;
}

let server: TestServer;
let home: string;
let configFile: string;

beforeAll(async () => {
  server = await startTestServer();
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-enhance-'));
  configFile = join(home, 'config.json');
  await loginCli(server.url, 'enhancer', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

function wolfpack(args: string[], options: RunOptions = {}, url = server.url): Promise<CliResult> {
  return runCli(args, { ...options, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: url, ...options.env } });
}

describe('wolfpack enhance', () => {
  it('--json: one JSON object per event, the 8 steps and then complete', async () => {
    const idea = 'a habit tracker with streaks';
    const result = await wolfpack(['enhance', idea, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lines = parseJsonLines<JsonLine>(result.stdout);
    expect(lines.map((line) => line.eventId)).toEqual(lines.map((_, i) => i + 1));

    const steps = lines.filter((line) => line.type === 'step');
    expect(steps).toHaveLength(8);
    expect(steps.map((step) => [step['passNumber'], (step['progress'] as { current: number }).current])).toEqual([
      [1, 1], [1, 2], [1, 3], [1, 4], [2, 5], [2, 6], [2, 7], [2, 8],
    ]);
    const complete = lines.at(-1)!;
    expect(complete.type).toBe('complete');
    expect(lines.findIndex((line) => line.type === 'complete')).toBeGreaterThan(lines.lastIndexOf(steps.at(-1)!));
    expect(complete['finalPrompt']).toContain(idea);
    expect(result.stderr).toBe('');
  });

  it('plain: the enhanced prompt alone on stdout, the progress on stderr', async () => {
    const idea = 'a recipe box for family dinners';
    const result = await wolfpack(['enhance', idea]);
    expect(result.code, result.stderr).toBe(0);
    // What `PROMPT=$(wolfpack enhance "…")` captures: the prompt and nothing else.
    expect(result.stdout).toContain(idea);
    expect(result.stdout).not.toMatch(/^\[/m);
    expect(result.stdout.trimEnd().length).toBeGreaterThan(idea.length);
    expect(result.stdout.endsWith('\n')).toBe(true);

    const progress = result.stderr.trimEnd().split('\n');
    expect(progress.filter((line) => line.startsWith('[step] '))).toHaveLength(8);
    expect(progress.some((line) => /^\[step\] Pass 1, engine \d done \(demo-\w+\): 1 of 8, 13%, ~\d+s left$/.test(line))).toBe(true);
    expect(progress.some((line) => /^\[step\] Pass 2, engine \d done \(demo-\w+\): 8 of 8, 100%, merging the proposals$/.test(line))).toBe(true);
    expect(progress.at(-1)).toMatch(/^\[complete\] Enhanced prompt ready \(\d+ characters\)$/);
    expect(result.stdout + result.stderr).not.toContain('\u001B[');
  });

  it('refuses a blank prompt before sending it, and needs a login', async () => {
    expect(await wolfpack(['enhance', '   '])).toEqual({ code: 2, stdout: '', stderr: 'wolfpack: Please enter a prompt to enhance. See `wolfpack --help`.\n' });
    const other = await runCli(['enhance', 'a todo app'], { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'none.json'), WOLFPACK_URL: server.url } });
    expect(other).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n` });
  });
});

describe('wolfpack build --enhance', () => {
  it('enhances first, builds from the enhanced prompt, and the project keeps its 8-step prompt history', async () => {
    const idea = 'a plant watering reminder';
    const result = await wolfpack(['build', '--enhance', idea, '--json']);
    expect(result.code, result.stderr).toBe(0);

    // stdout is the run's events only, numbered from 1, as for a plain build.
    const lines = parseJsonLines<JsonLine>(result.stdout);
    expect(lines.map((line) => line.eventId)).toEqual(lines.map((_, i) => i + 1));
    expect(lines[0]?.type).toBe('run');
    const complete = lines.at(-1)!;
    expect(complete.type).toBe('complete');
    // The enhancement went to stderr, then the prompt the run was built from.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('[step] '))).toHaveLength(8);
    expect(result.stderr).toContain('Building from the enhanced prompt:\n');

    const token = await storedToken(configFile, server.url);
    const history = promptHistoryReply.parse(await apiGet(server.url, token, `/api/projects/${complete['projectId'] as string}/prompt-history`));
    expect(history.steps).toHaveLength(8);
    expect(history.enhancement?.sourcePrompt).toBe(idea);
    expect(history.enhancement?.finalPrompt).toContain(idea);
  });
});

describe.skipIf(!hasTmux())('in a terminal (tmux)', () => {
  const terminal = tmuxServer('wolfpack-cli-enhance');
  let slow: TestServer;

  beforeAll(async () => {
    // Each engine call takes 0.7 s, so the grid is seen while it fills.
    slow = await startTestServer({ env: { WOLFPACK_DEMO_DELAY_MS: '700' } });
    await loginCli(slow.url, 'watcher', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
  }, 120_000);

  afterAll(async () => {
    terminal.close();
    await slow?.close();
  });

  it('draws the step grid live, then prints the enhanced prompt', async () => {
    // CI unset: under CI=true Ink draws only the final frame, and a person at a terminal sees frames.
    const command = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${slow.url}' HOME='${home}' '${process.execPath}' '${BIN}' enhance 'a pomodoro timer'; echo "EXIT=$?"; sleep 600`;
    terminal.start('enhance', command);

    const running = await terminal.waitFor('enhance', /Pass 1\s+\S+\s+\S+\s+\S+\s+\S+\s*\n\s*Pass 2/);
    expect(running).toMatch(/Enhancing the prompt: 2 passes × 4 engines/);
    expect(running).toMatch(/Engine 1\s+Engine 2\s+Engine 3\s+Engine 4/);
    expect(running).not.toContain('EXIT=');
    // Pass 1 done, pass 2 under way: check marks above spinners, and the time left as ~Ns.
    const midway = await terminal.waitFor('enhance', /Pass 1\s+(?:✔ demo-\w+ *){4}\n\s*Pass 2\s+[^✔○\s]/);
    expect(midway).toMatch(/[█░]{30}\s+50%\s+~\d+s left/);

    const done = await terminal.waitFor('enhance', /EXIT=\d+/);
    expect(done).toContain('EXIT=0');
    expect(done).toContain('Enhanced the prompt');
    expect(done).toMatch(/Pass 2\s+(?:✔ demo-\w+ *){4}\n/);
    expect(done).toMatch(/█{30}\s+100%/);
    // The prompt comes after the grid.
    const after = done.slice(done.indexOf('Enhanced the prompt'));
    expect(after).toMatch(/\n\na pomodoro timer\s*\n[\s\S]*Build it as a responsive single-page web app/);
  }, 90_000);
});
