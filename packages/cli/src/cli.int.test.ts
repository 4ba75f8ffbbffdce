/**
 * The built `wolfpack` binary against a real server: what a script sees (plain lines, exit codes,
 * one error line) and what a person sees in a real terminal (tmux).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, hasTmux, registerUser, runCli, startTestServer, tmuxServer, unusedPort, type RunOptions, type TestServer } from './testing/cli-harness.js';

const USER = 'alice';
const PASSWORD = 'correct-horse-battery';

let server: TestServer;
let home: string;
let configFile: string;

beforeAll(async () => {
  server = await startTestServer();
  await registerUser(server.url, USER, PASSWORD);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-home-'));
  // A directory that does not exist yet, so the test sees the CLI create it.
  configFile = join(home, 'wolfpack', 'config.json');
  return () => rm(home, { recursive: true, force: true });
});

/** The CLI with this test's config file and the test server as WOLFPACK_URL. */
function wolfpack(args: string[], options: RunOptions = {}) {
  return runCli(args, { ...options, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url, ...options.env } });
}

async function storedToken(): Promise<string> {
  const config = JSON.parse(await readFile(configFile, 'utf8')) as { logins: Array<{ server: string; token: string }> };
  const login = config.logins.find((entry) => entry.server === server.url);
  if (!login) throw new Error('no login stored');
  return login.token;
}

async function meStatus(token: string): Promise<number> {
  const response = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  await response.body?.cancel();
  return response.status;
}

describe('from a script', () => {
  it('logs in, tells who is logged in, logs out, and then is logged out', async () => {
    const login = await wolfpack(['login', '--username', USER, '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(login).toEqual({ code: 0, stdout: `Logged in to ${server.url} as ${USER}\n`, stderr: '' });

    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'wolfpack'))).mode & 0o777).toBe(0o700);
    const token = await storedToken();

    const whoami = await wolfpack(['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toMatch(new RegExp(`^${USER} \\(\\w+\\) on ${server.url}\\n$`));
    expect(whoami.stderr).toBe('');

    const json = await wolfpack(['whoami', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ server: server.url, username: USER, plan: expect.any(String) });

    for (const output of [login, whoami, json]) {
      expect(output.stdout + output.stderr).not.toContain(PASSWORD);
      expect(output.stdout + output.stderr).not.toContain(token);
    }

    const logout = await wolfpack(['logout']);
    expect(logout).toEqual({ code: 0, stdout: `Logged out of ${server.url}\n`, stderr: '' });
    expect(await meStatus(token)).toBe(401);
    expect(await readFile(configFile, 'utf8')).not.toContain(token);

    const after = await wolfpack(['whoami']);
    expect(after).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n` });
  });

  it('prints nothing secret with --json', async () => {
    const login = await wolfpack(['login', '--json', '--username', USER, '--password-stdin'], { input: PASSWORD });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({ server: server.url, username: USER, plan: expect.any(String) });
    expect(login.stdout).not.toContain(await storedToken());

    const logout = await wolfpack(['logout', '--json']);
    expect(JSON.parse(logout.stdout)).toEqual({ server: server.url, loggedOut: true });
  });

  it('shows the server’s sentence for a wrong password, exits 1 and stores nothing', async () => {
    const result = await wolfpack(['login', '--username', USER, '--password-stdin'], { input: 'not-the-password\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^wolfpack: [^\n]*password[^\n]*\n$/i);
    await expect(stat(configFile)).rejects.toThrow(/ENOENT/);
  });

  it('keeps one login per server, and revokes the old token when logging in again', async () => {
    // Two spellings of the same host are two servers as far as the config file is concerned.
    const other = server.url.replace('127.0.0.1', 'localhost');
    const input = `${PASSWORD}\n`;
    expect((await wolfpack(['login', '--username', USER, '--password-stdin'], { input })).code).toBe(0);
    const first = await storedToken();
    expect((await wolfpack(['login', '--server', other, '--username', USER, '--password-stdin'], { input })).code).toBe(0);

    // The last server logged in to is now the default when nothing else says otherwise.
    const defaulted = await runCli(['whoami'], { env: { HOME: home, WOLFPACK_CONFIG: configFile } });
    expect(defaulted.stdout).toContain(`on ${other}`);

    expect((await wolfpack(['logout', '--server', other])).code).toBe(0);
    expect((await wolfpack(['whoami'])).code).toBe(0);
    expect(await storedToken()).toBe(first);

    expect((await wolfpack(['login', '--username', USER, '--password-stdin'], { input })).code).toBe(0);
    expect(await storedToken()).not.toBe(first);
    expect(await meStatus(first)).toBe(401);
  });

  it('says how to start a server when none answers', async () => {
    const nowhere = `http://127.0.0.1:${await unusedPort()}`;
    const result = await wolfpack(['login', '--server', nowhere, '--username', USER, '--password-stdin'], { input: PASSWORD });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: Cannot reach the Wolfpack server at ${nowhere}. Is it running? Start one with \`wolfpack serve\`.\n`,
    });
  });
});

describe.skipIf(!hasTmux())('in a terminal (tmux)', () => {
  const term = tmuxServer('wolfpack-cli-test');
  const screen = () => term.screen('login');
  const waitForScreen = (pattern: RegExp) => term.waitFor('login', pattern, 20_000);

  afterAll(() => term.close());

  it('asks for username and password, does not show the password, and logs in', async () => {
    // CI unset: under CI=true Ink draws only the final frame, and a person at a terminal sees frames.
    const command = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${server.url}' HOME='${home}' '${process.execPath}' '${BIN}' login; echo "EXIT=$?"; sleep 600`;
    term.start('login', command, { width: 120, height: 30 });

    await waitForScreen(/Username:/);
    term.tmux('send-keys', '-t', 'login', '-l', USER);
    term.tmux('send-keys', '-t', 'login', 'Enter');
    await waitForScreen(/Password:/);
    term.tmux('send-keys', '-t', 'login', '-l', PASSWORD);
    // Let the password reach the prompt before Enter, as typing would, so it could be drawn if it were going to be.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen()).not.toContain(PASSWORD);
    term.tmux('send-keys', '-t', 'login', 'Enter');

    const shown = await waitForScreen(/EXIT=/);
    expect(shown).toContain(`Username: ${USER}`);
    expect(shown).toContain(`Logged in to ${server.url} as ${USER}`);
    expect(shown).toContain('EXIT=0');
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(await storedToken());
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
  });

  // A pasted answer, an expect script or quick typing sends the answer and Enter in one chunk.
  it.each([
    ['yes', 0, true],
    ['y', 0, true],
    ['n', 1, false],
    ['maybe', 1, false],
  ] as const)('deleting asks [y/N]; "%s" and Enter sent together answer it (exit %i)', async (answer, exit, deleted) => {
    await wolfpack(['login', '--username', USER, '--password-stdin'], { input: `${PASSWORD}\n` });
    const created = await wolfpack(['folders', 'create', `Answer ${answer}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const folderId = (JSON.parse(created.stdout) as { folder: { id: string } }).folder.id;
    const session = `confirm-${answer}`;
    const command = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${server.url}' HOME='${home}' '${process.execPath}' '${BIN}' folders rm ${folderId}; echo "EXIT=$?"; sleep 600`;
    term.start(session, command, { width: 120, height: 30 });
    await term.waitFor(session, /\[y\/N\]/, 20_000);
    term.tmux('send-keys', '-t', session, answer, 'Enter');
    const shown = await term.waitFor(session, /EXIT=\d/, 20_000);
    expect(shown).toContain(`EXIT=${exit}`);
    if (!deleted) expect(shown).toContain('Cancelled; nothing was deleted.');
    const listed = await wolfpack(['folders', 'ls', '--json']);
    expect(listed.stdout.includes(folderId)).toBe(!deleted);
  });
});
