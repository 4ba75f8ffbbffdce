import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandWorks, needTool } from '@wolfpack/core/testing';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const KiB = 1024;
const FILES = 300;
const FILE_BYTES = 40 * KiB;
const hasUnzip = needTool({ tool: 'unzip', available: commandWorks('unzip', ['-v']) }, 'the `unzip -t` check of exported zips');

// GET /api/projects/:id/export on a 12 MB project, through the real server and database.
describe.each(testDatabases())('project export on %s', (kind) => {
  let server: TestServer;
  let owner: TestClient;
  let projectId: string;
  /** The stored files, as the database holds them. */
  const stored = new Map<string, string>();
  /** Counts the queries that read file content (streamFiles reads one batch per query). */
  let contentQueries = 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = new TestClient(server.url);
    expect((await owner.post('/api/auth/register', { username: 'exporter', password: 'correct-horse' })).status).toBe(201);
    const conn = server.db.orm.em.getConnection();
    const [user] = (await conn.execute('select id from users where username_key = ?', ['exporter'])) as Array<{ id: string }>;
    const userId = user!.id;
    projectId = randomUUID();
    await conn.execute(
      `insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, 'Export test', ?, ?, now(), now())`,
      [projectId, userId, FILES + 2, FILES * FILE_BYTES],
    );
    const words = randomBytes(FILES * FILE_BYTES).toString('base64').replace(/[+/=]/g, ' ');
    const files: Array<[string, string]> = [
      ['src/wölf/🐺.ts', 'export const howl = "Auuu 🐺, héllo 世界";\n'],
      ['empty.txt', ''],
      ...Array.from({ length: FILES }, (_, i): [string, string] => [`src/module-${i % 10}/file-${i}.ts`, words.slice(i * FILE_BYTES, (i + 1) * FILE_BYTES)]),
    ];
    for (let i = 0; i < files.length; i += 50) {
      const rows = files.slice(i, i + 50).map(([path, content]) => [projectId, path, content, Buffer.byteLength(content)]);
      await conn.execute(`insert into project_files (project_id, path, content, size) values ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`, rows.flat());
    }
    for (const [path, content] of files) stored.set(path, content);
    // A path written before paths were checked: the export leaves it out.
    await conn.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, '../escape.txt', 'x', 1]);

    // The contents are read through the ORM's connection on both databases.
    const contentRead = 'select path, content from project_files';
    const execute = conn.execute.bind(conn);
    conn.execute = ((sql: string, ...rest: unknown[]) => {
      if (typeof sql === 'string' && sql.startsWith(contentRead)) contentQueries++;
      return (execute as (...args: unknown[]) => unknown)(sql, ...rest);
    }) as typeof conn.execute;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('streams a zip that unzip accepts, each entry byte-equal to the stored file', async () => {
    const before = contentQueries;
    const res = await fetch(`${server.url}/api/projects/${projectId}/export`, { headers: { cookie: owner.cookieHeader() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await res.arrayBuffer());
    const entries = unzipSync(new Uint8Array(zip));
    expect(Object.keys(entries).sort()).toEqual([...stored.keys()].sort());
    for (const [path, content] of stored) expect(Buffer.from(entries[path]!).equals(Buffer.from(content, 'utf8')), path).toBe(true);
    // Read in batches of about 1 MiB, not one query per file nor the project at once.
    expect(contentQueries - before).toBeGreaterThanOrEqual(12);
    expect(contentQueries - before).toBeLessThan(20);
    if (hasUnzip) {
      const dir = await mkdtemp(join(tmpdir(), 'wolfpack-export-'));
      try {
        await writeFile(join(dir, 'export.zip'), zip);
        const tested = spawnSync('unzip', ['-t', join(dir, 'export.zip')], { encoding: 'utf8' });
        expect(tested.status, tested.stdout + tested.stderr).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it('stops reading the database when the client disconnects mid-download', async () => {
    const before = contentQueries;
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/projects/${projectId}/export`, { headers: { cookie: owner.cookieHeader() }, signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    // Let whatever was under way finish, then check that nothing more is read.
    let read = contentQueries - before;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (contentQueries - before === read) break;
      read = contentQueries - before;
    }
    // The whole project is 12 batches; leaving after the first bytes stops well before that.
    expect(read).toBeLessThan(8);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(contentQueries - before).toBe(read);
    // The database is free for the next request.
    const again = await fetch(`${server.url}/api/projects/${projectId}/export`, { headers: { cookie: owner.cookieHeader() } });
    expect(Object.keys(unzipSync(new Uint8Array(await again.arrayBuffer())))).toHaveLength(stored.size);
  });
});
