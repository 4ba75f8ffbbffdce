/**
 * `wolfpack capsules ls`, `publish` and `unpublish` from the built binary against a real server
 * with the demo engines: a completed build records a private capsule, publishing prints a link
 * that opens logged out, unpublishing hides it again, and nobody else can touch it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CAPSULE_NOT_FOUND } from './commands/capsules.js';
import { loginCli, runCli, startTestServer, storedToken, type CliResult, type RunOptions, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

// Each test runs the binary a dozen times or more, a fresh Node process each (1-3 s on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

interface CapsuleRow {
  id: string;
  slug: string;
  title: string;
  /** As the API sends it: the string "true" or "false". */
  isPublic: 'true' | 'false';
  viewCount: number;
  shareCount: number;
  url: string;
}

let server: TestServer;
let home: string;

async function newUser(username: string) {
  const env = { HOME: home, WOLFPACK_CONFIG: join(home, `${username}.json`) };
  await loginCli(server.url, username, PASSWORD, env);
  return (args: string[], options: RunOptions = {}): Promise<CliResult> => runCli(args, { ...options, env: { ...env, WOLFPACK_URL: server.url, ...options.env } });
}

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** What a browser that is not logged in gets for the capsule. */
async function openLoggedOut(slug: string): Promise<number> {
  const response = await fetch(`${server.url}/api/capsules/${encodeURIComponent(slug)}`);
  await response.body?.cancel();
  return response.status;
}

let owner: Awaited<ReturnType<typeof newUser>>;
let stranger: Awaited<ReturnType<typeof newUser>>;
let recorded: CapsuleRow;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-capsules-'));
  server = await startTestServer();
  owner = await newUser('recorder');
  stranger = await newUser('stranger');
  const built = await owner(['build', 'a habit tracker\nwith streaks', '--json']);
  expect(built.code, built.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('wolfpack capsules', () => {
  it('ls: a completed build recorded one private capsule, with its link', async () => {
    const { capsules } = json<{ capsules: CapsuleRow[] }>(await owner(['capsules', 'ls', '--json']));
    expect(capsules).toHaveLength(1);
    recorded = capsules[0]!;
    expect(recorded).toMatchObject({ isPublic: 'false', viewCount: 0, shareCount: 0 });
    // The API's shape exactly (isPublic a string, as README says), plus the link.
    const token = await storedToken(join(home, 'recorder.json'), server.url);
    const api = (await (await fetch(`${server.url}/api/capsules/user/my-capsules`, { headers: { authorization: `Bearer ${token}` } })).json()) as { capsules: object[] };
    expect(capsules).toEqual(api.capsules.map((capsule) => ({ ...capsule, url: recorded.url })));
    expect(recorded.title).toContain('habit tracker');
    expect(recorded.url).toBe(`${server.url}/capsules/${recorded.slug}`);
    expect(await openLoggedOut(recorded.slug)).toBe(404);

    const table = await owner(['capsules']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TITLE +VISIBILITY +VIEWS +SHARES +URL$/);
    expect(lines[1]).toMatch(new RegExp(`^${recorded.id.slice(0, 8)}  .*habit tracker.* +private +0 +0  ${recorded.url.replace(/[.?]/g, '\\$&')}$`));
    expect(lines.at(-1)).toBe('1 capsule (0 public, 1 private), 0 views, 0 shares.');
  });

  it('publish prints the public link alone on stdout; it opens logged out; unpublish hides it again', async () => {
    const published = await owner(['capsules', 'publish', recorded.id.slice(0, 8)]);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toBe(`${recorded.url}\n`);
    expect(published.stderr).toMatch(/^".*habit tracker.*" is public now\. Anyone with this link can watch it:\n$/);
    expect(await openLoggedOut(recorded.slug)).toBe(200);
    expect(json<{ capsules: CapsuleRow[] }>(await owner(['capsules', 'ls', '--json'])).capsules[0]).toMatchObject({ id: recorded.id, isPublic: 'true' });
    expect((await owner(['capsules', 'ls'])).stdout).toContain('1 capsule (1 public, 0 private)');

    // The link works as the id too.
    const hidden = json<{ id: string; isPublic: string; url: string }>(await owner(['capsules', 'unpublish', recorded.url, '--json']));
    expect(hidden).toEqual({ id: recorded.id, slug: recorded.slug, isPublic: 'false', url: recorded.url });
    expect(await openLoggedOut(recorded.slug)).toBe(404);
    const plain = await owner(['capsules', 'unpublish', recorded.slug]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toMatch(new RegExp(`^".*habit tracker.*" is private now: only you can open ${recorded.url.replace(/[.?]/g, '\\$&')}\\.\\n$`));

    const asJson = json<{ isPublic: string; url: string }>(await owner(['capsules', 'publish', recorded.id, '--json']));
    expect(asJson).toEqual({ id: recorded.id, slug: recorded.slug, isPublic: 'true', url: recorded.url });
  });

  it('someone else has no capsules and cannot publish or hide this one; no login, no capsules', async () => {
    expect(await stranger(['capsules'])).toEqual({
      code: 0,
      stdout: 'No capsules yet. Every completed `wolfpack build` records one, private until you publish it.\n',
      stderr: '',
    });
    expect(json(await stranger(['capsules', 'ls', '--json']))).toEqual({ capsules: [] });
    for (const command of ['publish', 'unpublish']) {
      expect(await stranger(['capsules', command, recorded.id])).toEqual({ code: 1, stdout: '', stderr: `wolfpack: ${CAPSULE_NOT_FOUND}\n` });
    }
    const nobody = await runCli(['capsules', 'ls'], { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'nobody.json'), WOLFPACK_URL: server.url } });
    expect(nobody).toEqual({ code: 1, stdout: '', stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n` });
    expect((await owner(['capsules', 'publish'])).code).toBe(2);
  });
});
