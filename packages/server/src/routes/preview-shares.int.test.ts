/**
 * Preview servers shared fairly between users, through the server and the real sandbox: at most
 * WOLFPACK_PREVIEW_SERVERS in the process and WOLFPACK_PREVIEW_SERVERS_PER_USER per user; a new
 * preview takes the place of its owner's own oldest, never another user's running one (a user with
 * none while the others fill the process is told so and gets the next free place); closing the
 * account stops its servers and ends its links at once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { Project, ProjectFile } from '../entities/index.js';
import { TestClient } from '../testing/http-client.js';
import { PreviewClient } from '../testing/preview-client.js';
import { processesWith } from '../testing/processes.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the previews of HTTP servers (run in the sandbox)');

/** A node:http app that answers with its tag, which also tags its process. */
const tagApp = (tag: string) => ({
  'package.json': JSON.stringify({ name: 'tagged', scripts: { start: `node app.js ${tag}` } }),
  'app.js': "require('node:http').createServer((req, res) => res.end(JSON.stringify({ tag: process.argv[2] }))).listen(process.env.PORT, process.env.HOST);\n",
});

describe.skipIf(!sandboxed).each(testDatabases())('preview servers shared between users on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'on', WOLFPACK_PREVIEW_SERVERS: '3', WOLFPACK_PREVIEW_SERVERS_PER_USER: '2', WOLFPACK_PREVIEW_IDLE_MINUTES: '10' } });
  }, 60_000);
  afterAll(() => server?.dispose());

  /** A signed-in user, their browser in the previews, and previews of tagged apps of theirs. */
  async function user(name: string) {
    const client = new TestClient(server.url);
    const username = `${name}-${randomUUID().slice(0, 8)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = (await server.db.orm.em.getConnection().execute('select id from users where username = ?', [username])) as { id: string }[];
    const browser = new PreviewClient();
    /** What the preview's root answers now: the app's tag, or the title of Wolfpack's page. */
    const ask = async (url: string) => {
      const reply = await browser.request(url);
      const title = /<title>([^<]*)<\/title>/.exec(reply.text)?.[1];
      const tag = reply.status === 200 && title === undefined ? (JSON.parse(reply.text) as { tag: string }).tag : undefined;
      return { status: reply.status, text: reply.text, tag, title };
    };
    /** Opens a new project's preview and asks it until its server answers or Wolfpack's page is not "Starting…". */
    const open = async (tag: string) => {
      const em = server.db.orm.em.fork();
      const id = randomUUID();
      const now = new Date();
      em.create(Project, { id, userId: row!.id, idea: 'A server to preview', fileCount: 2, totalBytes: 0, version: 1, createdAt: now, updatedAt: now });
      await em.flush();
      for (const [path, content] of Object.entries(tagApp(tag))) em.create(ProjectFile, { projectId: id, path, content, size: Buffer.byteLength(content) });
      await em.flush();
      const res = await client.get(`/api/projects/${id}/preview`);
      expect(res.status).toBe(200);
      const { url, origin } = res.json as { url: string; origin: string };
      expect((await browser.request(url)).status).toBe(302);
      const root = `${origin}/`;
      for (;;) {
        const answer = await ask(root);
        if (answer.title !== 'Starting the server…') return { root, first: answer };
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    return { client, open, ask };
  }

  it("never stops another user's preview while they are within their share: a new one replaces its owner's oldest, or waits for room", async () => {
    const tag = (name: string) => `share-${name}-${randomUUID()}`;
    const [a1, a2, a3, b1, b2, c1] = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map(tag) as [string, string, string, string, string, string];
    const ann = await user('ann');
    const bob = await user('bob');
    const cy = await user('cy');
    const annFirst = await ann.open(a1);
    const annSecond = await ann.open(a2);
    const bobFirst = await bob.open(b1);
    for (const [opened, t] of [[annFirst, a1], [annSecond, a2], [bobFirst, b1]] as const) expect(opened.first.tag).toBe(t);

    // The process is full, each user within their share: Cy's preview waits, and says why.
    const cyFirst = await cy.open(c1);
    expect(cyFirst.first.status).toBe(503);
    expect(cyFirst.first.title).toBe('No room for this preview yet');
    expect(cyFirst.first.text).toContain(
      "This app is an HTTP server, and it is not running yet: this server runs at most 3 app servers for previews at once, and other people&#39;s previews use them all, each within its owner&#39;s share (2 per account), so none of them is stopped for yours. Yours starts as soon as one of them stops (a preview stops after 10 minutes without use). This page tries again every 10 seconds.",
    );
    expect(cyFirst.first.text).toContain('<meta http-equiv="refresh" content="10">');
    expect(processesWith(c1)).toEqual([]);
    // Nobody's server was stopped for it: every one still answers, from its own process.
    expect((await ann.ask(annFirst.root)).tag).toBe(a1);
    expect((await ann.ask(annSecond.root)).tag).toBe(a2);
    expect((await bob.ask(bobFirst.root)).tag).toBe(b1);
    expect(processesWith(a1, a2, b1)).toHaveLength(3);

    // Ann's third replaces her own least recently used (her first), not Bob's.
    const annThird = await ann.open(a3);
    expect(annThird.first.tag).toBe(a3);
    await vi.waitFor(() => expect(processesWith(a1)).toEqual([]), { timeout: 10_000, interval: 100 });
    expect((await bob.ask(bobFirst.root)).tag).toBe(b1);
    expect((await ann.ask(annSecond.root)).tag).toBe(a2);

    // Bob, with one, in a full process: his second replaces his first, Ann's two keep running.
    const bobSecond = await bob.open(b2);
    expect(bobSecond.first.tag).toBe(b2);
    await vi.waitFor(() => expect(processesWith(b1)).toEqual([]), { timeout: 10_000, interval: 100 });
    expect((await ann.ask(annSecond.root)).tag).toBe(a2);
    expect((await ann.ask(annThird.root)).tag).toBe(a3);
    expect(processesWith(a2, a3, b2)).toHaveLength(3);

    // Ann closes her account: her servers stop at once and her links end; Cy's preview gets the room.
    expect((await ann.client.request('DELETE', '/api/account')).status).toBe(200);
    await vi.waitFor(() => expect(processesWith(a2, a3)).toEqual([]), { timeout: 10_000, interval: 100 });
    expect((await ann.ask(annSecond.root)).status).toBe(404);
    const cyAgain = await cy.ask(cyFirst.root);
    expect(cyAgain.title).toBe('Starting the server…');
    await vi.waitFor(async () => expect((await cy.ask(cyFirst.root)).tag).toBe(c1), { timeout: 30_000, interval: 200 });
    expect((await bob.ask(bobSecond.root)).tag).toBe(b2);
  }, 180_000);

  it('stops the previews of a user who signs out everywhere, and their links answer no more', async () => {
    const dee = await user('dee');
    const [d1, d2] = [`out-1-${randomUUID()}`, `out-2-${randomUUID()}`];
    const first = await dee.open(d1);
    const second = await dee.open(d2);
    expect([first.first.tag, second.first.tag]).toEqual([d1, d2]);
    expect((await dee.client.post('/api/account/sign-out-everywhere', {})).status).toBe(200);
    // Stopped before the answer came back, not when idle.
    expect(processesWith(d1, d2)).toEqual([]);
    expect((await dee.ask(first.root)).status).toBe(404);
  }, 120_000);
});
