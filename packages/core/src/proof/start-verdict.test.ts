import { describe, expect, it } from 'vitest';
import { ASSUMED } from './report.js';
import type { SandboxResult } from './sandbox.js';
import { environmentGap, meantToRunUntilStopped, startVerdict, verdictToCheck, type StartVerdict } from './start-verdict.js';

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
const ctx = { paths: new Set(['index.js', 'src/server.js', 'main.py', 'app/util.py']), startMs: 3000, files: {} };
const node = { runtime: 'node' as const, order: 'first' as const, fallbackPath: 'index.js', command: 'npm start', dependencies: [] };
const python = { runtime: 'python' as const, order: 'last' as const, fallbackPath: 'main.py', command: 'python3 main.py', dependencies: [] };

const NODE_CRASH = [
  "TypeError: Cannot read properties of undefined (reading 'port')",
  '    at listen (/project/src/server.js:12:7)',
  '    at main (/project/index.js:3:1)',
].join('\n');

describe('startVerdict', () => {
  it('counts a program listening on a port as started', () => {
    expect(startVerdict(run({ exitCode: null, stopped: 'listening' }), ctx, node)).toEqual({ ok: true, summary: 'started and listened on a port' });
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

describe('startVerdict: a program still running when the start window closed', () => {
  /** Stopped at the deadline, not listening, with `cpuMs` of CPU time used by then. */
  const timedOut = (cpuMs?: number, fields: Partial<SandboxResult> = {}) => run({ exitCode: null, signal: 'SIGKILL', stopped: 'time', ...(cpuMs === undefined ? {} : { cpuMs }), ...fields });
  const withFiles = (files: Record<string, string>, startMs = 3000) => ({ ...ctx, files, startMs });
  const NOTHING_SAYS = 'nothing in the project says it should run until stopped (a server, bot, scheduler or watcher among its packages, a README that says so)';
  const passed = (summary: string): StartVerdict => ({ ok: true, summary });

  it('fails a busy program as a hang, saying it was busy and that nothing says it should run on', () => {
    expect(startVerdict(timedOut(2900), ctx, node)).toEqual({
      ok: false,
      problem: { path: 'index.js', message: `it was still running after 3 s and not listening, busy (2.9 s of CPU time: a loop that never ends?); ${NOTHING_SAYS}`, command: 'npm start', output: '' },
    });
    // Python the same, on its entry; the output is kept, and a frame in it places the problem.
    expect(startVerdict(timedOut(2900, { stdout: 'counting\n' }), ctx, python)).toEqual({
      ok: false,
      problem: { path: 'main.py', message: `it was still running after 3 s and not listening, busy (2.9 s of CPU time: a loop that never ends?); ${NOTHING_SAYS}`, command: 'python3 main.py', output: 'counting' },
    });
    expect(startVerdict(timedOut(2900, { stderr: 'Warning: slow\n    at tick (/project/src/server.js:7:3)' }), ctx, node)).toMatchObject({ ok: false, problem: { path: 'src/server.js', line: 7 } });
  });

  it('fails an idle program as a hang too, when nothing says what it waits for', () => {
    expect(startVerdict(timedOut(120), ctx, node)).toMatchObject({
      ok: false,
      problem: { path: 'index.js', message: `it was still running after 3 s and not listening, idle (0.1 s of CPU time: waiting for something that never comes); ${NOTHING_SAYS}` },
    });
    // Without a CPU figure it says neither.
    expect(startVerdict(timedOut(), ctx, python)).toMatchObject({ ok: false, problem: { message: `it was still running after 3 s and not listening; ${NOTHING_SAYS}` } });
    // The window in tenths of a second, rounded.
    expect(startVerdict(timedOut(), { ...ctx, startMs: 2450 }, node)).toMatchObject({ problem: { message: `it was still running after 2.5 s and not listening; ${NOTHING_SAYS}` } });
    expect(startVerdict(timedOut(), { ...ctx, startMs: 2449 }, node)).toMatchObject({ problem: { message: `it was still running after 2.4 s and not listening; ${NOTHING_SAYS}` } });
  });

  it('passes a program whose packages make it long-running, naming the assumption, busy or not', () => {
    const bot = { ...node, dependencies: ['chalk', 'discord.js'] };
    expect(startVerdict(timedOut(40), ctx, bot)).toEqual(passed('still running after 3 s; assumed to be a long-running bot (discord.js)'));
    expect(startVerdict(timedOut(2900), ctx, bot)).toEqual(passed('still running after 3 s; assumed to be a long-running bot (discord.js)'));
    expect(startVerdict(timedOut(), ctx, { ...python, dependencies: ['APScheduler'] })).toEqual(passed('still running after 3 s; assumed to be a scheduler (apscheduler)'));
    expect(ASSUMED).toBe('; assumed to be ');
  });

  it('passes a CLI that reads stdin and was idle: waiting for input, which the sandbox never sends', () => {
    const cli = withFiles({ 'src/cli.js': "import readline from 'node:readline';\n", 'index.js': "import './src/cli.js';\n" });
    expect(startVerdict(timedOut(60), cli, node)).toEqual(passed('still running after 3 s and idle (0.1 s of CPU time); assumed to be waiting for input on stdin (src/cli.js: readline)'));
    // Idle is at most half the window.
    expect(startVerdict(timedOut(1500), cli, node)).toEqual(passed('still running after 3 s and idle (1.5 s of CPU time); assumed to be waiting for input on stdin (src/cli.js: readline)'));
    // Without a CPU figure, reading stdin is taken for waiting, and idleness is not claimed.
    expect(startVerdict(timedOut(), cli, node)).toEqual(passed('still running after 3 s; assumed to be waiting for input on stdin (src/cli.js: readline)'));
    const py = withFiles({ 'main.py': 'while True:\n    print(input("> ")[::-1])\n' });
    expect(startVerdict(timedOut(30), py, python)).toEqual(passed('still running after 3 s and idle (0 s of CPU time); assumed to be waiting for input on stdin (main.py: input)'));
  });

  it('fails a CLI that reads stdin but was busy: it was computing, not waiting', () => {
    const cli = withFiles({ 'src/cli.js': 'process.stdin.on("data", () => {});\nfor (;;) {}\n' });
    expect(startVerdict(timedOut(1501), cli, node)).toMatchObject({
      ok: false,
      problem: { message: `it was still running after 3 s and not listening, busy (1.5 s of CPU time: a loop that never ends?); it reads stdin (src/cli.js: stdin) but was computing, not waiting for input; ${NOTHING_SAYS}` },
    });
    // Half of a shorter window.
    expect(startVerdict(timedOut(1001), withFiles(cli.files, 2000), node)).toMatchObject({ ok: false });
    expect(startVerdict(timedOut(1000), withFiles(cli.files, 2000), node)).toMatchObject({ ok: true });
  });

  it('takes a prompt the program printed last, with the cursor left after it, for waiting on input', () => {
    const prompt = (stdout: string) => startVerdict(timedOut(50, { stdout }), ctx, node);
    expect(prompt('Welcome!\nYour name? ')).toEqual(passed('still running after 3 s and idle (0.1 s of CPU time); assumed to be waiting for input on stdin (it printed the prompt "Your name?")'));
    expect(prompt('Amount:')).toMatchObject({ ok: true, summary: expect.stringContaining('(it printed the prompt "Amount:")') });
    expect(prompt('> ')).toMatchObject({ ok: true, summary: expect.stringContaining('(it printed the prompt ">")') });
    expect(prompt(`${'x'.repeat(50)} continue? `)).toMatchObject({ ok: true, summary: expect.stringContaining(`(it printed the prompt "${'x'.repeat(30)} continue?")`) });
    // A finished line, or a last line that is no question, is no prompt.
    expect(prompt('Your name?\n')).toMatchObject({ ok: false });
    expect(prompt('Loading')).toMatchObject({ ok: false });
    expect(prompt('Ratio: 3 ')).toMatchObject({ ok: false });
    expect(prompt('Ratio:  ')).toMatchObject({ ok: false });
    expect(prompt('')).toMatchObject({ ok: false });
    // Printed on stderr, it is not where prompts go.
    expect(startVerdict(timedOut(50, { stderr: 'Your name? ' }), ctx, node)).toMatchObject({ ok: false });
  });

  it('knows each way Node reads stdin, in the program and not in its tests or packages', () => {
    const reads = (content: string, path = 'app.js') => startVerdict(timedOut(10), withFiles({ [path]: content }), node);
    const waitingOn = (what: string) => passed(`still running after 3 s and idle (0 s of CPU time); assumed to be waiting for input on stdin (${what})`);
    expect(reads('process.stdin.resume();')).toEqual(waitingOn('app.js: stdin'));
    expect(reads("const rl = require('readline');")).toEqual(waitingOn('app.js: readline'));
    expect(reads('import * as rl from "node:readline/promises";')).toEqual(waitingOn('app.js: readline'));
    expect(reads("import repl from 'node:repl';")).toEqual(waitingOn('app.js: repl'));
    for (const pkg of ['inquirer', '@inquirer/prompts', 'prompts', 'enquirer', 'prompt-sync', '@clack/prompts']) {
      expect(reads(`import ask from '${pkg}';`, 'src/ask.ts')).toEqual(waitingOn(`src/ask.ts: ${pkg}`));
    }
    for (const path of ['app.mjs', 'app.cjs', 'app.ts', 'app.tsx', 'app.jsx', 'app.mts', 'contest/app.js', 'src/latest.js', 'protest_app.js', 'mytests/app.js']) expect(reads("require('readline')", path)).toMatchObject({ ok: true });
    // Not a word of something else, and not Python's, a test's or a package's.
    for (const content of ['myprocess.stdin = 1', "require('readline-sync-ish')", "import x from 'prompts-extra'", 'reprompts()', 'input("x")']) expect(reads(content)).toMatchObject({ ok: false });
    for (const path of ['main.py', 'app.json', 'app.js.map', 'test/app.js', 'tests/app.js', 'src/__tests__/app.js', 'app.test.js', 'app.spec.ts', 'app.test.mjs', 'node_modules/x/app.js']) {
      expect(reads("require('readline')", path)).toMatchObject({ ok: false });
    }
  });

  it('knows each way Python reads stdin, in the program and not in its tests', () => {
    const reads = (content: string, path = 'main.py') => startVerdict(timedOut(10), withFiles({ [path]: content }), python);
    const waitingOn = (what: string) => passed(`still running after 3 s and idle (0 s of CPU time); assumed to be waiting for input on stdin (${what})`);
    expect(reads('name = input()')).toEqual(waitingOn('main.py: input'));
    expect(reads('secret = getpass("Password: ")')).toEqual(waitingOn('main.py: getpass'));
    expect(reads('for line in sys.stdin:\n    pass')).toEqual(waitingOn('main.py: sys.stdin'));
    expect(reads('class Shell(cmd.Cmd):\n    pass')).toEqual(waitingOn('main.py: cmd.Cmd'));
    expect(reads('n = click.prompt("n")')).toEqual(waitingOn('main.py: click.prompt'));
    expect(reads('n = typer.prompt("n")')).toEqual(waitingOn('main.py: typer.prompt'));
    expect(reads('import os\nfrom questionary import text')).toEqual(waitingOn('main.py: questionary'));
    expect(reads('import prompt_toolkit')).toEqual(waitingOn('main.py: prompt_toolkit'));
    for (const content of ['raw_input()', 'sys.stdinx', 'mycmd.Cmd', 'click.prompts()', '# see: import questionary', 'process.stdin.resume()', 'user_input = 3']) expect(reads(content)).toMatchObject({ ok: false });
    for (const path of ['test_main.py', 'tests/helpers.py', 'app/main_test.py', 'app/test_cli.py', 'main.js', 'main.pyc', 'main.py.orig']) expect(reads('input()', path)).toMatchObject({ ok: false });
    expect(reads('input()', 'app/contest_main.py')).toMatchObject({ ok: true });
  });

  it('passes an idle program with a repeating timer as one that repeats until stopped, and fails a busy one', () => {
    const clock = withFiles({ 'src/clock.js': 'setInterval(() => console.log(new Date()), 1000);\n', 'README.md': '# Clock\n' });
    expect(startVerdict(timedOut(80), clock, node)).toEqual(passed('still running after 3 s and idle (0.1 s of CPU time); assumed to be a program that repeats until stopped (src/clock.js: setInterval)'));
    expect(startVerdict(timedOut(), clock, node)).toEqual(passed('still running after 3 s; assumed to be a program that repeats until stopped (src/clock.js: setInterval)'));
    expect(startVerdict(timedOut(2000), clock, node)).toMatchObject({ ok: false });
    const poller = withFiles({ 'main.py': 'import time\n\nwhile True:\n    check()\n    time.sleep(60)\n' });
    expect(startVerdict(timedOut(30), poller, python)).toEqual(passed('still running after 3 s and idle (0 s of CPU time); assumed to be a program that repeats until stopped (main.py: while True)'));
    // A loop that never sleeps is no timer; nor is a timer in a test, or in the other runtime's files.
    expect(startVerdict(timedOut(30), withFiles({ 'main.py': 'while True:\n    pass\n' }), python)).toMatchObject({ ok: false });
    expect(startVerdict(timedOut(30), withFiles({ 'main.py': 'time.sleep(1)\nwhile True:\n    pass\n' }), python)).toMatchObject({ ok: false });
    expect(startVerdict(timedOut(30), withFiles({ 'test/clock.test.js': 'setInterval(f, 10)' }), node)).toMatchObject({ ok: false });
    expect(startVerdict(timedOut(30), withFiles({ 'clock.js': 'setInterval(f, 10)' }), python)).toMatchObject({ ok: false });
    expect(startVerdict(timedOut(30), withFiles({ 'clock.js': 'mysetInterval(f, 10)' }), node)).toMatchObject({ ok: false });
    // Reading stdin is named first.
    expect(startVerdict(timedOut(30), withFiles({ 'a.js': 'setInterval(f, 10)', 'b.js': 'process.stdin.resume()' }), node)).toMatchObject({ ok: true, summary: expect.stringContaining('waiting for input on stdin (b.js: stdin)') });
  });

  it('a start that exited, listened or hit another limit is judged as before, whatever the project says', () => {
    const declared = { ...node, dependencies: ['discord.js'] };
    const reads = withFiles({ 'index.js': 'process.stdin.resume()' });
    expect(startVerdict(run({ exitCode: 1, stderr: NODE_CRASH }), reads, declared)).toMatchObject({ ok: false, problem: { path: 'src/server.js' } });
    expect(startVerdict(run({ exitCode: null, stopped: 'memory' }), reads, declared)).toMatchObject({ ok: false });
    expect(startVerdict(run({ exitCode: null, stopped: 'listening', cpuMs: 2900 }), ctx, node)).toEqual(passed('started and listened on a port'));
  });
});

describe('meantToRunUntilStopped', () => {
  const says = (files: Record<string, string>, options: Partial<Parameters<typeof meantToRunUntilStopped>[1]> = {}) =>
    meantToRunUntilStopped(files, { runtime: 'node', dependencies: [], command: 'npm start (node index.js)', ...options });

  it('knows the Node packages that make a program run until stopped', () => {
    const kinds: Record<string, string[]> = {
      'a long-running bot': ['discord.js', 'eris', 'telegraf', 'node-telegram-bot-api', 'grammy', '@slack/bolt', 'tmi.js', 'whatsapp-web.js', 'mineflayer'],
      'a scheduler': ['node-cron', 'cron', 'node-schedule', 'agenda', 'bree', 'toad-scheduler'],
      'a queue or message consumer': ['bull', 'bullmq', 'amqplib', 'kafkajs', 'mqtt'],
      'a file watcher': ['chokidar', 'node-watch'],
      'a server that had not opened its port yet': ['express', 'fastify', 'koa', '@hapi/hapi', '@nestjs/core', 'ws', 'socket.io', 'json-server'],
    };
    for (const [what, names] of Object.entries(kinds)) for (const name of names) expect(says({}, { dependencies: ['lodash', name] })).toBe(`${what} (${name})`);
    // Python's names are not Node's, and a near name is not the package.
    expect(says({}, { dependencies: ['discord.py', 'schedule', 'flask', 'discord', 'expressjs', 'Express'] })).toBeUndefined();
  });

  it("knows the Python packages that make a program run until stopped, named as pip compares them", () => {
    const kinds: Record<string, string[]> = {
      'a long-running bot': ['discord.py', 'py-cord', 'nextcord', 'python-telegram-bot', 'pytelegrambotapi', 'aiogram', 'slack-bolt', 'twitchio'],
      'a scheduler': ['schedule', 'apscheduler'],
      'a queue or message consumer': ['celery', 'rq', 'dramatiq', 'pika', 'paho-mqtt'],
      'a file watcher': ['watchdog', 'watchfiles'],
      'a server that had not opened its port yet': ['flask', 'django', 'fastapi', 'uvicorn', 'aiohttp', 'tornado', 'bottle', 'websockets'],
    };
    for (const [what, names] of Object.entries(kinds)) for (const name of names) expect(says({}, { runtime: 'python', dependencies: ['requests', name] })).toBe(`${what} (${name})`);
    expect(says({}, { runtime: 'python', dependencies: ['Discord_py'] })).toBe('a long-running bot (discord.py)');
    expect(says({}, { runtime: 'python', dependencies: ['PAHO.MQTT'] })).toBe('a queue or message consumer (paho-mqtt)');
    expect(says({}, { runtime: 'python', dependencies: ['discord.js', 'node-cron', 'discordpy', 'requests'] })).toBeUndefined();
  });

  it('takes the first kind that applies, in the order bot, scheduler, consumer, watcher, server', () => {
    expect(says({}, { dependencies: ['express', 'chokidar', 'bull', 'cron', 'telegraf'] })).toBe('a long-running bot (telegraf)');
    expect(says({}, { dependencies: ['express', 'chokidar', 'bull', 'cron'] })).toBe('a scheduler (cron)');
    expect(says({}, { dependencies: ['express', 'chokidar', 'bull'] })).toBe('a queue or message consumer (bull)');
    expect(says({}, { dependencies: ['express', 'chokidar'] })).toBe('a file watcher (chokidar)');
  });

  it('reads a start command that watches files or serves', () => {
    const command = (text: string) => says({}, { command: text });
    expect(command('npm start (nodemon index.js)')).toBe('a watcher (its start command runs nodemon)');
    expect(command('npm run dev (ts-node-dev src/index.ts)')).toBe('a watcher (its start command runs ts-node-dev)');
    expect(command('npm run dev (tsx watch src/index.ts)')).toBe('a watcher (its start command runs tsx watch)');
    expect(command('npm start (node --watch index.js)')).toBe('a watcher (its start command runs --watch)');
    expect(command('npm start (tsc -w)')).toBe('a watcher (its start command runs -w)');
    expect(command('npm start (node --watch=true index.js)')).toBe('a watcher (its start command runs --watch)');
    expect(command('nodemon')).toBe('a watcher (its start command runs nodemon)');
    expect(command('tsc --watch')).toBe('a watcher (its start command runs --watch)');
    expect(command('npm run dev (vite)')).toBe('a dev server that had not opened its port yet (its start command runs vite)');
    expect(command('npm run dev (vite --host)')).toBe('a dev server that had not opened its port yet (its start command runs vite)');
    expect(command('npm run dev (next dev)')).toBe('a dev server that had not opened its port yet (its start command runs next dev)');
    expect(command('npm start (webpack serve --open)')).toBe('a dev server that had not opened its port yet (its start command runs webpack serve)');
    expect(command('npm start (http-server -p 3000)')).toBe('a dev server that had not opened its port yet (its start command runs http-server)');
    expect(command('npm start (live-server)')).toBe('a dev server that had not opened its port yet (its start command runs live-server)');
    expect(command('serve public')).toBe('a dev server that had not opened its port yet (its start command runs serve)');
    expect(command('vite')).toBe('a dev server that had not opened its port yet (its start command runs vite)');
    // Names inside other words, files and flags are not those tools.
    for (const text of ['npm start (node nodemon.js)', 'npm start (node mynodemon)', 'npm start (node index.js --watchers 2)', 'npm start (node index.js -wx)', 'npm start (node index.js-w)', 'npm start (vite build)', 'npm start (node serve.js)', 'npm start (node server.js)', 'npm start (preserve)', 'npm start (next build)', 'npm start (tsx src/watch.ts)']) {
      expect(command(text)).toBeUndefined();
    }
  });

  it("reads a README at the project's root that says the program runs until stopped", () => {
    const readme = (text: string, path = 'README.md') => says({ 'index.js': '', [path]: `# Tool\n\n${text}\n` });
    expect(readme('Press Ctrl+C to stop.')).toBe('a program that runs until stopped (README.md says "Ctrl+C")');
    for (const text of ['ctrl-c', 'CTRL C', 'ctrlc', 'runs until you stop it', 'run until interrupted', 'runs until killed', 'runs forever', 'It runs indefinitely.', 'runs continuously', 'keeps running', 'stays running', 'a long-running job', 'as a daemon']) {
      expect(readme(text)).toMatch(/^a program that runs until stopped \(README\.md says "/);
    }
    expect(readme('Press Ctrl-C to quit.', 'readme.txt')).toBe('a program that runs until stopped (readme.txt says "Ctrl-C")');
    expect(readme('Ctrl-C', 'README')).toBe('a program that runs until stopped (README says "Ctrl-C")');
    expect(readme('Ctrl-C', 'Readme.rst')).toBe('a program that runs until stopped (Readme.rst says "Ctrl-C")');
    for (const path of ['docs/README.md', 'notes.md', 'README.html', 'README.md.bak', 'my-readme.md']) expect(readme('Press Ctrl+C to stop.', path)).toBeUndefined();
    for (const text of ['Press Ctrl to select.', 'It runs once and exits.', 'runs until done', 'keep it running', 'long running']) expect(readme(text)).toBeUndefined();
  });

  it('names packages before the command, and the command before the README', () => {
    const files = { 'README.md': 'Press Ctrl-C to stop.' };
    expect(says(files, { dependencies: ['ws'], command: 'npm start (nodemon index.js)' })).toBe('a server that had not opened its port yet (ws)');
    expect(says(files, { command: 'npm start (nodemon index.js)' })).toBe('a watcher (its start command runs nodemon)');
    expect(says(files, { command: 'npm run dev (vite)' })).toBe('a dev server that had not opened its port yet (its start command runs vite)');
    expect(says(files)).toBe('a program that runs until stopped (README.md says "Ctrl-C")');
    expect(says({})).toBeUndefined();
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
