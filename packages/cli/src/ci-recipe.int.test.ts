/**
 * What a CI job does, on a machine with only Node and npm: pack the CLI (pnpm pack:cli), install
 * the tarball with the machine's own Node 20+ and npm into an empty folder outside the workspace,
 * from the running server's GET /cli/wolfpack-cli.tgz, then run docs/CI.md's shell recipe as it
 * stands, signed in with WOLFPACK_TOKEN alone (no login, no config file): build from an idea file,
 * --out, --strict, publish to the fake GitHub. Then the same with a revoked and an unknown token.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeGithub, type FakeGithub } from '@wolfpack/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonLines, registerUser, startTestServer, type TestServer } from './testing/cli-harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACK = join(ROOT, 'packages', 'cli', 'scripts', 'pack.mjs');
/** The machine's own Node (Debian's, v20 here), as a CI image has it; else the one running this. */
const MACHINE_NODE = existsSync('/usr/bin/node') && existsSync('/usr/bin/npm') ? '/usr/bin/node' : process.execPath;
const INSTALL_LIMIT_MS = 30_000;

/** docs/CI.md's shell recipe, the block between its recipe markers. */
async function recipe(): Promise<string> {
  const doc = await readFile(join(ROOT, 'docs', 'CI.md'), 'utf8');
  const block = /<!-- recipe:start -->\s*```bash\n([\s\S]*?)```\s*<!-- recipe:end -->/.exec(doc);
  if (!block) throw new Error('docs/CI.md has no recipe block');
  return block[1]!;
}

interface Shell {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function sh(script: string, options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<Shell> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 180_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

let github: FakeGithub;
let server: TestServer;
let work: string;

beforeAll(async () => {
  execFileSync(process.execPath, [PACK], { cwd: ROOT, stdio: 'pipe' });
  github = await startFakeGithub({ tokens: { ghp_ci: 'octocat' } });
  server = await startTestServer({ env: { GITHUB_API_URL: github.url } });
  // Outside the workspace: nothing of it can be resolved from here.
  work = await mkdtemp(join(tmpdir(), 'wolfpack-ci-'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await github?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a CI job with the npm-installed CLI and WOLFPACK_TOKEN', () => {
  let token: string;
  let tokenId: string;
  /** Each job gets a fresh folder, HOME and npm prefix: a new CI machine with Node and npm only. */
  async function job(name: string, wolfpackToken: string): Promise<{ dir: string; env: Record<string, string> }> {
    const dir = join(work, name);
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(join(dir, 'idea.txt'), 'A habit tracker with daily streaks.\nEach habit can be ticked once a day.\n');
    const env = {
      PATH: `${join(dir, 'npm-global', 'bin')}:${dirname(MACHINE_NODE)}:/usr/bin:/bin`,
      HOME: home,
      npm_config_prefix: join(dir, 'npm-global'),
      npm_config_cache: join(home, '.npm'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      CI: 'true',
      WOLFPACK_URL: server.url,
      WOLFPACK_TOKEN: wolfpackToken,
      GITHUB_TOKEN: 'ghp_ci',
      REPO_NAME: `habits-${name}`,
    };
    return { dir, env };
  }

  it('installs the CLI from the server in under 30 s, builds, writes --out and publishes with the token alone', async () => {
    await registerUser(server.url, 'ci-owner', 'correct-horse-battery');
    // The person makes the token once, signed in (here through the API, as Settings does).
    const session = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ci-owner', password: 'correct-horse-battery' }),
    });
    const cookie = session.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const created = await fetch(`${server.url}/api/tokens`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'github-actions', expiresInDays: 30 }) });
    expect(created.status).toBe(201);
    const reply = (await created.json()) as { token: string; apiToken: { id: string } };
    token = reply.token;
    tokenId = reply.apiToken.id;

    const { dir, env } = await job('good', token);
    const nodeVersion = execFileSync(MACHINE_NODE, ['--version'], { encoding: 'utf8' }).trim();
    expect(Number(/^v(\d+)/.exec(nodeVersion)![1])).toBeGreaterThanOrEqual(20);

    const install = await sh('npm i -g "$WOLFPACK_URL/cli/wolfpack-cli.tgz"', { cwd: dir, env });
    expect(install.code, install.stderr).toBe(0);
    expect(install.ms, `npm install took ${install.ms} ms with Node ${nodeVersion}`).toBeLessThan(INSTALL_LIMIT_MS);
    // One package, nothing fetched from the workspace or the registry.
    const installed = join(dir, 'npm-global', 'lib', 'node_modules');
    expect(await readdir(installed)).toEqual(['@wolfpack']);
    expect(await readdir(join(installed, '@wolfpack', 'cli'))).not.toContain('node_modules');

    // The installed package runs on the machine's Node by itself. How fast its --help starts
    // (≤ 2.5 × a bare `node -e 0`) is measured side by side by `pnpm bench startup`, not here,
    // where a busy machine decides it.
    const bin = join(installed, '@wolfpack', 'cli', 'dist', 'bin.js');
    expect(execFileSync(MACHINE_NODE, [bin, '--help'], { encoding: 'utf8' })).toContain('Usage: wolfpack [options] [command]');

    const run = await sh(await recipe(), { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    // The token is never printed, logged or written.
    expect(run.stdout + run.stderr).not.toContain(token);
    expect(existsSync(join(env['HOME']!, '.config', 'wolfpack'))).toBe(false);

    const outcome = parseJsonLines(await readFile(join(dir, 'build.jsonl'), 'utf8')).at(-1)!;
    expect(outcome).toMatchObject({ type: 'complete', filesGenerated: expect.any(Number) });
    expect(outcome['stages']).toHaveLength(5);
    const written = await readdir(join(dir, 'app'), { recursive: true, withFileTypes: true });
    const files = written.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(join(dir, 'app').length + 1));
    expect(files).toHaveLength(outcome['filesGenerated'] as number);

    const published = JSON.parse(await readFile(join(dir, 'publish.json'), 'utf8')) as Record<string, string>;
    expect(published).toEqual({ repoUrl: `${github.url}/octocat/habits-good`, replitUrl: 'https://replit.com/github/octocat/habits-good' });
    // The repository holds what --out wrote.
    const repository = github.filesAt('octocat', 'habits-good');
    expect(Object.keys(repository).sort()).toEqual([...files].sort());
    for (const file of files) expect(repository[file], file).toBe(await readFile(join(dir, 'app', file), 'utf8'));

    // The bundled client loads no server: serve says what it needs, in one sentence.
    const serve = await sh('wolfpack serve --port 0', { cwd: dir, env });
    expect(serve).toMatchObject({ code: 1, stdout: '' });
    expect(serve.stderr).toBe(
      'wolfpack: `wolfpack serve` needs the full Wolfpack install (a clone of the repository, started with `npm start`): the npm package of the CLI holds the client commands only.\n',
    );
  });

  it('fails the job with exit 1 and a sentence that says the token was revoked, or is unknown', async () => {
    const revokedBy = await fetch(`${server.url}/api/tokens/${tokenId}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(revokedBy.status).toBe(204);

    for (const [name, given, sentence] of [
      ['revoked', token, 'The API token was revoked.'],
      ['unknown', 'wpk_notatokenthisserverhasevermade', 'The API token is unknown to this server: check that it was copied whole and belongs to this server.'],
    ] as const) {
      const { dir, env } = await job(name, given);
      const run = await sh(await recipe(), { cwd: dir, env });
      expect(run.code, run.stderr).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe(
        `wolfpack: WOLFPACK_TOKEN was refused by ${server.url}: ${sentence} Create a new one under API tokens in Settings, or run \`wolfpack login\` again.`,
      );
      expect(run.stdout + run.stderr).not.toContain(given);
      expect(existsSync(join(dir, 'publish.json'))).toBe(false);
      expect(existsSync(join(dir, 'app'))).toBe(false);
    }
    expect(() => github.filesAt('octocat', 'habits-revoked')).toThrow();
  });
});
