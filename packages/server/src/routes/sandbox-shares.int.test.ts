/**
 * Proven Code's sandboxes shared fairly, through the server and the real sandbox: a project is
 * checked one at a time and a user has at most WOLFPACK_SANDBOXES_PER_USER running or waiting (a
 * re-check beyond either is refused with a 429 that says what to wait for), and the turns go user
 * by user, so one user's line of re-checks delays another user's build by at most one turn. The
 * order is read from the sandboxed processes themselves (each project's test never ends, and its
 * command carries a tag), not from wall time.
 */
import { randomUUID } from 'node:crypto';
import { type PipelineEvent } from '@wolfpack/core';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Project, ProjectFile } from '../entities/index.js';
import { PROJECT_BEING_CHECKED, tooManySandboxesMessage } from '../services/runs/sandbox-shares.js';
import { TestClient } from '../testing/http-client.js';
import { runningTags } from '../testing/processes.js';
import { readEvents } from '../testing/sse-client.js';
import { oneTestDatabase, startTestServer, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the sharing of the sandbox between users (Proven Code runs projects in it)');

/** A project whose test never ends (the sandbox's time limit stops it); its process carries `tag`. */
const endlessTest = (tag: string) => ({
  'package.json': JSON.stringify({ name: 'endless', version: '1.0.0', scripts: { test: `node endless.js ${tag}` } }),
  'endless.js': "setInterval(() => {}, 1000);\n",
});

/** Records, every 20 ms, when each tag's process is first seen. */
function watchStarts(tags: readonly string[]) {
  const started = new Map<string, number>();
  const timer = setInterval(() => {
    for (const tag of runningTags(tags)) if (!started.has(tag)) started.set(tag, performance.now());
  }, 20);
  return { started, stop: () => clearInterval(timer) };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!sandboxed).each(oneTestDatabase())('Proven Code shared between users on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });

  async function serve(env: Record<string, string>) {
    const server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'on', WOLFPACK_PROOF_CONCURRENCY: '1', WOLFPACK_PROOF_TIME_LIMIT_MS: '4000', ...env } });
    servers.push(server);
    return server;
  }

  /** A signed-in user with projects of the given files. */
  async function user(server: TestServer, name: string) {
    const client = new TestClient(server.url);
    const username = `${name}-${randomUUID().slice(0, 8)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = (await server.db.orm.em.getConnection().execute('select id from users where username = ?', [username])) as { id: string }[];
    const project = async (files: Record<string, string>) => {
      const em = server.db.orm.em.fork();
      const id = randomUUID();
      const now = new Date();
      em.create(Project, { id, userId: row!.id, idea: 'A project that never ends its test', fileCount: Object.keys(files).length, totalBytes: 0, version: 1, createdAt: now, updatedAt: now });
      await em.flush();
      for (const [path, content] of Object.entries(files)) em.create(ProjectFile, { projectId: id, path, content, size: Buffer.byteLength(content) });
      await em.flush();
      return id;
    };
    const recheck = (projectId: string) => client.post(`/api/projects/${projectId}/verification`, {});
    return { client, project, recheck };
  }

  it('checks a project one at a time and lets a user have two sandboxes running or waiting; the rest are refused with what to wait for', async () => {
    const server = await serve({});
    const ann = await user(server, 'ann');
    const tags = ['one', 'two', 'three'].map((n) => `share-${n}-${randomUUID()}`);
    const [one, two, three] = await Promise.all(tags.map((tag) => ann.project(endlessTest(tag))));
    const watch = watchStarts(tags);
    try {
      // Eight re-checks of one project at once: one is checked, seven are refused.
      const same = await Promise.all(Array.from({ length: 8 }, () => ann.recheck(one!)));
      expect(same.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
      for (const refused of same.filter((r) => r.status === 429)) expect(refused.json).toEqual({ success: false, error: PROJECT_BEING_CHECKED, code: 'TOO_MANY_REQUESTS' });
      expect((same.find((r) => r.status === 200)!.json as { verification: { executed: boolean } }).verification.executed).toBe(true);
      expect(watch.started.has(tags[0]!)).toBe(true);
      // Three projects at once: two are admitted (one runs, one waits), the third is refused.
      const atOnce = await Promise.all([one!, two!, three!].map((id) => ann.recheck(id)));
      expect(atOnce.map((r) => r.status).sort()).toEqual([200, 200, 429]);
      expect(atOnce.find((r) => r.status === 429)!.json).toEqual({ success: false, error: tooManySandboxesMessage(2), code: 'TOO_MANY_REQUESTS' });
      // Once they are done the user has their share again.
      expect((await ann.recheck(three!)).status).toBe(200);
      // Another user is never refused for this user's share.
      const bob = await user(server, 'bob');
      expect((await bob.recheck(await bob.project(endlessTest(`share-bob-${randomUUID()}`)))).status).toBe(200);
    } finally {
      watch.stop();
    }
    expect(tooManySandboxesMessage(2)).toBe(
      "You already have 2 projects running or waiting in Proven Code's sandbox (builds and re-checks count alike), the most one account may have at once. Wait for one to finish, then re-check this one.",
    );
  }, 180_000);

  it("gives the sandbox user by user: another user's build waits for at most one of eight re-checks queued before it", async () => {
    const server = await serve({ WOLFPACK_SANDBOXES_PER_USER: '8' });
    const ann = await user(server, 'ann');
    const tags = Array.from({ length: 8 }, (_, i) => `turn-${i}-${randomUUID()}`);
    const projects = await Promise.all(tags.map((tag) => ann.project(endlessTest(tag))));
    const watch = watchStarts(tags);
    try {
      const rechecks = Promise.all(projects.map((id) => ann.recheck(id)));
      // One of Ann's runs, seven wait for the sandbox.
      await until(() => watch.started.size > 0, "Ann's first re-check to start");
      const bob = await user(server, 'bob');
      const seen: Array<{ at: number; message: string }> = [];
      const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: bob.client.cookieHeader() },
        body: JSON.stringify({ idea: 'A habit tracker with streaks' }),
        stopAfter: ({ event }) => {
          if (event.type === 'log') seen.push({ at: performance.now(), message: event.message });
          return false;
        },
      });
      expect((events.at(-1)!.event as PipelineEvent).type).toBe('complete');
      const waited = seen.find((l) => l.message.startsWith('Waiting for a free sandbox'));
      const verdict = seen.find((l) => l.message.startsWith('Proven Code verdict'));
      expect(waited, 'Bob found the sandbox taken').toBeDefined();
      expect(verdict).toBeDefined();
      // Ann had had her turn: Bob's build runs next, and says so.
      expect(waited!.message).toBe('Waiting for a free sandbox: the server is running as many projects as it runs at once, and it runs next.');
      const startsWhileBobWaited = [...watch.started.values()].filter((at) => at > waited!.at && at < verdict!.at);
      expect(startsWhileBobWaited.length).toBeLessThanOrEqual(1);
      // Ann's re-checks all ran, in the order she asked (each her own turn), none refused.
      const answers = await rechecks;
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 200));
      expect(watch.started.size).toBe(8);
      // Without the round-robin the build would have waited for the seven queued before it.
      expect([...watch.started.values()].filter((at) => at > verdict!.at).length).toBeGreaterThanOrEqual(5);
    } finally {
      watch.stop();
    }
  }, 240_000);
});
