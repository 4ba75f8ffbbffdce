/**
 * readFileContents: the same files on both databases (bytes from PGlite, strings from PostgreSQL),
 * and on PGlite the raw binary read under PGlite's own locks: rows of any size across PGlite's
 * write chunks, errors as errors, and PGlite left as it was for the next query and transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PgliteConnection } from '@mikro-orm/pglite';
import { serialize } from 'pg-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import { readFileContents } from './file-contents.js';
import { pgliteBinaryRows, PgliteRowsError, type PgliteProtocol } from './pglite-binary-rows.js';

const text = (content: string | Uint8Array) => (typeof content === 'string' ? content : Buffer.from(content).toString('utf8'));

const files = new Map<string, string>([
  ['src/wölf/🐺.ts', 'export const howl = "Auuu 🐺, héllo 世界";\n'],
  ['empty.txt', ''],
  ["it's \"quoted\", {braced} and \\ back.txt", 'odd path'],
  // Stored out of line and compressed (TOAST), and larger than a PGlite write chunk.
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
    const expected = [...files.values()].reduce((sum, c) => sum + Buffer.byteLength(c), 0);
    const found = await readFileContents(server.db.orm.em.fork(), projectId, [...files.keys(), 'missing.txt'], expected);
    expect(new Set(found.keys())).toEqual(new Set(files.keys()));
    for (const [path, content] of files) expect(text(found.get(path)!), path).toBe(content);
    // PGlite hands over bytes; PostgreSQL's driver decodes them natively.
    expect([...found.values()].every((c) => (kind === 'pglite' ? c instanceof Uint8Array : typeof c === 'string'))).toBe(true);
  });

  it('copes with recorded sizes that are wrong (the rows do not fit the buffer sized by them)', async () => {
    const found = await readFileContents(server.db.orm.em.fork(), projectId, [...files.keys()], 10);
    for (const [path, content] of files) expect(text(found.get(path)!), path).toBe(content);
  });

});

describe('pgliteBinaryRows', () => {
  let server: TestServer;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    projectId = await storeProject(server);
  });
  afterAll(() => server?.dispose());

  it('reads under the locks of PGlite: not inside an open transaction, and errors leave PGlite usable', async () => {
    const pglite = (await (server.db.orm.em.getConnection() as PgliteConnection).getNativeClient()) as unknown as PgliteProtocol & {
      execProtocol(message: Uint8Array): Promise<{ messages: Array<{ name: string }> }>;
    };
    const rows = (sql: string, params: string[] = []) => {
      const got: Array<Array<string | null>> = [];
      return pgliteBinaryRows(pglite, sql, params, (row) => got.push(row.map((field) => (field ? Buffer.from(field).toString('utf8') : null)))).then(() => got);
    };
    expect(await rows("select $1::text, null::text, ''::text", ['é 🐺'])).toEqual([['é 🐺', null, '']]);

    await expect(rows('select nothing from nowhere')).rejects.toThrow(new PgliteRowsError('relation "nowhere" does not exist', '42P01'));
    await expect(rows('select nothing from nowhere')).rejects.toMatchObject({ code: '42P01' });
    // The next queries, PGlite's own protocol call (which would take a callback left installed)
    // and the ORM's, work as before.
    const { messages } = await pglite.execProtocol(serialize.query('select 2'));
    expect(messages.map((m) => m.name)).toContain('dataRow');
    expect(await server.db.orm.em.getConnection().execute('select 1 as one')).toEqual([{ one: 1 }]);

    // A transaction holds the one connection: the read waits for it and does not see its rows.
    const em = server.db.orm.em.fork();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const inside = new Promise<void>((resolve) => (updated = resolve));
    const transaction = em.transactional(async (tx) => {
      await tx.getConnection().execute(`update project_files set content = 'changed' where project_id = ? and path = 'empty.txt'`, [projectId], 'run', tx.getTransactionContext());
      updated();
      await held;
      throw new Error('rolled back');
    });
    await inside;
    let read: string | undefined;
    const reading = rows(`select content from project_files where project_id = $1 and path = 'empty.txt'`, [projectId]).then((got) => (read = got[0]![0]!));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(read).toBeUndefined();
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await reading;
    expect(read).toBe('');
  });
});
