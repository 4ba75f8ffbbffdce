/**
 * `wolfpack tokens create|list|revoke` and WOLFPACK_TOKEN, with the built binary against a real
 * server: a token is printed once, on stdout alone; any command runs with WOLFPACK_TOKEN and
 * WOLFPACK_URL and no config file; a revoked, expired or unknown token exits 1 saying which.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, signedInHome, startTestServer, type SignedInHome, type TestServer } from './testing/cli-harness.js';

let server: TestServer;
let owner: SignedInHome;
let bare: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signedInHome(server.url, 'token-maker');
  bare = await mkdtemp(join(tmpdir(), 'wolfpack-cli-bare-'));
}, 120_000);

afterAll(async () => {
  await owner?.dispose();
  await server?.close();
  if (bare) await rm(bare, { recursive: true, force: true });
});

/** A machine that never logged in: an empty HOME, no config file, the token from the environment. */
function withToken(token: string, args: string[]) {
  return runCli(args, { env: { HOME: bare, WOLFPACK_URL: server.url, WOLFPACK_TOKEN: token } });
}

describe('wolfpack tokens and WOLFPACK_TOKEN', () => {
  let token: string;
  let id: string;

  it('creates a token: stdout carries it alone, stderr says it is shown once', async () => {
    const created = await owner.run(['tokens', 'create', 'github-actions', '--expires', '30']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^wpk_[A-Za-z0-9_-]{43}\n$/);
    token = created.stdout.trim();
    expect(created.stderr).toMatch(/^Created API token "github-actions" \([0-9a-f]{8}, expires [^)]+\)\. It is shown once: keep it in your CI's secrets as WOLFPACK_TOKEN\.\n$/);

    const json = await owner.run(['tokens', 'create', 'nightly', '--expires', 'never', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const reply = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(reply).toMatchObject({ name: 'nightly', expiresAt: null, lastUsedAt: null, token: expect.stringMatching(/^wpk_/) });

    const bad = await owner.run(['tokens', 'create', 'x', '--expires', '400']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toBe('wolfpack: Expiry is 1 to 365 days, or none.\n');
    const usage = await owner.run(['tokens', 'create', 'x', '--expires', 'soon']);
    expect(usage.code).toBe(2);
  });

  it('runs any command with WOLFPACK_TOKEN and WOLFPACK_URL alone, writing no config file', async () => {
    const who = await withToken(token, ['whoami']);
    expect(who).toMatchObject({ code: 0, stderr: '' });
    expect(who.stdout).toMatch(new RegExp(`^token-maker \\(\\w+\\) on ${server.url}\n$`));
    const projects = await withToken(token, ['projects', 'ls', '--json']);
    expect(projects.code, projects.stderr).toBe(0);
    expect(existsSync(join(bare, '.config'))).toBe(false);
  });

  it('lists the tokens with their dates, marking the one in use, and never the token itself', async () => {
    const list = await withToken(token, ['tokens', 'list']);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ID\s+CREATED\s+LAST USED\s+EXPIRES$/);
    const mine = lines.find((line) => line.startsWith('github-actions (this one)'))!;
    expect(mine).toBeDefined();
    expect(mine).not.toMatch(/\bnever\s*$/);
    expect(lines.find((line) => line.startsWith('nightly'))).toMatch(/never\s+never$/);
    expect(list.stdout).not.toContain('wpk_');

    const json = JSON.parse((await withToken(token, ['tokens', 'ls', '--json'])).stdout) as { tokens: Array<Record<string, unknown>> };
    const entry = json.tokens.find((t) => t['name'] === 'github-actions')!;
    expect(entry).toMatchObject({ current: true, expiresAt: expect.any(String), lastUsedAt: expect.any(String) });
    id = String(entry['id']);
  });

  it('revokes by the first 8 characters; the token then fails with exit 1 and says it was revoked', async () => {
    const revoked = await owner.run(['tokens', 'revoke', id.slice(0, 8)]);
    expect(revoked).toEqual({ code: 0, stdout: `Revoked API token "github-actions" (${id.slice(0, 8)}).\n`, stderr: '' });
    const refused = await withToken(token, ['whoami']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: WOLFPACK_TOKEN was refused by ${server.url}: The API token was revoked. Create a new one under API tokens in Settings, or run \`wolfpack login\` again.\n`,
    });
    expect(await owner.run(['tokens', 'revoke', id.slice(0, 8)])).toMatchObject({ code: 1, stderr: 'wolfpack: There is no such API token. `wolfpack tokens list` shows yours with their ids.\n' });
  });

  it('says when the token is unknown to the server', async () => {
    const unknown = await withToken('wpk_thisisnotatoken', ['balance']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `wolfpack: WOLFPACK_TOKEN was refused by ${server.url}: The API token is unknown to this server: check that it was copied whole and belongs to this server. Create a new one under API tokens in Settings, or run \`wolfpack login\` again.\n`,
    );
    expect(unknown.stderr).not.toContain('wpk_thisisnotatoken');
  });
});
