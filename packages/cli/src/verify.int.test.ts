/**
 * Proven Code from the terminal against real servers with the demo engines: `build
 * --require-proof` and `wolfpack verify` with the sandbox off (everything "not proven", exit 5,
 * never "passed"), and, where bubblewrap works, with it on (the demo page really loads: exit 0).
 * Exit codes and the `--json` record are what a CI script relies on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipelineCompleteEvent, verificationRecord, verificationReply } from '@wolfpack/core';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, loginCli, parseJsonLines, runCli, startTestServer, storedToken, type CliResult, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';
const sandboxed = needTool(await sandboxCheck(), 'the CLI verify tests with the sandbox');

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-verify-'));
});

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

/** A server of its own, a user logged in to it, and the CLI pointed at both. */
function useServer(name: string, env: Record<string, string>) {
  const state = { server: undefined as TestServer | undefined, configFile: '' };
  beforeAll(async () => {
    state.server = await startTestServer({ env });
    state.configFile = join(home, `${name}.json`);
    await loginCli(state.server.url, name, PASSWORD, { HOME: home, WOLFPACK_CONFIG: state.configFile });
  }, 120_000);
  afterAll(async () => {
    await state.server?.close();
  });
  const wolfpack = (args: string[]): Promise<CliResult> =>
    runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: state.configFile, WOLFPACK_URL: state.server!.url }, timeoutMs: 90_000 });
  /** Builds through the CLI with --require-proof; the complete event and the exit code. */
  const build = async (idea: string) => {
    const result = await wolfpack(['build', idea, '--json', '--require-proof']);
    const complete = pipelineCompleteEvent.parse(parseJsonLines(result.stdout).at(-1));
    return { result, complete };
  };
  return { state, wolfpack, build };
}

describe('with the sandbox off', () => {
  const { state, wolfpack, build } = useServer('nosandbox', { WOLFPACK_SANDBOX: 'off' });
  let projectId = '';

  it('build --require-proof exits 5: the run completed, but nothing that applies could run', async () => {
    const { result, complete } = await build('A pomodoro timer with a task list');
    expect(result.code).toBe(5);
    expect(complete.verification).toMatchObject({ passed: true, verdict: 'unproven' });
    expect(complete.verification?.notProven).toMatch(/not executed: no sandbox on this server/);
    // Under --json the summary goes to stderr, then the one-line reason for the exit code.
    expect(result.stderr).toContain('Proven Code: not proven\n  Proven: ');
    expect(result.stderr).toContain('\n  Not proven: not executed: no sandbox on this server');
    expect(result.stderr.endsWith('wolfpack: The project was not proven (see above); exiting with 5 because of --require-proof.\n')).toBe(true);
    projectId = complete.projectId;
  }, 90_000);

  it('verify re-checks and prints every check, skipped ones with their reason, and exits 5', async () => {
    const result = await wolfpack(['verify', projectId]);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^passed {3}syntax +read +\d+ files?$/m);
    expect(result.stdout).toMatch(/^skipped {2}page-load +ran \(web\) +1 file +skipped: .*no sandbox/m);
    expect(result.stdout).toMatch(/^Proven Code: not proven \(version 1, checked \d{4}-\d\d-\d\d \d\d:\d\d\)$/m);
    expect(result.stdout).toMatch(/^ {2}Not proven: not executed: no sandbox on this server.*README\.md/m);
    expect(result.stdout).not.toMatch(/Proven Code: passed/);
  }, 60_000);

  it('verify --json prints the record alone; --no-recheck reads the stored one; a short id is enough', async () => {
    const rechecked = await wolfpack(['verify', projectId, '--json']);
    expect(rechecked.code).toBe(5);
    const record = verificationRecord.parse(JSON.parse(rechecked.stdout));
    expect(record).toMatchObject({ version: 1, verdict: 'unproven', executed: false });
    expect(record.checks.filter((c) => c.kind === 'execution').every((c) => c.status === 'skipped')).toBe(true);

    const stored = await wolfpack(['verify', projectId.slice(0, 8), '--no-recheck', '--json']);
    expect(stored.code).toBe(5);
    expect(verificationRecord.parse(JSON.parse(stored.stdout))).toEqual(record);
    // The server kept exactly what the CLI printed.
    const token = await storedToken(state.configFile, state.server!.url);
    expect(verificationReply.parse(await apiGet(state.server!.url, token, `/api/projects/${projectId}/verification`)).verification).toEqual(record);
  }, 60_000);

  it('verify of an unknown project exits 1 with a sentence', async () => {
    const result = await wolfpack(['verify', '00000000-0000-4000-8000-000000000000']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n' });
  });
});

describe.skipIf(!sandboxed)('with the sandbox (bubblewrap)', () => {
  const { wolfpack, build } = useServer('sandboxed', { WOLFPACK_SANDBOX: 'on' });

  it('build --require-proof and verify exit 0: the demo page really loaded in the sandbox', async () => {
    const { result, complete } = await build('A pomodoro timer with a task list');
    expect(result.code, result.stderr).toBe(0);
    expect(complete.verification).toMatchObject({ passed: true, verdict: 'passed' });
    expect(result.stderr).toContain('Proven Code: passed\n  Proven: ');

    const verified = await wolfpack(['verify', complete.projectId]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^passed {3}page-load +ran \(web\) +\d+ files/m);
    expect(verified.stdout).toMatch(/^Proven Code: passed \(version 1, /m);

    // Two at once: the project is checked one at a time, and the second says what to wait for.
    const both = await Promise.all([wolfpack(['verify', complete.projectId]), wolfpack(['verify', complete.projectId])]);
    expect(both.map((r) => r.code).sort()).toEqual([0, 1]);
    const refused = both.find((r) => r.code === 1)!;
    expect(refused.stderr).toContain(
      'This project is already being checked: a re-check or a repair of it is running or waiting for a sandbox, and a project is checked one at a time. Wait for it to finish (its result is shown when it does), then re-check again if you still need to.',
    );
    expect(refused.stdout).toBe('');
  }, 150_000);
});
