// Starts that do not end, with real programs in the real sandbox: a CLI stuck in a loop fails as a
// hang; a server (it listens), a bot its package declares long-running, and a CLI waiting on the
// stdin the sandbox keeps open pass, each saying why.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { executeProject } from './execute-project.js';
import type { ExecCheck, ExecutionReport } from './report.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from './testing/fake-npm-registry.js';

const sandboxed = needTool(await sandboxCheck(), 'the start checks of programs that do not end');

const startOf = (report: ExecutionReport): ExecCheck => {
  const starts = report.checks.filter((c) => c.check === 'start');
  expect(starts, JSON.stringify(report.checks, null, 1)).toHaveLength(1);
  return starts[0]!;
};

/**
 * A stand-in for discord.js at the registry boundary: a client whose login, like the real one's
 * gateway connection, keeps the program alive and never returns.
 */
const DISCORD = {
  'discord.js': {
    '14.16.0': {
      'src/index.js': [
        'import { EventEmitter } from "node:events";',
        'export class Client extends EventEmitter {',
        '  login() {',
        '    return new Promise(() => { setInterval(() => this.emit("heartbeat"), 41_250); });',
        '  }',
        '}',
        '',
      ].join('\n'),
    },
  },
};

describe.skipIf(!sandboxed)('a start that is still running when its window closes', () => {
  let registry: FakeNpmRegistry;
  let cacheDir: string;
  beforeAll(async () => {
    registry = await startFakeNpmRegistry(DISCORD);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-hang-test-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
  });
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });
  const run = (files: Record<string, string>) => executeProject(files, { env: {}, install: { cacheDir, env: { npm_config_registry: registry.url } } });

  it('fails a CLI with an endless loop as a hang, with the CPU time it used', { timeout: 60_000 }, async () => {
    const report = await run({
      'package.json': JSON.stringify({ name: 'sum-to', type: 'module', scripts: { start: 'node index.js' } }),
      // The increment was forgotten: the loop never ends.
      'index.js': 'let total = 0;\nlet i = 1;\nwhile (i <= 10) {\n  total += i;\n}\nconsole.log(total);\n',
    });
    const start = startOf(report);
    expect(start).toMatchObject({ runtime: 'node', status: 'failed', files: ['index.js'] });
    // Busy or idle depends on how much of a CPU the machine had to spare; the figure is there either way.
    expect(start.problems[0]).toMatchObject({
      path: 'index.js',
      command: 'npm start (node index.js)',
      message: expect.stringMatching(/^it was still running after 3 s and not listening, (busy|idle) \(\d+(\.\d)? s of CPU time: .*; nothing in the project says it should run until stopped/),
    });
  });

  it('fails a Python CLI with an endless loop the same way', { timeout: 60_000 }, async () => {
    const report = await run({ 'main.py': 'n = 10\nwhile n > 0:\n    n + 1\nprint("done")\n' });
    expect(startOf(report)).toMatchObject({
      runtime: 'python',
      status: 'failed',
      problems: [{ path: 'main.py', command: 'python3 main.py', message: expect.stringMatching(/^it was still running after 3 s and not listening, (busy|idle) \(/) }],
    });
  });

  it('passes a tiny HTTP server: it listened', { timeout: 60_000 }, async () => {
    const report = await run({
      'package.json': JSON.stringify({ name: 'tiny', scripts: { start: 'node server.js' } }),
      'server.js': "require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT));\n",
    });
    expect(startOf(report)).toMatchObject({ status: 'passed', summary: 'started and listened on a port', problems: [] });
  });

  it('passes a bot its package declares long-running, naming the assumption', { timeout: 60_000 }, async () => {
    const report = await run({
      'package.json': JSON.stringify({ name: 'echo-bot', type: 'module', dependencies: { 'discord.js': '^14.16.0' }, scripts: { start: 'node bot.js' } }),
      'bot.js': "import { Client } from 'discord.js';\n\nconst client = new Client();\nclient.on('messageCreate', (message) => message.reply(message.content));\nawait client.login('token');\n",
    });
    expect(registry.requests).toContain('/discord.js');
    expect(report.checks.find((c) => c.check === 'install')).toMatchObject({ status: 'passed' });
    expect(startOf(report)).toMatchObject({ status: 'passed', files: ['bot.js'], summary: 'still running after 3 s; assumed to be a long-running bot (discord.js)' });
  });

  it('passes a CLI waiting on stdin: it was idle, blocked on a read', { timeout: 60_000 }, async () => {
    const node = await run({
      'package.json': JSON.stringify({ name: 'shout', scripts: { start: 'node cli.js' } }),
      'cli.js': "const readline = require('node:readline');\n\nconst rl = readline.createInterface({ input: process.stdin });\nrl.on('line', (line) => console.log(line.toUpperCase()));\n",
    });
    expect(startOf(node)).toMatchObject({
      status: 'passed',
      summary: expect.stringMatching(/^still running after 3 s and idle \(0(\.\d)? s of CPU time\); assumed to be waiting for input on stdin \(cli\.js: readline\)$/),
    });
    const python = await run({ 'main.py': 'name = input("Your name? ")\nprint(f"Hello, {name}!")\n' });
    expect(startOf(python)).toMatchObject({
      status: 'passed',
      summary: expect.stringMatching(/^still running after 3 s and idle \(0(\.\d)? s of CPU time\); assumed to be waiting for input on stdin \(main\.py: input\)$/),
    });
  });
});
