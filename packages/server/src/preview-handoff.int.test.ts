/**
 * A server project's preview behind two server processes on one port (WOLFPACK_WORKERS=2): every
 * request of the preview reaches the one process that runs its server, whichever process the
 * connection went to, so an app that keeps data in memory behaves as one server.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db/orm.js';
import { previewOwner } from './preview-handoff.js';
import { TestClient } from './testing/http-client.js';
import { PreviewClient } from './testing/preview-client.js';
import { spawnServer } from './testing/server-process.js';
import { startTestServer, testDatabases } from './testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the preview of an HTTP server (it runs in the sandbox)');

/** An app that counts the requests it answered, in memory, and names its process. */
const COUNTER = `let served = 0;
require('node:http').createServer((req, res) => {
  served += 1;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ served, pid: process.pid }));
}).listen(process.env.PORT, process.env.HOST);
`;

describe('which process runs a preview', () => {
  it('is one of the workers for a project, the same every time, and the projects spread over them', () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    for (const id of ids.slice(0, 10)) expect(previewOwner(id, 2)).toBe(previewOwner(id, 2));
    const counts = [1, 2, 3].map((n) => ids.filter((id) => previewOwner(id, 3) === n).length);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(200);
    for (const n of counts) expect(n).toBeGreaterThan(30);
  });
});

describe.runIf(sandboxed && testDatabases().includes('postgres'))('a preview behind two server processes (WOLFPACK_WORKERS=2, PostgreSQL)', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  });

  it("sends every request of one preview to the process that runs its server, whichever process took the connection", async () => {
    const seed = await startTestServer('postgres');
    await seed.close();
    cleanup.push(() => seed.dispose());
    const server = await spawnServer({ WOLFPACK_DATA_DIR: seed.dataDir, DATABASE_URL: seed.databaseUrl, WOLFPACK_WORKERS: '2', WOLFPACK_SANDBOX: 'on' });
    cleanup.push(async () => {
      const pids = readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      await server.crash();
      for (const pid of pids) process.kill(pid, 'SIGKILL');
    });
    expect(server.processes).toHaveLength(2);

    const owner = new TestClient(server.url);
    expect((await owner.post('/api/auth/register', { username: 'two-processes', password: 'correct-horse' })).status).toBe(201);
    const db = await openDatabase({ dataDir: seed.dataDir, databaseUrl: seed.databaseUrl });
    cleanup.push(() => db.close());
    const sql = db.orm.em.getConnection();
    const [user] = (await sql.execute('select id from users where username = ?', ['two-processes'])) as { id: string }[];
    const projectId = randomUUID();
    await sql.execute('insert into projects (id, user_id, idea, file_count, total_bytes, version, created_at, updated_at) values (?, ?, ?, 1, ?, 1, now(), now())', [projectId, user!.id, 'A counter', COUNTER.length]);
    await sql.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, 'server.js', COUNTER, COUNTER.length]);

    const link = (await owner.get(`/api/projects/${projectId}/preview`)).json as { url: string; origin: string };
    const browser = new PreviewClient();
    expect((await browser.request(link.url)).status).toBe(302);
    // Until the server listens, the preview says it is starting.
    let first: { served: number; pid: number } | undefined;
    let last = '';
    for (let tries = 0; tries < 300 && first === undefined; tries++) {
      const res = await browser.request(`${link.origin}/`);
      last = `${res.status} ${res.text}`;
      if (res.headers['content-type'] === 'application/json') first = JSON.parse(res.text) as { served: number; pid: number };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(first, `the preview server did not start: ${last}`).toBeDefined();
    // Each request on a connection of its own: the processes take them in turn.
    const answers: { served: number; pid: number }[] = [];
    for (let i = 0; i < 8; i++) answers.push(JSON.parse((await browser.request(`${link.origin}/`, { headers: { connection: 'close' } })).text) as { served: number; pid: number });
    expect(answers.map((a) => a.served)).toEqual(Array.from({ length: 8 }, (_, i) => first!.served + i + 1));
    expect(new Set(answers.map((a) => a.pid))).toEqual(new Set([first!.pid]));
  }, 180_000);
});
