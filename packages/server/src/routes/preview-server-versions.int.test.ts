/**
 * The preview of an earlier version of an HTTP server project: its link runs that version's
 * server beside the current one's. A link that follows the project moves its server on (the
 * version before is stopped); a link of a version of its own keeps its server.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { VersionStore } from '../services/projects/version-store.js';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the previews of HTTP servers (run in the sandbox)');

/** A node:http app that answers with the tag its start script gives it. */
const ECHO = `require('node:http').createServer((req, res) => res.end(JSON.stringify({ tag: process.argv[2] }))).listen(process.env.PORT, process.env.HOST);\n`;
const packageJson = (tag: string) => JSON.stringify({ name: 'echo', scripts: { start: `node echo.js ${tag}` } });

/** Pids of the processes whose argv holds `tag` as one argument. */
function processesWith(tag: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(tag);
    } catch {
      return false; // gone since the listing
    }
  });
}

/** The app's tag once its server answers (the pages before say it is starting). */
async function tagOf(browser: PreviewClient, url: string): Promise<string> {
  for (;;) {
    const reply = await browser.request(url);
    if (!reply.text.includes('<title>Starting the server…</title>')) {
      expect(reply.status).toBe(200);
      return (JSON.parse(reply.text) as { tag: string }).tag;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!sandboxed).each(testDatabases())('previews of versions of an HTTP server on %s', (kind) => {
  let server: TestServer;
  let owner: TestClient;
  let projectId: string;
  let origin: string;
  const tags = [1, 2, 3].map((n) => `version-${n}-${randomUUID()}`);

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'on', WOLFPACK_PREVIEW_SERVERS: '3' } });
    owner = new TestClient(server.url);
    const username = `owner-${randomUUID().slice(0, 8)}`;
    expect((await owner.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [user] = (await server.db.orm.em.getConnection().execute('select id from users where username = ?', [username])) as { id: string }[];
    const project = await new VersionStore(server.db.orm).createProject(user!.id, 'An echo server', { 'package.json': packageJson(tags[0]!), 'echo.js': ECHO }, { kind: 'build' });
    projectId = project.id;
    origin = `http://p-${projectId}.localhost:${new URL(server.url).port}/`;
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  /** Makes the next version: the app started with the tag of `version`. */
  async function edit(version: number): Promise<void> {
    const res = await owner.request('PUT', `/api/projects/${projectId}/files/package.json`, { content: packageJson(tags[version - 1]!), expectedVersion: version - 1 });
    expect(res.status).toBe(201);
  }

  /** A browser let into the preview by the link of `query`. */
  async function open(query = ''): Promise<PreviewClient> {
    const res = await owner.get(`/api/projects/${projectId}/preview${query}`);
    expect(res.status).toBe(200);
    expect((res.json as { kind: string }).kind).toBe('server');
    const browser = new PreviewClient();
    expect((await browser.request((res.json as { url: string }).url)).status).toBe(302);
    return browser;
  }

  it("runs an earlier version's server beside the current one's, and moves only the links that follow the project", async () => {
    const following = await open();
    expect(await tagOf(following, origin)).toBe(tags[0]);
    await edit(2);
    const first = await open('?version=1');
    // The server already running for version 1 is the one this link reaches.
    expect(await tagOf(first, origin)).toBe(tags[0]);
    expect(processesWith(tags[0]!)).toHaveLength(1);

    // The link that follows the project starts version 2's server; version 1's runs on for its link.
    expect(await tagOf(following, origin)).toBe(tags[1]);
    expect(processesWith(tags[1]!)).toHaveLength(1);
    expect(processesWith(tags[0]!)).toHaveLength(1);
    expect(await tagOf(first, origin)).toBe(tags[0]);

    // Version 3 replaces version 2's server (no link names version 2), never version 1's.
    await edit(3);
    expect(await tagOf(following, origin)).toBe(tags[2]);
    await vi.waitFor(() => expect(processesWith(tags[1]!)).toEqual([]), { timeout: 10_000, interval: 100 });
    expect(await tagOf(first, origin)).toBe(tags[0]);
    expect(processesWith(tags[0]!)).toHaveLength(1);

    // Revoking the links stops every server of the project.
    expect((await owner.post(`/api/projects/${projectId}/preview/revoke`, {})).status).toBe(200);
    await vi.waitFor(() => expect([...processesWith(tags[0]!), ...processesWith(tags[2]!)]).toEqual([]), { timeout: 10_000, interval: 100 });
    expect((await first.request(origin)).status).toBe(404);
  }, 120_000);
});
