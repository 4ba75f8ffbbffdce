/**
 * `wolfpack build` and `wolfpack attach` from the built binary against a real server with the
 * offline demo engines: what a script sees (JSON lines, plain lines, exit codes, files on disk)
 * and what a person sees in a real terminal (tmux: the live view, Ctrl+C detaches, attach).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectDetailReply } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, hasTmux, loginCli, runCli, startTestServer, storedToken, tmuxServer, type CliResult, type RunOptions, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

let server: TestServer;
let home: string;
let configFile: string;

beforeAll(async () => {
  server = await startTestServer();
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-build-'));
  configFile = join(home, 'config.json');
  await loginCli(server.url, 'builder', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

function wolfpack(args: string[], options: RunOptions = {}, url = server.url): Promise<CliResult> {
  return runCli(args, { ...options, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: url, ...options.env } });
}

interface JsonLine {
  eventId: number;
  type: string;
  [key: string]: unknown;
}

/** Every stdout line as JSON; fails the test on a line that is not. */
function jsonLines(stdout: string): JsonLine[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as JsonLine);
}

function expectWholeRun(lines: JsonLine[]): void {
  expect(lines.map((line) => line.eventId)).toEqual(lines.map((_, i) => i + 1));
  expect(lines[0]?.type).toBe('run');
  expect(lines.at(-1)?.type).toBe('complete');
}

async function projectFiles(url: string, projectId: string): Promise<Record<string, string>> {
  const token = await storedToken(configFile, url);
  const response = await fetch(`${url}/api/projects/${projectId}`, { headers: { authorization: `Bearer ${token}` } });
  return projectDetailReply.parse(await response.json()).project.fsIndex;
}

/** Every file under `dir` with its content. */
async function filesIn(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file.slice(dir.length + 1), await readFile(file, 'utf8')] as const)));
}

describe('from a script', () => {
  it('--json: one JSON object per event, numbered without gaps, then the files byte for byte', async () => {
    const out = join(home, 'json-out');
    const result = await wolfpack(['build', 'a habit tracker with streaks', '--json', '--out', out, '--engines', 'demo-beta,demo-alpha']);
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout);
    expectWholeRun(lines);
    expect(lines.some((line) => line.type === 'stage' && line['role'] === 'Building')).toBe(true);
    expect(lines.some((line) => line.type === 'log' && typeof line['id'] === 'string')).toBe(true);

    const complete = lines.at(-1)!;
    const fsIndex = await projectFiles(server.url, complete['projectId'] as string);
    expect(Object.keys(fsIndex).length).toBe(complete['filesGenerated']);
    expect(await filesIn(out)).toEqual(fsIndex);
    // stderr is for people: the demo notice and the summary.
    expect(result.stderr).toContain('Demo engines are active');
    expect(result.stderr).toContain(`Files written to ${out} (${Object.keys(fsIndex).length}).`);
  });

  it('plain lines outside a terminal, one per event, no colour', async () => {
    const result = await wolfpack(['build', 'a recipe box']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\[run\] Run [0-9a-f-]{36} started$/);
    expect(lines).toContain('[stage] Building started (engine demo-beta)');
    expect(lines.some((line) => /^\[stage\] Proven Code done in [\d.]+s \(engine [\w-]+\), 100% of the run$/.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith('[log] '))).toBe(true);
    expect(result.stdout).toMatch(/^\[complete\] \d+ files generated, project [0-9a-f-]{36}$/m);
    expect(result.stdout).toMatch(/^Project [0-9a-f-]{36}: \d+ files generated in [\d.]+s\.$/m);
    expect(result.stdout).toMatch(/^Write the files to a folder with: wolfpack attach [0-9a-f-]{36} --out DIR$/m);
    // The test server runs no generated code (WOLFPACK_SANDBOX=off): the verdict says so, never "passed".
    expect(result.stdout).toContain('Proven Code: not proven');
    expect(result.stdout).toMatch(/Not proven: .*not executed: no sandbox on this server/);
    expect(result.stdout + result.stderr).not.toContain('\u001B[');
    expect(result.stderr).toMatch(/^Note: Demo engines are active/);
    // Before the run, what it would cost; the demo engines cost nothing, so no line says what it cost so far.
    expect(result.stderr).toContain('\nEstimated cost: free (these engines cost nothing).\n');
    expect(lines.some((line) => line.startsWith('[cost]'))).toBe(false);
  });

  it('says once, before the run, why the verdict is "not proven" and the command that fixes it', async () => {
    // The test server runs with WOLFPACK_SANDBOX=off.
    const sentence = /^Note: Proven Code cannot run generated code on this server \(the sandbox is turned off with WOLFPACK_SANDBOX=off(; Chromium is not installed)?\), so verdicts are "not proven"\. Fix: (sudo apt-get install chromium, then )?restart the server without WOLFPACK_SANDBOX=off$/;
    for (const args of [[], ['--json']]) {
      const result = await wolfpack(['build', 'a tip calculator', ...args]);
      expect(result.code, result.stderr).toBe(0);
      const notes = result.stderr.split('\n').filter((line) => line.includes('Proven Code cannot'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(sentence);
      // Before the run: stdout (its events) never carries it, however many events there are.
      expect(result.stdout).not.toContain('Proven Code cannot');
      // Under --json the summary goes to stderr too, after it: the note came first.
      const summary = args.length > 0 ? result.stderr : result.stdout;
      expect(summary).toContain('Proven Code: not proven');
      if (args.length > 0) expect(result.stderr.indexOf(notes[0]!)).toBeLessThan(result.stderr.indexOf('Proven Code: not proven'));
    }
  });

  it('attach replays a finished run and writes its files', async () => {
    const first = await wolfpack(['build', 'a metronome', '--json']);
    const runId = jsonLines(first.stdout)[0]!['runId'] as string;
    const out = join(home, 'attach-out');
    const again = await wolfpack(['attach', runId, '--json', '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    // The same events; the build's first line also carried what the run was estimated to cost.
    const built = jsonLines(first.stdout);
    expect(built[0]).toMatchObject({ type: 'run', estimate: { lowCents: 0, highCents: 0 } });
    const replayed = jsonLines(again.stdout);
    expect(replayed[0]).not.toHaveProperty('estimate');
    delete built[0]!['estimate'];
    expect(replayed).toEqual(built);
    const since = jsonLines((await wolfpack(['attach', runId, '--json', '--since', '5'])).stdout);
    expect(since[0]?.eventId).toBe(6);
    expect(Object.keys(await filesIn(out)).length).toBeGreaterThan(0);
  });

  it('an unknown engine is one line on stderr, exit 1', async () => {
    const result = await wolfpack(['build', 'a todo app', '--engines', 'nope']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'wolfpack: Unknown engine "nope". Available engines: demo-alpha, demo-beta, demo-gamma, demo-delta.\n',
    });
  });

  it('checks the request before sending it: blank idea, attachments, --out', async () => {
    expect(await wolfpack(['build', '   '])).toEqual({ code: 2, stdout: '', stderr: 'wolfpack: Please enter an idea or speak. See `wolfpack --help`.\n' });
    expect(await wolfpack(['build', 'x app', '--cycles', '0'])).toEqual({ code: 2, stdout: '', stderr: 'wolfpack: Run at least 1 cycle. See `wolfpack --help`.\n' });

    const big = join(home, 'big.txt');
    await writeFile(big, '');
    await truncate(big, 5 * 1024 * 1024 + 1);
    expect(await wolfpack(['build', 'a todo app', '--attach', big])).toEqual({ code: 2, stdout: '', stderr: 'wolfpack: big.txt exceeds 5MB limit\n' });

    const full = join(home, 'full');
    await mkdir(full, { recursive: true });
    await writeFile(join(full, 'mine.txt'), 'keep');
    const refused = await wolfpack(['build', 'a todo app', '--out', full]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`wolfpack: ${full} is not empty. Pick a new or empty folder for --out, or add --force to write the project over it.\n`);

    expect((await wolfpack(['build', 'a todo app', '--cycles', '6'])).stderr).toBe('wolfpack: Run at most 5 cycles. See `wolfpack --help`.\n');
  });

  it('needs a login, and names a run that does not exist', async () => {
    const other = await runCli(['build', 'a todo app'], { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'none.json'), WOLFPACK_URL: server.url } });
    expect(other).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n` });
    const missing = await wolfpack(['attach', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^wolfpack: There is no run 00000000-0000-4000-8000-000000000000 of yours on /);
  });
});

describe.skipIf(!hasTmux())('in a terminal (tmux)', () => {
  const term = tmuxServer('wolfpack-cli-build');
  let slow: TestServer;

  beforeAll(async () => {
    // Slow enough to watch: every engine call waits a second, so a stage lasts about that long.
    slow = await startTestServer({ env: { WOLFPACK_DEMO_DELAY_MS: '1000' } });
    await loginCli(slow.url, 'watcher', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
  }, 120_000);

  afterAll(async () => {
    term.close();
    await slow?.close();
  });

  it('shows the live view, detaches on Ctrl+C, and attach then follows the run to the end', async () => {
    // CI unset: under CI=true Ink draws only the final frame, and a person at a terminal sees frames.
    // A folder whose name the shell would split: the reattach hint must quote it.
    const out = join(home, 'pomodoro app');
    const command = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${slow.url}' HOME='${home}' '${process.execPath}' '${BIN}' build 'a pomodoro timer' --out '${out}' --strict; echo "EXIT=$?"; sleep 600`;
    term.start('build', command);

    const live = await term.waitFor('build', /Building with engine/);
    expect(live).toMatch(/Wolfpack run [0-9a-f-]{36}/);
    for (const stage of ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']) expect(live).toContain(stage);
    expect(live).toMatch(/✔ Planning/);
    expect(live).toMatch(/[█░]{30}\s+\d+%\s+stage \d of 5\s+elapsed \d+:\d\d\s+ETA (\d+:\d\d|—)/);
    expect(live).toContain('Activity');
    expect(live).not.toContain('EXIT=');

    term.tmux('send-keys', '-t', 'build', 'C-c');
    const after = await term.waitFor('build', /EXIT=\d+/);
    // The hint carries the --out (and --strict) given to build, so reattaching still writes the files.
    const detached = /Detached\. The run continues on the server; reattach with: wolfpack attach ([0-9a-f-]{36}) --out (.+) --strict\n/.exec(after);
    expect(detached, after).not.toBeNull();
    expect(detached![2]).toBe(`'${out}'`);
    expect(after).toContain('EXIT=130');

    const attached = await wolfpack(['attach', detached![1]!, '--json', '--out', out, '--strict'], { timeoutMs: 60_000 }, slow.url);
    expect(attached.code, attached.stderr).toBe(0);
    expectWholeRun(jsonLines(attached.stdout));
    expect((await readdir(out)).length).toBeGreaterThan(0);
  }, 90_000);
});
