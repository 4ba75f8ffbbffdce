import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './index.js';
import type { CliIo } from './io.js';
import { unusedPort } from './testing/cli-harness.js';

/** Runs the whole program in-process with its own streams and environment. */
async function run(argv: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string; stderrIsTty?: boolean } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: options.stderrIsTty });
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  stdin.end(options.stdin ?? '');
  const io: CliIo = { stdin, stdout, stderr, env: { WOLFPACK_CONFIG: configFile, ...options.env }, cwd: dir };
  const code = await main(argv, io);
  return { code, stdout: out, stderr: err };
}

let dir: string;
let configFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wolfpack-program-'));
  configFile = join(dir, 'config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Exactly one line on stderr, starting with `wolfpack: `. */
function oneErrorLine(stderr: string): string {
  expect(stderr).toMatch(/^wolfpack: [^\n]+\n$/);
  return stderr.slice('wolfpack: '.length, -1);
}

describe('help and version', () => {
  it('prints help on stdout and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: wolfpack');
    for (const command of ['serve', 'login', 'logout', 'whoami']) expect(result.stdout).toContain(command);
    expect(result.stderr).toBe('');
  });

  it('shows the global options in a command’s help', async () => {
    const result = await run(['login', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--password-stdin');
    expect(result.stdout).toContain('--server <url>');
  });

  it('says --json prints one object per event for the commands that stream them', async () => {
    const help = (await run(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--json print JSON on stdout instead of sentences: one object, or one per line for commands that stream events');
    expect(help).not.toContain('print one JSON object on stdout');
  });

  it('prints the version', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });

  it('shows help and exits 2 when no command is given', async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: wolfpack');
  });
});

describe('usage errors: one line, exit 2', () => {
  it.each([
    [['frobnicate'], "Unknown command 'frobnicate'. See `wolfpack --help`."],
    [['whoami', '--jsn'], "Unknown option '--jsn' (did you mean --json?) See `wolfpack --help`."],
    [['whoami', 'extra'], "Too many arguments for 'whoami'. Expected 0 arguments but got 1: extra. See `wolfpack --help`."],
    [['serve', '--port', '70000'], "Option '-p, --port <port>' argument '70000' is invalid. Use a whole number from 0 to 65535. See `wolfpack --help`."],
    [['login', '--username'], "Option '-u, --username <name>' argument missing. See `wolfpack --help`."],
    [['usage', '--limit', '0'], "Option '-n, --limit <n>' argument '0' is invalid. Use a whole number from 1 to 100. See `wolfpack --help`."],
    [['usage', '-n', '101'], "Option '-n, --limit <n>' argument '101' is invalid. Use a whole number from 1 to 100. See `wolfpack --help`."],
    [['topup', '7'], '"7" is not a credit pack. Choose $10, $25, $50 or $100: wolfpack topup 25'],
    [['topup', '$25.5'], '"$25.5" is not a credit pack. Choose $10, $25, $50 or $100: wolfpack topup 25'],
    [['topup'], "Missing required argument 'amount'. See `wolfpack --help`."],
    [['build', 'an idea', '--max-cost', '1.5'], "Option '--max-cost <cents>' argument '1.5' is invalid. Use a whole number of cents, 0 or more. See `wolfpack --help`."],
    [['build', 'an idea', '--max-cost', '-1'], "Option '--max-cost <cents>' argument '-1' is invalid. Use a whole number of cents, 0 or more. See `wolfpack --help`."],
    [['build', 'an idea', '--cycles', '1.5'], "Option '--cycles <n>' argument '1.5' is invalid. Use a whole number. See `wolfpack --help`."],
    // core's schema words the range; the CLI ends it like every other usage error.
    [['build', 'an idea', '--cycles', '0'], 'Run at least 1 cycle. See `wolfpack --help`.'],
    [['build', 'an idea', '--cycles', '-1'], 'Run at least 1 cycle. See `wolfpack --help`.'],
    [['build', 'an idea', '--cycles', '6'], 'Run at most 5 cycles. See `wolfpack --help`.'],
  ])('wolfpack %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(message);
    expect(result.stdout).toBe('');
  });

  it('rejects a PORT that is not a port before starting anything', async () => {
    const result = await run(['serve'], { env: { PORT: 'eighty' } });
    expect(result.code).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe('PORT=eighty is not a port number. Use a whole number from 0 to 65535.');
  });

  it('rejects a server URL that is not one', async () => {
    const result = await run(['whoami', '--server', 'ftp://example.com']);
    expect(result.code).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe('"ftp://example.com" is not an http or https URL. Use one like http://127.0.0.1:3000.');
  });

  it('cannot prompt without a terminal and says how to log in from a script', async () => {
    const result = await run(['login']);
    expect(result.code).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(
      'Cannot ask for a password without a terminal. Use `wolfpack login --username NAME --password-stdin` and pipe the password in.',
    );
  });

  it('needs --username with --password-stdin, and a password on stdin', async () => {
    const noUser = await run(['login', '--password-stdin'], { stdin: 'secret\n' });
    expect(noUser.code).toBe(2);
    expect(oneErrorLine(noUser.stderr)).toBe('--password-stdin needs --username too.');

    const noPassword = await run(['login', '--username', 'ann', '--password-stdin']);
    expect(noPassword.code).toBe(2);
    expect(oneErrorLine(noPassword.stderr)).toMatch(/^No password on stdin\./);
  });
});

describe('choosing the server', () => {
  it('defaults to the local server and says how to log in', async () => {
    const result = await run(['whoami']);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toBe('Not logged in to http://127.0.0.1:3000. Run `wolfpack login` first.');
  });

  it('takes --server before or after the command, over WOLFPACK_URL', async () => {
    const env = { WOLFPACK_URL: 'http://env.example:1' };
    expect(oneErrorLine((await run(['--server', 'Flag.Example:2/', 'whoami'], { env })).stderr)).toContain('http://flag.example:2.');
    expect(oneErrorLine((await run(['whoami', '--server', 'http://flag.example:2'], { env })).stderr)).toContain('http://flag.example:2.');
    expect(oneErrorLine((await run(['whoami'], { env })).stderr)).toContain('http://env.example:1.');
  });

  it('defaults to the last server logged in to', async () => {
    await writeFile(configFile, JSON.stringify({ lastServer: 'http://last.example:9', logins: [] }));
    expect(oneErrorLine((await run(['whoami'])).stderr)).toBe('Not logged in to http://last.example:9. Run `wolfpack login` first.');
  });
});

describe('talking to a server', () => {
  it('says how to start a server when none answers', async () => {
    const server = `http://127.0.0.1:${await unusedPort()}`;
    await writeFile(configFile, JSON.stringify({ logins: [{ server, token: 'wpk_x', username: 'ann' }] }));
    for (const command of ['whoami', 'logout']) {
      const result = await run([command, '--server', server]);
      expect(result.code).toBe(1);
      expect(oneErrorLine(result.stderr)).toBe(
        `Cannot reach the Wolfpack server at ${server}. Is it running? Start one with \`wolfpack serve\`.`,
      );
    }
    // The token stays, so logging out can be retried once the server is back.
    expect(await readFile(configFile, 'utf8')).toContain('wpk_x');
  });

  it('logs out of a server it is not logged in to without complaint', async () => {
    const text = await run(['logout', '--server', 'http://x.example:1']);
    expect(text).toMatchObject({ code: 0, stdout: 'Not logged in to http://x.example:1\n', stderr: '' });
    const json = await run(['logout', '--json', '--server', 'http://x.example:1']);
    expect(JSON.parse(json.stdout)).toEqual({ server: 'http://x.example:1', loggedOut: false });
  });

  it('reports a broken config file in one line', async () => {
    await writeFile(configFile, '{');
    const result = await run(['whoami']);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toMatch(/^The Wolfpack config file at .* is not valid JSON\./);
  });
});

describe('colour', () => {
  const red = '\u001B[31m';
  it('colours the error prefix on a terminal, unless --no-color or NO_COLOR', async () => {
    expect((await run(['whoami'], { stderrIsTty: true })).stderr.startsWith(red)).toBe(true);
    expect((await run(['whoami', '--no-color'], { stderrIsTty: true })).stderr).not.toContain('\u001B[');
    expect((await run(['whoami'], { stderrIsTty: true, env: { NO_COLOR: '1' } })).stderr).not.toContain('\u001B[');
    expect((await run(['whoami'])).stderr).not.toContain('\u001B[');
  });
});

describe('projects, folders, export, publish: refused before anything is sent', () => {
  it('lists the new commands in the help', async () => {
    const result = await run(['--help']);
    for (const command of ['enhance', 'projects', 'export', 'pull', 'publish', 'folders', 'verify', 'repair']) expect(result.stdout).toContain(command);
    expect((await run(['projects', '--help'])).stdout).toMatch(/ls[\s\S]*show[\s\S]*rm[\s\S]*mv/);
  });

  it('explains repair in its help: the options of build that apply, and what the server refuses', async () => {
    const help = (await run(['repair', '--help'])).stdout;
    for (const option of ['<project-id>', '--engines <keys>', '--max-cost <cents>', '--require-proof', '--out <dir>', '--json']) expect(help).toContain(option);
    expect(help).not.toContain('--cycles');
    expect(help).toMatch(/Proven Code alone/);
    expect(help).toMatch(/refuses one that passed or is not proven/);
    expect(help).toMatch(/5\s+--require-proof and the project was not proven/);
  });

  it.each([
    [['projects', 'rm', 'a1b2c3d4'], 'Deleting needs confirmation and there is no terminal to ask in. Add --yes to delete without asking.'],
    [['folders', 'rm', 'a1b2c3d4'], 'Deleting needs confirmation and there is no terminal to ask in. Add --yes to delete without asking.'],
    [['projects', 'mv', 'a1b2c3d4'], "Required option '--folder <id>' not specified. See `wolfpack --help`."],
    [['pull', 'a1b2c3d4'], "Required option '-o, --out <dir>' not specified. See `wolfpack --help`."],
    [['publish', 'a1b2c3d4'], "Required option '--repo <name>' not specified. See `wolfpack --help`."],
    [['publish', 'a1b2c3d4', '--repo', 'my/app'], 'Repository names may contain only letters, numbers, hyphens, underscores and dots. See `wolfpack --help`.'],
    [['publish', 'a1b2c3d4', '--repo', '   '], 'Please enter a name for your GitHub repository. See `wolfpack --help`.'],
    [['publish', 'a1b2c3d4', '--repo', 'ok', '--description', 'x'.repeat(351)], 'Descriptions must be at most 350 characters. See `wolfpack --help`.'],
    [['folders', 'create', ''], 'Please enter a folder name. See `wolfpack --help`.'],
    [['enhance', ''], 'Please enter a prompt to enhance. See `wolfpack --help`.'],
    [['repair', 'a1b2c3d4', '--max-cost', '-5'], "Option '--max-cost <cents>' argument '-5' is invalid. Use a whole number of cents, 0 or more. See `wolfpack --help`."],
    [['enhance', 'an idea', '--attach', 'missing.txt'], 'Cannot attach missing.txt: there is no such file.'],
  ])('wolfpack %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(message);
    expect(result.stdout).toBe('');
  });

  it('will not write a zip file to a terminal', async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true });
    let err = '';
    const stderr = new PassThrough().setEncoding('utf8');
    stderr.on('data', (chunk: string) => (err += chunk));
    const code = await main(['export', 'a1b2c3d4', '-o', '-'], { stdin: new PassThrough(), stdout, stderr, env: { WOLFPACK_CONFIG: configFile }, cwd: dir });
    expect(code).toBe(2);
    expect(oneErrorLine(err)).toMatch(/^Refusing to write a zip file to the terminal\./);
  });
});
