/**
 * Whether a smoke start succeeded. The rule, for Node and Python alike: it must not exit with an
 * error or crash within the start window. Listening on a port, or exiting 0 (a CLI that did its
 * job) count as started; so does a CLI that printed its usage and stopped because it was given no
 * arguments, which is not a defect of the code.
 *
 * Still running at the deadline without listening is a hang, unless the program is meant to run
 * until stopped (see {@link stillRunning}): a hang is a failed start, and a program assumed to be
 * long-running passes with the assumption in its summary, never as a plain clean start.
 */
import { combinedOutput, errorLine, limitSentence, problemFromRun, seconds } from './output.js';
import { checkResult, type CheckContext } from './check-context.js';
import { ASSUMED, type ExecCheck, type ExecProblem } from './report.js';
import type { SandboxResult } from './sandbox.js';

export type StartVerdict = { ok: true; summary: string } | { ok: false; problem: ExecProblem } | { ok: 'skipped'; reason: string };

// Failures that say the sandbox lacks something the code may rightly expect (a database, a
// secret, an install script), not that the code is wrong. Reported as skipped, with what was missing.
const NATIVE_ADDON = /Could not locate the bindings file|ERR_DLOPEN_FAILED|was compiled against a different Node\.js version|Cannot find module '[^']*\.node'|No native build was found/;
const SERVICE = /ECONNREFUSED|Connection refused/;
const SERVICE_ADDRESS = /ECONNREFUSED\s+((?:\d{1,3}\.){3}\d{1,3}|localhost|\[?::1\]?):(\d+)|port (\d+) failed: Connection refused/;
const CONFIG = /\b([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{2,}(?:KEY|URL|TOKEN|SECRET))\b[^\n]{0,40}\b(?:is required|is not set|must be set|is missing|not configured)|(?:[Mm]issing|[Rr]equired|[Ss]et the)[^\n]{0,30}\benv(?:ironment)? var(?:iable)?s?\b\W{0,3}([A-Z][A-Z0-9_]{2,})/;

/** What the sandbox lacked, when a failure's output says so; undefined for a real failure. */
export function environmentGap(output: string): string | undefined {
  if (NATIVE_ADDON.test(output)) {
    const pkg = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/.exec(output)?.[1];
    return `${pkg ? `package ${pkg}` : 'a package'} needs its native build from an install script, which this server does not run`;
  }
  if (SERVICE.test(output)) {
    const at = SERVICE_ADDRESS.exec(output);
    const where = at ? ` at ${at[1] !== undefined ? `${at[1]}:${at[2]}` : `port ${at[3]}`}` : '';
    return `it needs a service${where} (a database or API), which does not run in the sandbox`;
  }
  const config = CONFIG.exec(output);
  if (config) return `it needs the setting ${config[1] ?? config[2]}, which the sandbox does not have`;
  return undefined;
}

// A crash prints a stack or a traceback; a usage message prints neither.
const CRASH = /Traceback \(most recent call last\)|^\s+at .+:\d+:\d+\)?$|^\w*(Error|Exception)\b/m;

export interface StartOptions {
  runtime: 'node' | 'python';
  /** Where the runtime prints the telling frame of a stack: Node innermost first, Python last. */
  order: 'first' | 'last';
  fallbackPath: string;
  command: string;
  /** The packages the project declares (package.json, requirements.txt, …). */
  dependencies: readonly string[];
}

type StartContext = Pick<CheckContext, 'paths' | 'startMs' | 'files'>;

export function startVerdict(result: SandboxResult, ctx: StartContext, options: StartOptions): StartVerdict {
  if (result.stopped === 'listening') return { ok: true, summary: 'started and listened on a port' };
  const fail = (message: string): StartVerdict => ({
    ok: false,
    problem: problemFromRun(result, { files: ctx.paths, fallbackPath: options.fallbackPath, order: options.order, message, command: options.command }),
  });
  if (result.stopped === 'time') return stillRunning(result, ctx, options, fail);
  const output = combinedOutput(result);
  if (result.stopped !== undefined) return fail(`it started, then ${limitSentence(result, ctx.startMs)}`);
  if (result.exitCode === 0) return { ok: true, summary: 'ran and exited 0' };
  if (!CRASH.test(output) && /\busage:/i.test(output)) {
    return { ok: true, summary: `printed its usage and exited with status ${result.exitCode} (it needs arguments)` };
  }
  const gap = environmentGap(output);
  if (gap) return { ok: 'skipped', reason: gap };
  const status = result.exitCode ?? result.signal;
  const why = errorLine(output);
  return fail(`it exited with status ${status} within ${seconds(ctx.startMs)} s${why ? `: ${why}` : ' without printing why'}`);
}


// Packages whose programs run until stopped, by what that makes them. Python's as on PyPI,
// compared as pip does: in lower case, with `-`, `_` and `.` alike.
const RUNS_UNTIL_STOPPED: { what: string; node: readonly string[]; python: readonly string[] }[] = [
  {
    what: 'a long-running bot',
    node: ['discord.js', 'eris', 'telegraf', 'node-telegram-bot-api', 'grammy', '@slack/bolt', 'tmi.js', 'whatsapp-web.js', 'mineflayer'],
    python: ['discord.py', 'py-cord', 'nextcord', 'python-telegram-bot', 'pytelegrambotapi', 'aiogram', 'slack-bolt', 'twitchio'],
  },
  { what: 'a scheduler', node: ['node-cron', 'cron', 'node-schedule', 'agenda', 'bree', 'toad-scheduler'], python: ['schedule', 'apscheduler'] },
  { what: 'a queue or message consumer', node: ['bull', 'bullmq', 'amqplib', 'kafkajs', 'mqtt'], python: ['celery', 'rq', 'dramatiq', 'pika', 'paho-mqtt'] },
  { what: 'a file watcher', node: ['chokidar', 'node-watch'], python: ['watchdog', 'watchfiles'] },
  {
    what: 'a server that had not opened its port yet',
    node: ['express', 'fastify', 'koa', '@hapi/hapi', '@nestjs/core', 'ws', 'socket.io', 'json-server'],
    python: ['flask', 'django', 'fastapi', 'uvicorn', 'aiohttp', 'tornado', 'bottle', 'websockets'],
  },
];
const pyName = (name: string) => name.toLowerCase().replace(/[-_.]/g, '-');
// A start command that watches files or serves by design (Node's `npm start` / `npm run dev`).
const WATCH_COMMAND = /(?:^|[\s(])(nodemon|ts-node-dev|tsx watch)(?=[\s)]|$)|\s(--watch|-w)(?=[\s)=]|$)/;
const SERVE_COMMAND = /(?:^|[\s(])(vite(?! build)|next dev|webpack serve|http-server|live-server|serve)(?=[\s)]|$)/;
const README = /^readme(\.(md|txt|rst))?$/i;
const README_SAYS = /ctrl[-+ ]?c|runs? (until (you )?(stop|kill|interrupt)|forever|indefinitely|continuously)|(keeps|stays) running|long-running|daemon/i;

/** What the project says the program is, when it is meant to run until stopped: "a long-running bot (discord.js)". */
export function meantToRunUntilStopped(files: Readonly<Record<string, string>>, options: Pick<StartOptions, 'runtime' | 'dependencies' | 'command'>): string | undefined {
  const named = options.runtime === 'node' ? (name: string) => name : pyName;
  const declared = new Set(options.dependencies.map(named));
  for (const kind of RUNS_UNTIL_STOPPED) {
    const found = kind[options.runtime].find((name) => declared.has(named(name)));
    if (found !== undefined) return `${kind.what} (${found})`;
  }
  const watch = WATCH_COMMAND.exec(options.command);
  if (watch) return `a watcher (its start command runs ${watch[1] ?? watch[2]})`;
  const serve = SERVE_COMMAND.exec(options.command)?.[1];
  if (serve !== undefined) return `a dev server that had not opened its port yet (its start command runs ${serve})`;
  for (const [path, content] of Object.entries(files)) {
    const says = README.test(path) ? README_SAYS.exec(content)?.[0] : undefined;
    if (says !== undefined) return `a program that runs until stopped (${path} says "${says}")`;
  }
  return undefined;
}

// Sources a start runs, tests left out: a test that reads stdin says nothing about the program.
const SOURCE = { node: /\.[cm]?[jt]sx?$/, python: /\.py$/ };
const NOT_PROGRAM = /(^|\/)(node_modules|tests?|__tests__)\/|\.(test|spec)\.|(^|\/)test_|_test\.py/;
// Reading stdin: the streams and the prompt libraries that wrap them; the first group that
// matched names it.
const READS_STDIN = {
  node: /\bprocess\.(stdin)\b|['"](?:node:)?(readline|repl)(?:\/promises)?['"]|['"](inquirer|@inquirer\/prompts|prompts|enquirer|prompt-sync|@clack\/prompts)['"]/,
  python: /\b(input|getpass)\(|\b(sys\.stdin)\b|\b(cmd\.Cmd)\b|\b((?:click|typer)\.prompt)\(|^(?:from|import) (questionary|prompt_toolkit)\b/m,
};
// A repeating timer: a program that polls or ticks until stopped.
const REPEATS = {
  node: /\b(setInterval)\(/,
  python: /\b(while True):[\s\S]*?\bsleep\(/,
};

/** The first program source (not a test) that matches, and what matched: "src/cli.js: readline". */
function sourceUsing(files: Readonly<Record<string, string>>, runtime: StartOptions['runtime'], pattern: RegExp): string | undefined {
  for (const [path, content] of Object.entries(files)) {
    if (!SOURCE[runtime].test(path) || NOT_PROGRAM.test(path)) continue;
    const match = pattern.exec(content);
    if (match) return `${path}: ${match.slice(1).find((group) => group !== undefined)}`;
  }
  return undefined;
}

/** The prompt a program printed last and left its cursor after ("Your name: "), a sign it waits for an answer. */
function promptPrinted(stdout: string): string | undefined {
  const last = stdout.slice(stdout.lastIndexOf('\n') + 1);
  return /[:?>] ?$/.test(last) ? `it printed the prompt "${last.trim().slice(-40)}"` : undefined;
}

// A program that used more CPU than this share of the window was computing, not waiting.
const BUSY_SHARE = 0.5;

/**
 * A start the window closed on, without a port opened. Told apart, in this order:
 *
 * 1. Meant to run until stopped, by what the project says (see {@link meantToRunUntilStopped}): a bot,
 *    scheduler, consumer, watcher or server among its packages, a start command that watches or
 *    serves, a README that says so. Passes, with the assumption named.
 * 2. Waiting for input: the sandbox keeps stdin open and sends nothing, so a CLI that reads it
 *    blocks there for good, which is no defect. It must read stdin (its sources do, or it printed
 *    a prompt) and must have been idle: the CPU time of its processes (from /proc, at the
 *    deadline) is at most half the window. A program blocked on a read uses next to none; a loop
 *    uses about all of it, whatever it reads elsewhere. Without a CPU figure, reading stdin is
 *    taken as waiting, and the summary does not claim it was idle.
 * 3. Idle with a repeating timer (setInterval, a `while True:` loop that sleeps): a program that
 *    polls or ticks until stopped. Passes, with the assumption named.
 * 4. Anything else is a hang: a failed start, saying whether it was busy or idle.
 */
function stillRunning(result: SandboxResult, ctx: StartContext, options: StartOptions, fail: (message: string) => StartVerdict): StartVerdict {
  const running = `still running after ${seconds(ctx.startMs)} s`;
  const declared = meantToRunUntilStopped(ctx.files, options);
  if (declared !== undefined) return { ok: true, summary: `${running}${ASSUMED}${declared}` };
  const cpu = result.cpuMs;
  const busy = (cpu ?? 0) > ctx.startMs * BUSY_SHARE;
  const idle = cpu === undefined ? '' : ` and idle (${seconds(cpu)} s of CPU time)`;
  const input = sourceUsing(ctx.files, options.runtime, READS_STDIN[options.runtime]) ?? promptPrinted(result.stdout);
  if (!busy && input !== undefined) return { ok: true, summary: `${running}${idle}${ASSUMED}waiting for input on stdin (${input})` };
  const timer = busy ? undefined : sourceUsing(ctx.files, options.runtime, REPEATS[options.runtime]);
  if (timer !== undefined) return { ok: true, summary: `${running}${idle}${ASSUMED}a program that repeats until stopped (${timer})` };
  const how =
    cpu === undefined ? '' : busy ? `, busy (${seconds(cpu)} s of CPU time: a loop that never ends?)` : `, idle (${seconds(cpu)} s of CPU time: waiting for something that never comes)`;
  const reads = input === undefined ? '' : `; it reads stdin (${input}) but was computing, not waiting for input`;
  return fail(
    `it was ${running} and not listening${how}${reads}; nothing in the project says it should run until stopped (a server, bot, scheduler or watcher among its packages, a README that says so)`,
  );
}

/** A start verdict as the `start` check. */
export function verdictToCheck(verdict: StartVerdict, runtime: 'node' | 'python', base: Pick<ExecCheck, 'files' | 'command' | 'durationMs'>): ExecCheck {
  if (verdict.ok === 'skipped') return checkResult('start', runtime, { ...base, status: 'skipped', reason: verdict.reason });
  return verdict.ok
    ? checkResult('start', runtime, { ...base, status: 'passed', summary: verdict.summary })
    : checkResult('start', runtime, { ...base, status: 'failed', problems: [verdict.problem] });
}
