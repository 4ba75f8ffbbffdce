/**
 * `wolfpack preview ID` prints the link "Open Preview" goes to, on the project's own origin, and
 * the link works in any client without a session: the built binary against a real server.
 */
import { PreviewClient } from '@wolfpack/server/testing';
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
    const origin = `http://p-${projectId}.localhost:${new URL(server.url).port}`;
    const [url, note] = result.stdout.trimEnd().split('\n');
    expect(url).toMatch(new RegExp(`^${origin}/__wolfpack__/enter\\?token=\\d+\\.[\\w-]{43}&app=`));
    expect(note).toBe(`(the project on its own origin, ${origin}: its files as they are; the link lets a browser in for about 6 hours)`);

    // No cookie, no token: the link alone lets a browser in, and the page is at the origin's root.
    const browser = new PreviewClient();
    const entered = await browser.request(url!);
    expect(entered.status).toBe(302);
    expect(entered.headers.location).toBe('/');
    const page = await browser.request(`${origin}/`);
    expect(page.status).toBe(200);
    const token = await storedToken(user.configFile, server.url);
    const files = projectDetailReply.parse(await apiGet(server.url, token, `/api/projects/${projectId}`)).project.fsIndex;
    expect(page.text).toBe(files['index.html']);

    const json = await wolfpack(['preview', projectId, '--json']);
    // A new link each time (its own expiry): same project, same shape.
    const reply = JSON.parse(json.stdout) as { url: string; expiresAt: string };
    expect(reply).toEqual({ projectId, url: expect.stringMatching(new RegExp(`^${origin}/__wolfpack__/enter\\?token=`)), origin, expiresAt: expect.any(String), kind: 'static', routes: [] });
    expect(reply.url).toContain(`token=${Date.parse(reply.expiresAt)}.`);
  }, 60_000);

  it('ends every preview link with `wolfpack logout --everywhere`, and the CLI\'s own token with them', async () => {
    const other = await signedInHome(server.url, 'leaver');
    try {
      const built = await other.run(['build', 'a reading list', '--json']);
      expect(built.code, built.stderr).toBe(0);
      const projectId = parseJsonLines(built.stdout).at(-1)!['projectId'] as string;
      const link = (await other.run(['preview', projectId])).stdout.split('\n')[0]!;
      const browser = new PreviewClient();
      expect((await browser.request(link)).status).toBe(302);
      const origin = new URL(link).origin;
      expect((await browser.request(`${origin}/`)).status).toBe(200);

      const out = await other.run(['logout', '--everywhere']);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toBe(`Signed out everywhere on ${server.url}: every browser, every API token and every preview link of the account\n`);
      expect((await browser.request(`${origin}/`)).status).toBe(404);
      expect((await new PreviewClient().request(link)).status).toBe(404);
      const whoami = await other.run(['whoami']);
      expect(whoami.code).not.toBe(0);
    } finally {
      await other.dispose();
    }
  }, 60_000);

  it('says what to do with an id that is not one of the user\'s projects', async () => {
    const result = await wolfpack(['preview', '00000000-0000-4000-8000-000000000000']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n' });
  });
});
