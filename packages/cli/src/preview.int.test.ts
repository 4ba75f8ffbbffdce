/**
 * `wolfpack preview ID` prints the link "Open Preview" goes to, and the link works in any client
 * without a session: the built binary against a real server.
 */
import { projectDetailReply } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, parseJsonLines, signedInHome, startTestServer, storedToken, type CliResult, type SignedInHome, type TestServer } from './testing/cli-harness.js';

let server: TestServer;
let user: SignedInHome;

beforeAll(async () => {
  server = await startTestServer();
  user = await signedInHome(server.url, 'previewer');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await user?.dispose();
});

const wolfpack = (args: string[]): Promise<CliResult> => user.run(args);

describe('wolfpack preview', () => {
  it('prints the signed link of a project by its short id; the link serves its page to anyone holding it', async () => {
    const built = await wolfpack(['build', 'a pomodoro timer with a task list', '--json']);
    expect(built.code, built.stderr).toBe(0);
    const projectId = parseJsonLines(built.stdout).at(-1)!['projectId'] as string;

    const result = await wolfpack(['preview', projectId.slice(0, 8)]);
    expect(result.code, result.stderr).toBe(0);
    const [url, note] = result.stdout.trimEnd().split('\n');
    expect(url).toMatch(new RegExp(`^${server.url}/preview/${projectId}/\\d+\\.[\\w-]{43}/$`));
    expect(note).toBe('(works in any browser for about 6 hours; a bundled app shows "Building preview…" until its build is ready)');

    // No cookie, no token: the link alone.
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts/);
    const token = await storedToken(user.configFile, server.url);
    const files = projectDetailReply.parse(await apiGet(server.url, token, `/api/projects/${projectId}`)).project.fsIndex;
    expect(await page.text()).toBe(files['index.html']);

    const json = await wolfpack(['preview', projectId, '--json']);
    // A new link each time (its own expiry): same project, same shape.
    const reply = JSON.parse(json.stdout) as { url: string; expiresAt: string };
    expect(reply).toEqual({ projectId, url: expect.stringMatching(new RegExp(`^${server.url}/preview/${projectId}/\\d+\\.[\\w-]{43}/$`)), expiresAt: expect.any(String) });
    expect(reply.url).toContain(`/${Date.parse(reply.expiresAt)}.`);
  }, 60_000);

  it('says what to do with an id that is not one of the user\'s projects', async () => {
    const result = await wolfpack(['preview', '00000000-0000-4000-8000-000000000000']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n' });
  });
});
