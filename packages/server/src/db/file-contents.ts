import type { EntityManager } from '@mikro-orm/core';
import { nativeClientOf } from './native-client.js';
import { pgliteBinaryRows } from './pglite-binary-rows.js';
import { numberedPlaceholders } from './plain-sql.js';

/** A file's content as stored: UTF-8 bytes from PGlite, a string from PostgreSQL. */
export type FileContent = string | Uint8Array;

/**
 * The content of `paths` of one project, by path (a path deleted meanwhile is missing). On PGlite
 * the bytes come as stored, without a JavaScript string in between (see pgliteBinaryRows): the
 * export compresses bytes, and on PGlite the decoding and encoding ran on the requests' thread.
 * All of a batch's contents share one buffer. On PostgreSQL, node-postgres decodes natively on
 * its socket's data, and the ORM's path is kept.
 */
export async function readFileContents(em: EntityManager, projectId: string, paths: string[], expectedBytes: number): Promise<Map<string, FileContent>> {
  const sql = `select path, content from project_files where project_id = ? and path in (${paths.map(() => '?').join(', ')})`;
  const connection = em.getConnection();
  const native = await nativeClientOf(connection);
  if (native?.kind !== 'pglite') {
    const rows: Array<{ path: string; content: string }> = await connection.execute(sql, [projectId, ...paths]);
    return new Map(rows.map((row) => [row.path, row.content]));
  }
  const found = new Map<string, FileContent>();
  // Sized by the sizes recorded at write; a row that does not fit gets a buffer of its own.
  const shared = Buffer.allocUnsafe(expectedBytes);
  let used = 0;
  await pgliteBinaryRows(native.pglite, numberedPlaceholders(sql), [projectId, ...paths], ([path, content]) => {
    if (!path || !content) return;
    const fits = used + content.length <= shared.length;
    const copy = fits ? shared.subarray(used, used + content.length) : Buffer.allocUnsafe(content.length);
    if (fits) used += content.length;
    // Copied: the row is a view into PGlite's memory, overwritten by its next write.
    copy.set(content);
    found.set(Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString('utf8'), copy);
  });
  return found;
}
