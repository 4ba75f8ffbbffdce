/**
 * `wolfpack publish` as a CI script runs it: the built binary, stdin closed, CI=true, the token in
 * GITHUB_TOKEN, against a real Wolfpack server that talks to a local fake of GitHub's REST API
 * (the real wire format, driven by the server's real Octokit).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectDetailReply } from '@wolfpack/core';
import { startFakeGithub, type FakeGithub } from '@wolfpack/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, loginCli, parseJsonLines, runCli, startTestServer, storedToken, type CliResult, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

let github: FakeGithub;
let server: TestServer;
let home: string;
let configFile: string;

beforeAll(async () => {
  github = await startFakeGithub({ tokens: { ghp_good: 'octocat' } });
  server = await startTestServer({ env: { GITHUB_API_URL: github.url } });
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-publish-'));
  configFile = join(home, 'config.json');
  await loginCli(server.url, 'publisher', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await github?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** As CI runs it: CI=true, stdin closed (runCli closes it), the token from the environment. */
function ci(args: string[], env: Record<string, string> = { GITHUB_TOKEN: 'ghp_good' }): Promise<CliResult> {
  return runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url, CI: 'true', ...env } });
}

async function build(args: string[]): Promise<string> {
  const result = await ci(['build', ...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return parseJsonLines(result.stdout).at(-1)!['projectId'] as string;
}

async function fsIndexOf(projectId: string): Promise<Record<string, string>> {
  const token = await storedToken(configFile, server.url);
  return projectDetailReply.parse(await apiGet(server.url, token, `/api/projects/${projectId}`)).project.fsIndex;
}

describe('wolfpack publish from a CI script', () => {
  let projectId: string;

  it('prints exactly the repository URL, and the repository holds the project at its head', async () => {
    projectId = await build(['a habit tracker with streaks']);
    const result = await ci(['publish', projectId, '--repo', 'my-app']);
    expect(result).toEqual({ code: 0, stdout: `${github.url}/octocat/my-app\n`, stderr: '' });
    expect(github.filesAt('octocat', 'my-app')).toEqual(await fsIndexOf(projectId));
    // The token went to GitHub in the request, from the header the CLI sent it in.
    expect(github.requests.some((request) => request.auth.endsWith(' ghp_good'))).toBe(true);
  });

  it('publishing again after a continued build adds a commit on top; --json gives both URLs', async () => {
    const before = github.head('octocat', 'my-app');
    const continued = await build(['add a weekly summary view', '--continue', projectId]);
    expect(continued).toBe(projectId);

    const result = await ci(['publish', projectId, '--repo', 'my-app', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ repoUrl: `${github.url}/octocat/my-app`, replitUrl: 'https://replit.com/github/octocat/my-app' });
    const after = github.head('octocat', 'my-app');
    expect(after.sha).not.toBe(before.sha);
    expect(after.parents).toEqual([before.sha]);
    expect(github.filesAt('octocat', 'my-app')).toEqual(await fsIndexOf(projectId));
  });

  it('a taken name is one line with the server’s sentence, exit 1', async () => {
    const other = await build(['a recipe box']);
    expect(await ci(['publish', other, '--repo', 'my-app'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'wolfpack: A repository named "my-app" already exists on your GitHub account. Choose another name.\n',
    });
  });

  it('a token GitHub rejects is one line, exit 1', async () => {
    const result = await ci(['publish', projectId, '--repo', 'another-app'], { GITHUB_TOKEN: 'ghp_revoked' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^wolfpack: GitHub rejected the token[^\n]*\n$/);
    expect(result.stderr).not.toContain('ghp_revoked');
  });

  it('without GITHUB_TOKEN and no token saved in Settings, says how to give one', async () => {
    expect(await ci(['publish', projectId, '--repo', 'another-app'], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: 'wolfpack: No GitHub token: set GITHUB_TOKEN to a token with the repo scope, or save one in Settings on the Wolfpack server.\n',
    });
  });

  it('checks the name with GitHub’s rules before sending anything (exit 2)', async () => {
    const calls = github.requests.length;
    expect(await ci(['publish', projectId, '--repo', 'my app'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'wolfpack: Repository names may contain only letters, numbers, hyphens, underscores and dots. See `wolfpack --help`.\n',
    });
    expect((await ci(['publish', projectId, '--repo', '..'])).stderr).toBe('wolfpack: Repository names cannot be "." or "..". See `wolfpack --help`.\n');
    expect((await ci(['publish', projectId])).code).toBe(2);
    expect(github.requests.length).toBe(calls);
  });

  it('another user’s project is not found', async () => {
    const result = await ci(['publish', '00000000-0000-4000-8000-000000000000', '--repo', 'x']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n' });
  });
});
