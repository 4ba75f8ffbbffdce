import { describe, expect, it } from 'vitest';
import type { SandboxResult } from './sandbox.js';
import { environmentGap, startVerdict, verdictToCheck, type StartVerdict } from './start-verdict.js';

/** A start that ended by itself, as the sandbox reports it; each test sets what it is about. */
const run = (fields: Partial<SandboxResult>): SandboxResult => ({
  exitCode: 1,
  signal: null,
  stdout: '',
  stderr: '',
  durationMs: 1200,
  outputTruncated: false,
  command: 'node index.js',
  ...fields,
});
const ctx = { paths: new Set(['index.js', 'src/server.js', 'main.py', 'app/util.py']), startMs: 3000 };
const node = { order: 'first' as const, fallbackPath: 'index.js', command: 'npm start' };
const python = { order: 'last' as const, fallbackPath: 'main.py', command: 'python3 main.py' };

const NODE_CRASH = [
  "TypeError: Cannot read properties of undefined (reading 'port')",
  '    at listen (/project/src/server.js:12:7)',
  '    at main (/project/index.js:3:1)',
].join('\n');

describe('startVerdict', () => {
  it('counts a program listening on a port as started', () => {
    expect(startVerdict(run({ exitCode: null, stopped: 'listening' }), ctx, node)).toEqual({ ok: true, summary: 'started and listened on a port' });
  });

  it('counts a program still running when the start window closed as started, saying how long it ran', () => {
    expect(startVerdict(run({ exitCode: null, signal: 'SIGKILL', stopped: 'time' }), ctx, node)).toEqual({ ok: true, summary: 'started and was still running after 3 s' });
    // Tenths of a second, rounded.
    expect(startVerdict(run({ exitCode: null, stopped: 'time' }), { ...ctx, startMs: 2450 }, node)).toEqual({ ok: true, summary: 'started and was still running after 2.5 s' });
    expect(startVerdict(run({ exitCode: null, stopped: 'time' }), { ...ctx, startMs: 2449 }, node)).toEqual({ ok: true, summary: 'started and was still running after 2.4 s' });
  });

  it('counts a program that ran and exited 0 (a CLI that did its job) as started', () => {
    expect(startVerdict(run({ exitCode: 0, stdout: 'done\n' }), ctx, node)).toEqual({ ok: true, summary: 'ran and exited 0' });
  });

  it('fails a start that another limit stopped, saying which, even with output that looks harmless', () => {
    const verdict = startVerdict(run({ exitCode: 137, stopped: 'memory', stdout: 'loading…\n' }), ctx, node);
    expect(verdict).toEqual({
      ok: false,
      problem: { path: 'index.js', message: 'it started, then it ran out of memory (the sandbox memory limit)', command: 'npm start', output: 'loading…' },
    });
    // Exit 0 does not undo a limit: the run was stopped, not finished.
    expect(startVerdict(run({ exitCode: 0, stopped: 'output' }), ctx, node)).toMatchObject({ ok: false, problem: { message: 'it started, then it printed more than the output limit and was stopped' } });
  });

  it('does not count a non-zero exit as started: it names the status, the start window and the error line, located by the stack trace', () => {
    const verdict = startVerdict(run({ exitCode: 1, stderr: NODE_CRASH }), ctx, node);
    expect(verdict).toEqual({
      ok: false,
      problem: {
        path: 'src/server.js',
        line: 12,
        message: "it exited with status 1 within 3 s: TypeError: Cannot read properties of undefined (reading 'port')",
        command: 'npm start',
        output: NODE_CRASH.replaceAll('/project/', ''),
      },
    });
  });

  it('does not count a non-zero exit without a stack trace as started either', () => {
    expect(startVerdict(run({ exitCode: 1, stdout: 'could not open config.json\n' }), ctx, node)).toEqual({
      ok: false,
      problem: { path: 'index.js', message: 'it exited with status 1 within 3 s: could not open config.json', command: 'npm start', output: 'could not open config.json' },
    });
    // Nothing printed at all, and ended by a signal: the signal stands for the status.
    expect(startVerdict(run({ exitCode: null, signal: 'SIGSEGV' }), { ...ctx, startMs: 2450 }, python)).toEqual({
      ok: false,
      problem: { path: 'main.py', message: 'it exited with status SIGSEGV within 2.5 s without printing why', command: 'python3 main.py', output: '' },
    });
  });

  it("takes Node's innermost frame and Python's last, as the caller orders", () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/project/main.py", line 9, in <module>',
      '    run()',
      '  File "/project/app/util.py", line 4, in run',
      "KeyError: 'PORT'",
    ].join('\n');
    expect(startVerdict(run({ exitCode: 1, stderr: traceback }), ctx, python)).toMatchObject({ ok: false, problem: { path: 'app/util.py', line: 4, message: "it exited with status 1 within 3 s: KeyError: 'PORT'" } });
    expect(startVerdict(run({ exitCode: 1, stderr: traceback }), ctx, { ...python, order: 'first' })).toMatchObject({ problem: { path: 'main.py', line: 9 } });
  });

  it('accepts a program that printed its usage and stopped because it was given no arguments', () => {
    // argparse: "usage:" on stdout or stderr, exit 2, no traceback.
    const argparse = 'usage: main.py [-h] file\nmain.py: error: the following arguments are required: file\n';
    expect(startVerdict(run({ exitCode: 2, stderr: argparse }), ctx, python)).toEqual({ ok: true, summary: 'printed its usage and exited with status 2 (it needs arguments)' });
    // commander: "Usage:" capitalised, lowercase "error:" is not a crash.
    const commander = "Usage: cli [options] <file>\n\nerror: missing required argument 'file'\n";
    expect(startVerdict(run({ exitCode: 1, stdout: commander }), ctx, node)).toEqual({ ok: true, summary: 'printed its usage and exited with status 1 (it needs arguments)' });
  });

  it('does not take a usage line for a usage message when the program crashed', () => {
    const crashed = ['Usage: node index.js <port>', NODE_CRASH].join('\n');
    expect(startVerdict(run({ exitCode: 1, stdout: crashed }), ctx, node)).toMatchObject({ ok: false, problem: { path: 'src/server.js', line: 12 } });
    const traceback = 'usage: main.py PORT\nTraceback (most recent call last):\n  File "/project/main.py", line 2, in <module>\nValueError: bad port';
    expect(startVerdict(run({ exitCode: 1, stderr: traceback }), ctx, python)).toMatchObject({ ok: false, problem: { path: 'main.py', line: 2 } });
    // A bare error line (no frames) is a crash too.
    expect(startVerdict(run({ exitCode: 1, stderr: 'usage: tool FILE\nError: FILE is a folder' }), ctx, node)).toMatchObject({ ok: false, problem: { message: 'it exited with status 1 within 3 s: Error: FILE is a folder' } });
    expect(startVerdict(run({ exitCode: 1, stderr: 'usage: tool FILE\nRuntimeException raised' }), ctx, node)).toMatchObject({ ok: false });
    // A stack without an error line (console.trace) is a crash too, with or without parentheses.
    const trace = 'Trace: usage: serve PORT\n    at main (/project/index.js:12:11)\n    at Object.<anonymous> (/project/index.js:20:1)';
    expect(startVerdict(run({ exitCode: 1, stderr: trace }), ctx, node)).toMatchObject({ ok: false, problem: { path: 'index.js', line: 12 } });
    expect(startVerdict(run({ exitCode: 1, stderr: 'usage: serve PORT\n    at /project/src/server.js:12:11' }), ctx, node)).toMatchObject({ ok: false, problem: { path: 'src/server.js', line: 12 } });
    // A frame is a whole line that starts with indentation and "at", and ends with a line and column;
    // an error is a line that starts with one. Usage texts that only look like them are usage texts.
    expect(startVerdict(run({ exitCode: 2, stderr: 'usage: tool FILE\n    at least one FILE is needed' }), ctx, node)).toMatchObject({ ok: true });
    expect(startVerdict(run({ exitCode: 2, stderr: 'usage: forward SPEC\nexample: forward at localhost:8080:3000' }), ctx, node)).toMatchObject({ ok: true });
    expect(startVerdict(run({ exitCode: 2, stderr: 'usage: remind [at TIME] MESSAGE\n  at 09:30:00 daily   repeats every day' }), ctx, node)).toMatchObject({ ok: true });
    expect(startVerdict(run({ exitCode: 2, stderr: 'usage: lint FILE...\n  exits 1 on the first SyntaxError' }), ctx, node)).toMatchObject({ ok: true });
    // "usage:" must be a word of its own.
    expect(startVerdict(run({ exitCode: 1, stderr: 'disk_usage: 93%' }), ctx, node)).toMatchObject({ ok: false });
    expect(startVerdict(run({ exitCode: 1, stderr: 'the usage of this tool is explained in README' }), ctx, node)).toMatchObject({ ok: false });
  });

  it('skips, with the reason, a start that failed for something the sandbox lacks', () => {
    const refused = 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)';
    expect(startVerdict(run({ exitCode: 1, stderr: refused }), ctx, node)).toEqual({ ok: 'skipped', reason: 'it needs a service at 127.0.0.1:5432 (a database or API), which does not run in the sandbox' });
    expect(startVerdict(run({ exitCode: 1, stderr: 'Error: STRIPE_SECRET_KEY is not set' }), ctx, node)).toEqual({ ok: 'skipped', reason: 'it needs the setting STRIPE_SECRET_KEY, which the sandbox does not have' });
    // A usage message wins over a gap it mentions: the program did start.
    expect(startVerdict(run({ exitCode: 2, stderr: 'usage: serve --db URL (DATABASE_URL is required)' }), ctx, node)).toMatchObject({ ok: true });
  });
});

describe('environmentGap', () => {
  it('names the package whose native build is missing, scoped or not, or says a package', () => {
    expect(environmentGap('Error: Could not locate the bindings file. Tried:\n → /project/node_modules/bcrypt/build/bcrypt_lib.node')).toBe(
      'package bcrypt needs its native build from an install script, which this server does not run',
    );
    expect(environmentGap("Error: Cannot find module '/project/node_modules/@node-rs/argon2/argon2.linux-x64-gnu.node'")).toBe(
      'package @node-rs/argon2 needs its native build from an install script, which this server does not run',
    );
    expect(environmentGap('Error [ERR_DLOPEN_FAILED]: /project/node_modules/better-sqlite3/build/Release/better_sqlite3.node: invalid ELF header')).toMatch(/^package better-sqlite3 needs/);
    expect(environmentGap("The module 'sharp.node' was compiled against a different Node.js version")).toBe(
      'a package needs its native build from an install script, which this server does not run',
    );
    expect(environmentGap('Error: No native build was found for platform=linux arch=x64')).toMatch(/^a package needs its native build/);
    // Only a missing .node file is a native build; a missing JavaScript module is a real failure.
    expect(environmentGap("Error: Cannot find module './config'")).toBeUndefined();
    expect(environmentGap("Error: Cannot find module 'express'\nRequire stack: /project/node_modules/app/x.node.js")).toBeUndefined();
  });

  it('says which service was refused, when the output says where', () => {
    const service = (where: string) => `it needs a service${where} (a database or API), which does not run in the sandbox`;
    expect(environmentGap('Error: connect ECONNREFUSED 127.0.0.1:5432')).toBe(service(' at 127.0.0.1:5432'));
    expect(environmentGap('Error: connect ECONNREFUSED localhost:6379')).toBe(service(' at localhost:6379'));
    expect(environmentGap('Error: connect ECONNREFUSED ::1:27017')).toBe(service(' at ::1:27017'));
    expect(environmentGap('Error: connect ECONNREFUSED [::1]:27017')).toBe(service(' at [::1]:27017'));
    expect(environmentGap('redis: ECONNREFUSED   10.0.12.255:6379 (retrying)')).toBe(service(' at 10.0.12.255:6379'));
    expect(environmentGap('connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused')).toBe(service(' at port 5432'));
    // Refused, but nowhere said (or not as an address): a service all the same.
    expect(environmentGap('psycopg.OperationalError: Connection refused')).toBe(service(''));
    expect(environmentGap('Error: connect ECONNREFUSED /tmp/mysql.sock')).toBe(service(''));
    expect(environmentGap('Error: connect ECONNREFUSED 1234.0.0.1:80')).toBe(service(''));
    expect(environmentGap('Error: connect ECONNREFUSED 127.0.0:80')).toBe(service(''));
  });

  it('names the setting a program asked for', () => {
    const setting = (name: string) => `it needs the setting ${name}, which the sandbox does not have`;
    expect(environmentGap('Error: OPENAI_API_KEY is required')).toBe(setting('OPENAI_API_KEY'));
    expect(environmentGap('DATABASE_URL environment variable is not set')).toBe(setting('DATABASE_URL'));
    expect(environmentGap('config: JWT_SECRET must be set')).toBe(setting('JWT_SECRET'));
    expect(environmentGap('S3_BUCKET is missing')).toBe(setting('S3_BUCKET'));
    expect(environmentGap('SMTP_HOST not configured')).toBe(setting('SMTP_HOST'));
    expect(environmentGap('Error: APIKEY is required')).toBe(setting('APIKEY'));
    expect(environmentGap('GITHUB_TOKEN (for the GitHub API) is required')).toBe(setting('GITHUB_TOKEN'));
    expect(environmentGap('Missing environment variable: DATABASE_URL')).toBe(setting('DATABASE_URL'));
    expect(environmentGap('Missing a value for the environment variable JWT_SECRET')).toBe(setting('JWT_SECRET'));
    expect(environmentGap('missing env vars: REDIS_URL')).toBe(setting('REDIS_URL'));
    expect(environmentGap('Required environment variables: SECRET')).toBe(setting('SECRET'));
    expect(environmentGap('Set the environment variable PORT')).toBe(setting('PORT'));
  });

  it('leaves real failures alone, and settings too far from what is wrong with them', () => {
    expect(environmentGap("TypeError: Cannot read properties of undefined (reading 'port')")).toBeUndefined();
    expect(environmentGap('')).toBeUndefined();
    // A name that is not a setting's, or a setting mentioned too far from what is wrong with it.
    expect(environmentGap('Error: Port is required')).toBeUndefined();
    expect(environmentGap('Error: API is required')).toBeUndefined();
    expect(environmentGap('DATABASE_URL points at a database that has not been created yet, so the value is missing')).toBeUndefined();
    expect(environmentGap('DATABASE_URL\nis required')).toBeUndefined();
    expect(environmentGap('Missing environment variable: db')).toBeUndefined();
    expect(environmentGap('Missing environment variable: DB')).toBeUndefined();
  });

  it('reports a native build before a refused service, and a refused service before a setting', () => {
    const both = "Error: Cannot find module '/project/node_modules/pg-native/build/Release/addon.node'\nthen: connect ECONNREFUSED 127.0.0.1:5432; DATABASE_URL is not set";
    expect(environmentGap(both)).toMatch(/^package pg-native needs its native build/);
    expect(environmentGap('connect ECONNREFUSED 127.0.0.1:5432; DATABASE_URL is not set')).toMatch(/^it needs a service at 127\.0\.0\.1:5432/);
  });
});

describe('verdictToCheck', () => {
  const base = { files: ['index.js'], command: 'npm start', durationMs: 3010 };

  it('makes a passed start check with the summary', () => {
    expect(verdictToCheck({ ok: true, summary: 'ran and exited 0' }, 'node', base)).toEqual({
      check: 'start',
      runtime: 'node',
      status: 'passed',
      summary: 'ran and exited 0',
      files: ['index.js'],
      command: 'npm start',
      durationMs: 3010,
      problems: [],
    });
  });

  it('makes a failed start check with the problem', () => {
    const problem = { path: 'index.js', line: 3, message: 'it exited with status 1 within 3 s: Error: boom', command: 'npm start', output: 'Error: boom' };
    expect(verdictToCheck({ ok: false, problem }, 'python', base)).toEqual({ check: 'start', runtime: 'python', status: 'failed', files: ['index.js'], command: 'npm start', durationMs: 3010, problems: [problem] });
  });

  it('makes a skipped start check with the reason and no problem', () => {
    const verdict: StartVerdict = { ok: 'skipped', reason: 'it needs a service at port 5432 (a database or API), which does not run in the sandbox' };
    expect(verdictToCheck(verdict, 'node', base)).toEqual({ check: 'start', runtime: 'node', status: 'skipped', reason: verdict.reason, files: ['index.js'], command: 'npm start', durationMs: 3010, problems: [] });
  });
});
