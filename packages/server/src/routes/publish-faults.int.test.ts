/**
 * GitHub failing in the middle of a publish, at each step: creating the repository, uploading a
 * blob, the tree, the commit, moving the branch. Octokit talks to a local fake that answers 5xx
 * HTML pages, 422s, permission and rate-limit 403s, or does the work and loses the answer. The
 * user gets a sentence that says what to do, the project does not point at a repository it never
 * reached, and publishing again (same name) works and leaves one clean commit on GitHub.
 */
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishReply } from '@wolfpack/core';
import { startFakeGithub, type FakeGithub, type FakeGithubFailure } from '../testing/fake-github.js';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const HTML_502 = '<!DOCTYPE html><html><head><title>Unicorn! &middot; GitHub</title></head><body>We had issues producing the response to your request.</body></html>';

interface Step {
  name: string;
  failure: Omit<FakeGithubFailure, 'times'>;
  status: number;
  error: RegExp;
  retryAfter?: boolean;
}

const steps: Step[] = [
  {
    name: 'creating the repository answers a 502 page',
    failure: { method: 'POST', path: /^\/user\/repos$/, status: 502, body: HTML_502 },
    status: 502,
    error: /^GitHub answered 502\. Try again in a few minutes; publishing again continues where this one stopped\.$/,
  },
  {
    name: 'creating the repository works but its answer is lost (504)',
    failure: { method: 'POST', path: /^\/user\/repos$/, status: 504, body: HTML_502, afterEffect: true },
    status: 502,
    error: /^GitHub answered 504\. Try again in a few minutes/,
  },
  {
    name: 'a blob upload answers 500',
    failure: { method: 'POST', path: /\/git\/blobs$/, status: 500, body: { message: 'Server Error' } },
    status: 502,
    error: /^GitHub answered 500 \(Server Error\)\. Try again in a few minutes/,
  },
  {
    name: 'a blob upload finds the repository still empty (409)',
    failure: { method: 'POST', path: /\/git\/blobs$/, status: 409, body: { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest/git/blobs#create-a-blob' } },
    status: 502,
    error: /^GitHub is not ready to take the files yet \(409 Git Repository is empty\)\. Wait a few seconds and publish again\.$/,
  },
  {
    name: 'the tree is refused (422)',
    failure: { method: 'POST', path: /\/git\/trees$/, status: 422, body: { message: 'Invalid tree info', status: '422' } },
    status: 400,
    error: /^GitHub refused the request \(422: Invalid tree info\)\. Publish again; if it keeps failing, publish under another repository name\.$/,
  },
  {
    name: 'the commit hits the rate limit (403, x-ratelimit-remaining: 0)',
    failure: {
      method: 'POST',
      path: /\/git\/commits$/,
      status: 403,
      body: { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
      headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 900) },
    },
    status: 429,
    error: /^GitHub's rate limit is used up\. Try again after \d\d:\d\d UTC\.$/,
    retryAfter: true,
  },
  {
    name: 'the commit hits a secondary rate limit (403 with retry-after)',
    failure: {
      method: 'POST',
      path: /\/git\/commits$/,
      status: 403,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '60', 'x-ratelimit-remaining': '4000' },
    },
    status: 429,
    error: /^GitHub's rate limit is used up\. Try again after \d\d:\d\d UTC\.$/,
    retryAfter: true,
  },
  {
    name: 'moving the branch is forbidden (403)',
    failure: { method: 'PATCH', path: /\/git\/refs\/heads\/main$/, status: 403, body: { message: 'Resource not accessible by personal access token' } },
    status: 403,
    error: /^GitHub refused: the token lacks permission to create or write repositories\. Use a token with the repo scope/,
  },
  {
    name: 'moving the branch answers 503',
    failure: { method: 'PATCH', path: /\/git\/refs\/heads\/main$/, status: 503, body: HTML_502 },
    status: 502,
    error: /^GitHub answered 503\. Try again/,
  },
  {
    name: 'moving the branch is not a fast forward (someone pushed meanwhile)',
    failure: { method: 'PATCH', path: /\/git\/refs\/heads\/main$/, status: 422, body: { message: 'Update is not a fast forward' } },
    status: 409,
    error: /^The repository on GitHub changed while publishing \(someone pushed to it\)\. Publish again to add the project on top\.$/,
  },
];

async function build(server: TestServer, client: TestClient, idea: string): Promise<string> {
  const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
    body: JSON.stringify({ idea }),
  });
  const last = events.at(-1)!.event;
  if (last.type !== 'complete') throw new Error(`run did not complete: ${JSON.stringify(last)}`);
  return last.projectId;
}

describe.each(testDatabases())('GitHub failing during a publish on %s', (kind) => {
  let github: FakeGithub;
  let server: TestServer;
  let client: TestClient;
  let projectId: string;
  let files: Record<string, string>;

  beforeAll(async () => {
    github = await startFakeGithub({ tokens: { ghp_good: 'octocat' }, scopes: { ghp_good: 'repo' } });
    server = await startTestServer(kind, { env: { GITHUB_API_URL: github.url } });
    client = new TestClient(server.url);
    await client.post('/api/auth/register', { username: 'publisher', password: 'correct-horse' });
    expect((await client.request('PUT', '/api/settings/github', { token: 'ghp_good' })).status).toBe(200);
    projectId = await build(server, client, 'Bird watching log');
    files = ((await client.get(`/api/projects/${projectId}`)).json.project as { fsIndex: Record<string, string> }).fsIndex;
  });
  afterAll(async () => {
    await server?.dispose();
    await github?.close();
  });

  const linkedRepo = async () =>
    (await (server.db.orm.em.fork() as unknown as Sql).execute<Array<{ github_repo: string | null }>>('select github_repo from projects where id = ?', [projectId]))[0]!.github_repo;
  const publish = (repoName: string) => client.post(`/api/projects/${projectId}/publish-to-github`, { repoName, description: 'Birds', isPrivate: false });

  it.each(steps.map((step, i) => ({ ...step, repoName: `birds-${i + 1}` })))('$name: a sentence, nothing claimed, and publishing again works', async (step) => {
    const before = await linkedRepo();
    github.failNext(step.failure);
    const failed = await publish(step.repoName);
    expect(failed.status, failed.text).toBe(step.status);
    expect(failed.json).toMatchObject({ success: false, error: expect.stringMatching(step.error) });
    expect(failed.text).not.toContain('ghp_good');
    if (step.retryAfter) expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
    // The project does not point at a repository it never reached.
    expect(await linkedRepo()).toBe(before);

    const again = await publish(step.repoName);
    expect(again.status, again.text).toBe(200);
    expect(publishReply.parse(again.json).replitUrl).toBe(`https://replit.com/github/octocat/${step.repoName}`);
    expect(await linkedRepo()).toBe(`octocat/${step.repoName}`);
    // One repository, holding exactly the project (plus the initial README when it has none), one commit on the initial one.
    expect([...github.repos.keys()].filter((k) => k === `octocat/${step.repoName}`)).toHaveLength(1);
    const onGithub = github.filesAt('octocat', step.repoName);
    const { 'README.md': readme, ...rest } = onGithub;
    expect(rest).toEqual(Object.fromEntries(Object.entries(files).filter(([p]) => p !== 'README.md')));
    expect(readme).toBe(files['README.md'] ?? `# ${step.repoName}\n`);
    const head = github.head('octocat', step.repoName);
    expect(head.message).toBe('Generated by Wolfpack: Bird watching log');
    expect(head.parents).toHaveLength(1);
    const repo = github.repos.get(`octocat/${step.repoName}`)!;
    expect(repo.commits.get(head.parents[0]!)!.parents).toEqual([]);
  });

  it('a name taken by a repository with work of its own stays a 409, and nothing is pushed to it', async () => {
    const octokit = new Octokit({ auth: 'ghp_good', baseUrl: github.url, request: { retries: 0 } });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'someone-elses-work', auto_init: false });
    await octokit.rest.repos.createOrUpdateFileContents({ owner: 'octocat', repo: 'someone-elses-work', path: 'index.html', message: 'Mine', content: Buffer.from('<p>mine</p>').toString('base64'), branch: 'main' });
    const headBefore = github.head('octocat', 'someone-elses-work').sha;
    const taken = await publish('someone-elses-work');
    expect(taken.status).toBe(409);
    expect(taken.json.error).toBe('A repository named "someone-elses-work" already exists on your GitHub account. Choose another name.');
    expect(github.head('octocat', 'someone-elses-work').sha).toBe(headBefore);
  });

  it('republishing to a repository deleted on GitHub meanwhile creates it again', async () => {
    expect((await publish('birds-gone')).status).toBe(200);
    github.repos.delete('octocat/birds-gone');
    const again = await publish('birds-gone');
    expect(again.status, again.text).toBe(200);
    expect(github.filesAt('octocat', 'birds-gone')).toMatchObject(files);
  });

  it('GitHub unreachable: a sentence naming where it tried, nothing claimed', async () => {
    const before = await linkedRepo();
    const down = await startTestServer(kind, { env: { GITHUB_API_URL: 'http://127.0.0.1:9' } });
    try {
      const c = new TestClient(down.url);
      await c.post('/api/auth/register', { username: 'offline', password: 'correct-horse' });
      const id = await build(down, c, 'Offline');
      const res = await c.post(`/api/projects/${id}/publish-to-github`, { repoName: 'offline', description: '', isPrivate: false }, { 'x-github-token': 'ghp_good' });
      expect(res.status).toBe(502);
      expect(res.json.error).toBe('Could not reach GitHub at http://127.0.0.1:9. Check the connection and try again.');
    } finally {
      await down.dispose();
    }
    expect(await linkedRepo()).toBe(before);
  });
});

describe('GitHub creating a repository without its initial commit', () => {
  it('gets the first commit through the contents API, then publishes on top of it', async () => {
    const github = await startFakeGithub({ tokens: { ghp_good: 'octocat' }, ignoreAutoInit: true });
    const server = await startTestServer('pglite', { env: { GITHUB_API_URL: github.url } });
    try {
      const c = new TestClient(server.url);
      await c.post('/api/auth/register', { username: 'empty', password: 'correct-horse' });
      const id = await build(server, c, 'Empty start');
      const res = await c.post(`/api/projects/${id}/publish-to-github`, { repoName: 'empty-start', description: '', isPrivate: false }, { 'x-github-token': 'ghp_good' });
      expect(res.status, res.text).toBe(200);
      expect(github.requests.some((r) => r.method === 'GET' && /\/git\/ref\/heads\/main$/.test(r.path) && r.status === 409)).toBe(true);
      const head = github.head('octocat', 'empty-start');
      expect(head.parents).toHaveLength(1);
      const files = ((await c.get(`/api/projects/${id}`)).json.project as { fsIndex: Record<string, string> }).fsIndex;
      expect(github.filesAt('octocat', 'empty-start')).toMatchObject(files);
    } finally {
      await server.dispose();
      await github.close();
    }
  });
});
