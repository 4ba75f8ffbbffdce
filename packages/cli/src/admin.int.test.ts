/**
 * `wolfpack admin grant-licence USER --until DATE` and `revoke-licence USER` from the built binary
 * against a real server that takes no payments: `wolfpack iterate` says where a licence comes
 * from there, the operator grants one with the admin secret, iterate works until the licence's
 * end (the server's clock is moved past it), and a wrong secret changes nothing. In a terminal
 * (tmux) the secret is asked for and never drawn.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_PAYMENT_REQUIRED } from './exit-code.js';
import { BIN, hasTmux, runCli, testServerBasics, tmuxServer, type RunOptions } from './testing/cli-harness.js';

const SECRET = 'operator-secret-0123456789abcdef';
const PASSWORD = 'correct-horse-battery';

vi.setConfig({ testTimeout: 120_000 });

let engine: OpenAIFakeServer;
let server: { url: string; close(): Promise<void> };
let dataDir: string;
let work: string;
let key: string;
let now = new Date('2026-06-01T12:00:00Z');

beforeAll(async () => {
  engine = await startFakeOpenAIServer({ fallback: () => ({ kind: 'stream', deltas: ['```ts src/a.ts\nexport const a = 2;\n```\n'] }) });
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-admin-'));
  work = await mkdtemp(join(tmpdir(), 'wolfpack-cli-admin-work-'));
  const { startServer } = await import('@wolfpack/server');
  server = await startServer({
    ...(await testServerBasics(dataDir)),
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    webDir: false,
    clock: () => now,
    env: {
      WOLFPACK_SANDBOX: 'off',
      WOLFPACK_ADMIN_SECRET: SECRET,
      WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]),
    },
  });
  const registered = await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'Friend', password: PASSWORD }) });
  expect(registered.ok).toBe(true);
  const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const created = await fetch(`${server.url}/api/njin/keys`, { method: 'POST', headers: { cookie, origin: server.url } });
  expect(created.status).toBe(201);
  key = ((await created.json()) as { apiKey: string }).apiKey;
  await mkdir(join(work, 'src'), { recursive: true });
  await writeFile(join(work, 'src', 'a.ts'), 'export const a = 1;\n');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

function wolfpack(args: string[], options: RunOptions = {}) {
  return runCli(args, { ...options, cwd: work, env: { HOME: work, WOLFPACK_CONFIG: join(work, 'config.json'), WOLFPACK_URL: server.url, ...options.env } });
}
const iterate = () => wolfpack(['iterate', '--instruction', 'make a two', '--mode', 'single', 'src/a.ts'], { env: { NJIN_API_KEY: key } });

describe('wolfpack admin grant-licence / revoke-licence', () => {
  it('iterate says that licences cannot be bought here and what the operator can do', async () => {
    const result = await iterate();
    expect(result.code, result.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    expect(result.stderr).toBe(
      'wolfpack: This API key has no active njin licence, and licences cannot be bought on this server: it takes no payments. Ask its operator to grant you one (wolfpack admin grant-licence USER --until DATE), or to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET so that licences can be bought on the njin page.\n',
    );
  });

  it('refuses a wrong secret and changes nothing; never takes the secret as an argument', async () => {
    const wrong = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-06-30'], { env: { WOLFPACK_ADMIN_SECRET: 'not-the-secret' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `wolfpack: The server at ${server.url} refused the admin secret. It is WOLFPACK_ADMIN_SECRET on the server, or else the "adminSecret" field of the server's DATA_DIR/secrets.json.\n`,
    );
    const piped = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-06-30', '--secret-stdin'], { input: 'also-wrong\n' });
    expect(piped.code).toBe(1);
    expect((await iterate()).code).toBe(EXIT_PAYMENT_REQUIRED);

    // No way to put it on the command line, where `ps` shows it to every user of the machine.
    const argv = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-06-30', '--secret', SECRET]);
    expect(argv).toMatchObject({
      code: 2,
      stderr:
        'wolfpack: wolfpack admin takes no secret as an argument, where other users of this machine can read it (ps). Set WOLFPACK_ADMIN_SECRET, pipe it in with --secret-stdin, or leave both out to be asked.\n',
    });
    // Without a terminal to ask in and no secret given: what to do.
    const none = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-06-30']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^wolfpack: The admin secret is needed: set WOLFPACK_ADMIN_SECRET, or pipe it in with --secret-stdin\./);
    const notADate = await wolfpack(['admin', 'grant-licence', 'friend', '--until', 'june'], { env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    expect(notADate).toMatchObject({ code: 2, stderr: 'wolfpack: "june" is not a date. --until takes a day such as 2027-01-31 (the licence then runs through that day, UTC) or a time such as 2027-01-31T18:00:00Z.\n' });
    const nobody = await wolfpack(['admin', 'grant-licence', 'nobody', '--until', '2026-06-30'], { env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toBe('wolfpack: There is no account named nobody on this server. Usernames are as people sign in with them.\n');
  });

  it('grants a licence that njin honours until its end, then revokes one', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const granted = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-06-30'], { env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toBe('Friend has an njin licence until 2026-06-30 23:59:59 UTC.\n');
    const works = await iterate();
    expect(works.code, works.stderr).toBe(0);
    expect(works.stdout).toContain('+export const a = 2;');

    // Past the end of that day the licence is over.
    now = new Date('2026-07-01T00:00:01Z');
    expect((await iterate()).code).toBe(EXIT_PAYMENT_REQUIRED);

    // Granted again with the secret piped in; --json prints the reply.
    const again = await wolfpack(['admin', 'grant-licence', 'friend', '--until', '2026-12-31', '--secret-stdin', '--json'], { input: `${SECRET}\n` });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      licence: { username: 'Friend', status: 'active', expiresAt: '2026-12-31T23:59:59.999Z', usageCount: 1, paidThroughStripe: false },
      changed: true,
    });
    expect((await iterate()).code).toBe(0);

    const revoked = await wolfpack(['admin', 'revoke-licence', 'friend'], { env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe("Friend's njin licence is revoked: njin refuses their keys from now on.\n");
    expect((await iterate()).code).toBe(EXIT_PAYMENT_REQUIRED);
    const twice = await wolfpack(['admin', 'revoke-licence', 'friend'], { env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    expect(twice.stdout).toBe('Friend had no active njin licence; nothing changed.\n');
  });
});

describe.skipIf(!hasTmux())('wolfpack admin in a terminal (tmux)', () => {
  const term = tmuxServer('wolfpack-cli-admin-test');
  afterAll(() => term.close());
  // CI unset: under CI=true Ink draws only the final frame. No WOLFPACK_ADMIN_SECRET: it is asked for.
  const start = (session: string, args: string) =>
    term.start(
      session,
      `env -u CI -u WOLFPACK_ADMIN_SECRET WOLFPACK_CONFIG='${join(work, 'config.json')}' WOLFPACK_URL='${server.url}' HOME='${work}' '${process.execPath}' '${BIN}' ${args}; echo "EXIT=$?"; sleep 600`,
      { width: 120, height: 20 },
    );

  it('asks for the admin secret without drawing it, then grants the licence', async () => {
    now = new Date('2026-08-01T12:00:00Z');
    start('grant', 'admin grant-licence friend --until 2026-08-31');
    const asked = await term.waitFor('grant', /Admin secret: \(typing is hidden\)/);
    expect(asked).toContain(`Admin secret for ${server.url}`);
    // Enter on nothing asks again instead of sending an empty secret.
    term.tmux('send-keys', '-t', 'grant', 'Enter');
    await term.waitFor('grant', /Enter the admin secret\./);
    term.tmux('send-keys', '-t', 'grant', '-l', SECRET);
    // Let the secret reach the prompt before Enter, as typing would, so it could be drawn if it were going to be.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(term.screen('grant')).not.toContain(SECRET);
    term.tmux('send-keys', '-t', 'grant', 'Enter');
    const shown = await term.waitFor('grant', /EXIT=\d/);
    expect(shown).toContain('Friend has an njin licence until 2026-08-31 23:59:59 UTC.');
    expect(shown).toContain('EXIT=0');
    expect(shown).not.toContain(SECRET);
    expect((await iterate()).code).toBe(0);
  });

  it('changes nothing when the question is left with Escape', async () => {
    start('escape', 'admin revoke-licence friend');
    await term.waitFor('escape', /Admin secret: \(typing is hidden\)/);
    term.tmux('send-keys', '-t', 'escape', '-l', 'half-typ');
    term.tmux('send-keys', '-t', 'escape', 'Escape');
    const shown = await term.waitFor('escape', /EXIT=\d/);
    expect(shown).toContain('wolfpack: Cancelled.');
    expect(shown).toContain('EXIT=1');
    expect((await iterate()).code).toBe(0);
  });
});
