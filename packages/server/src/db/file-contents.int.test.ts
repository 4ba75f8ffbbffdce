/**
 * readFileContents: the same files, as text, on both databases: multi-byte text and paths, empty
 * files, odd characters, and large files stored out of line (compressed or not).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import { readFileContents } from './file-contents.js';

const files = new Map<string, string>([
  ['src/wölf/🐺.ts', 'export const howl = "Auuu 🐺, héllo 世界";\n'],
  ['empty.txt', ''],
  ["it's \"quoted\", {braced} and \\ back.txt", 'odd path'],
  // Stored out of line and compressed (TOAST).
  ['big/text.md', 'A line of a large file, 🐺 and all.\n'.repeat(60_000)],
  // Stored out of line, not compressible.
  ['big/random.txt', randomBytes(400_000).toString('base64')],
]);

/** A user's project holding `files`; answers its id. */
async function storeProject(server: TestServer): Promise<string> {
  const conn = server.db.orm.em.getConnection();
  const userId = randomUUID();
  await conn.execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, 'reader', 'reader', 'x', now())`, [userId]);
  const projectId = randomUUID();
  await conn.execute(`insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, 'Contents', ?, 0, now(), now())`, [projectId, userId, files.size]);
  for (const [path, content] of files) {
    await conn.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [projectId, path, content, Buffer.byteLength(content)]);
  }
  return projectId;
}

describe.each(testDatabases())('readFileContents on %s', (kind) => {
  let server: TestServer;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    projectId = await storeProject(server);
  });
  afterAll(() => server?.dispose());

  it('answers every asked file as stored, and leaves out paths it does not hold', async () => {
    const found = await readFileContents(server.db.orm.em.fork(), projectId, [...files.keys(), 'missing.txt']);
    expect(new Set(found.keys())).toEqual(new Set(files.keys()));
    for (const [path, content] of files) expect(found.get(path), path).toBe(content);
  });
});
