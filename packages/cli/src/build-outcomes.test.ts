/**
 * How `wolfpack build` ends for outcomes the demo engines never produce: a Proven Code gate with
 * problems (exit 0, or 3 with --strict or --require-proof), each verdict under --require-proof, a
 * run that fails (exit 1), a project with a hostile file path (refused, nothing written outside
 * --out), and `wolfpack verify` of a failed record. The binary talks to a local server that speaks
 * the real wire format and sends what each test needs.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeJsonEvent, type PipelineEvent, type VerificationRecord, type VerificationSummary } from '@wolfpack/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness.js';

const RUN = '11111111-2222-4333-8444-555555555555';
const PROJECT = '99999999-2222-4333-8444-555555555555';
const FAILED_GATE = { passed: false, checkedFiles: 2, problems: [{ path: 'app.js', check: 'imports', message: 'Cannot find ./missing.js' }] };

let ending: PipelineEvent;
let record: VerificationRecord | null;
let fsIndex: Record<string, string>;
let server: Server;
let url: string;
let home: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.headers.authorization !== 'Bearer wpk_test') {
      return res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Log in first.', code: 'UNAUTHORIZED' }));
    }
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/api/engines') return json({ engines: [{ key: 'real', supportsImages: true }], demo: false, notice: null });
    if (req.url === `/api/projects/${PROJECT}`) {
      return json({ project: { id: PROJECT, idea: 'x', createdAt: 'now', updatedAt: 'now', fsIndex }, files: Object.keys(fsIndex) });
    }
    if (req.url === `/api/projects/${PROJECT}/verification`) return json({ verification: record });
    if (req.url === '/api/wolfpack/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const events: PipelineEvent[] = [{ type: 'run', runId: RUN, conversationId: RUN }, ending];
      events.forEach((event, i) => res.write(encodeJsonEvent(event, { id: String(i + 1) })));
      return res.end();
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Not found', code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-outcomes-'));
  await writeFile(join(home, 'config.json'), JSON.stringify({ lastServer: url, logins: [{ server: url, token: 'wpk_test', username: 'ann' }] }));
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await rm(home, { recursive: true, force: true });
});

beforeEach(() => {
  fsIndex = { 'app.js': 'import "./missing.js";\n', 'index.html': '<script src="app.js"></script>\n' };
  ending = { type: 'complete', projectId: PROJECT, filesGenerated: 2, verification: FAILED_GATE, executionSeconds: 3 };
  record = null;
});

const complete = (verification: VerificationSummary | undefined): PipelineEvent => ({ type: 'complete', projectId: PROJECT, filesGenerated: 2, verification, executionSeconds: 3 });

const wolfpack = (args: string[]) => runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'config.json') } });

describe('how a build ends', () => {
  it('completes with exit 0 when the Proven Code gate found problems, and lists them', async () => {
    const result = await wolfpack(['build', 'a todo app']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Proven Code: 1 problem in 2 checked files:\n  app.js (imports): Cannot find ./missing.js\n');
    expect(result.stderr).toBe('');
  });

  it('exits 3 for the same run under --strict', async () => {
    const result = await wolfpack(['build', 'a todo app', '--strict']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('app.js (imports): Cannot find ./missing.js');
    expect(result.stderr).toBe('wolfpack: The Proven Code gate found problems (see above); exiting with 3 because of --strict.\n');
  });

  it('--require-proof: exit 5 when the project was not proven, with the verdict and both sentences', async () => {
    ending = complete({ passed: true, checkedFiles: 2, problems: [], verdict: 'unproven', proven: '2 files checked (syntax).', notProven: 'not executed: no sandbox on this server.' });
    const result = await wolfpack(['build', 'a todo app', '--require-proof']);
    expect(result.code).toBe(5);
    expect(result.stdout).toContain('Proven Code: not proven\n  Proven: 2 files checked (syntax).\n  Not proven: not executed: no sandbox on this server.\n');
    expect(result.stderr).toBe('wolfpack: The project was not proven (see above); exiting with 5 because of --require-proof.\n');
    // Without the flag the same run is a success: the verdict is printed, the exit code is 0.
    expect((await wolfpack(['build', 'a todo app'])).code).toBe(0);
  });

  it('--require-proof: exit 3 when Proven Code failed, with its problems', async () => {
    ending = complete({ ...FAILED_GATE, verdict: 'failed', proven: '2 files checked (imports).', notProven: 'imports failed: 1 problem.' });
    const result = await wolfpack(['build', 'a todo app', '--require-proof']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Proven Code: failed\n  Proven: 2 files checked (imports).\n  Not proven: imports failed: 1 problem.\n  1 problem:\n    app.js (imports): Cannot find ./missing.js\n');
    expect(result.stderr).toBe('wolfpack: Proven Code failed (see above); exiting with 3 because of --require-proof.\n');
    // A server without verdicts: passed === false is failed all the same.
    ending = complete(FAILED_GATE);
    expect((await wolfpack(['build', 'a todo app', '--require-proof'])).code).toBe(3);
  });

  it('--require-proof: exit 0 only when passed (a server without verdicts: passed), 5 without any verification', async () => {
    ending = complete({ passed: true, checkedFiles: 2, problems: [], verdict: 'passed', proven: '2 files checked (syntax), starts cleanly.', notProven: '' });
    const passed = await wolfpack(['build', 'a todo app', '--require-proof']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('Proven Code: passed\n  Proven: 2 files checked (syntax), starts cleanly.\n');
    expect(passed.stdout).not.toContain('Not proven');
    ending = complete({ passed: true, checkedFiles: 2, problems: [] });
    expect((await wolfpack(['build', 'a todo app', '--require-proof'])).code).toBe(0);
    ending = complete(undefined);
    const none = await wolfpack(['build', 'a todo app', '--require-proof']);
    expect(none.code).toBe(5);
    expect(none.stdout).toContain('Proven Code: no verification was reported.\n');
  });

  it('verify: a failed record exits 3 and shows the problem with file:line and its trimmed output as plain text', async () => {
    record = {
      version: 2,
      createdAt: '2026-11-24T02:35:00.000Z',
      verdict: 'failed',
      proven: '2 files checked (syntax).',
      notProven: 'start failed: 1 problem.',
      executed: true,
      coveredFiles: ['app.js', 'index.html'],
      uncoveredFiles: [],
      checks: [
        {
          check: 'start',
          kind: 'execution',
          runtime: 'node',
          status: 'failed',
          files: ['app.js'],
          command: 'node app.js',
          problems: [{ path: 'app.js', line: 3, message: 'TypeError: x is not a function', output: `\u001B[31mTypeError\u001B[0m: x is not a function\n${'    at frame\n'.repeat(30)}` }],
        },
      ],
    };
    const result = await wolfpack(['verify', PROJECT]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('failed   start  ran (node)  1 file  $ node app.js\n    app.js:3: TypeError: x is not a function\n      | TypeError: x is not a function\n      |     at frame\n');
    expect(result.stdout).toContain('      | … 19 more lines\n');
    expect(result.stdout).not.toContain('\u001B');
    expect(result.stdout).toMatch(/\nProven Code: failed \(version 2, checked [^)]+\)\n  Proven: 2 files checked \(syntax\)\.\n  Not proven: start failed: 1 problem\.\n$/);
  });

  it('exits 1 with the error event’s sentence when the run fails', async () => {
    ending = { type: 'error', error: 'No engine could finish Planning. Try again later.', code: 'BAD_GATEWAY' };
    const result = await wolfpack(['build', 'a todo app']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('[error] No engine could finish Planning. Try again later.\n');
    expect(result.stderr).toBe('wolfpack: No engine could finish Planning. Try again later.\n');
  });

  it('writes the safe files, refuses a hostile path, and exits 1', async () => {
    fsIndex = { ...fsIndex, '../../escaped.txt': 'evil' };
    const out = join(home, 'out');
    const result = await wolfpack(['build', 'a todo app', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `wolfpack: Did not write 1 file of the project: "../../escaped.txt" is not a safe file path: it contains ".." and would leave the project folder. The other files are in ${out}.\n`,
    );
    expect((await readdir(out)).sort()).toEqual(['app.js', 'index.html']);
    expect(await readdir(home)).not.toContain('escaped.txt');
  });

  it('says the login expired when the server no longer takes the token', async () => {
    const config = join(home, 'expired.json');
    await writeFile(config, JSON.stringify({ lastServer: url, logins: [{ server: url, token: 'wpk_old', username: 'ann' }] }));
    const result = await runCli(['build', 'a todo app'], { env: { HOME: home, WOLFPACK_CONFIG: config } });
    expect(result).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Your login to ${url} has expired or was revoked. Run \`wolfpack login\` again.\n` });
  });
});
