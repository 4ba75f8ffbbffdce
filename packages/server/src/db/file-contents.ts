import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { PgliteConnection } from '@mikro-orm/pglite';
import { pgliteBinaryRows, type PgliteProtocol } from './pglite-binary-rows.js';

/** A file's content as stored: UTF-8 bytes from PGlite, a string from PostgreSQL. */
export type FileContent = string | Uint8Array;

/** The PGlite instance of each ORM; undefined for PostgreSQL. */
const pglites = new WeakMap<MikroORM, Promise<PgliteProtocol | undefined>>();

/**
 * The content of `paths` of one project, by path (a path deleted meanwhile is missing). On PGlite
 * the bytes come as stored, without a JavaScript string in between (see pgliteBinaryRows): the
 * export compresses bytes, and on PGlite the decoding and encoding ran on the requests' thread.
 * All of a batch's contents share one buffer. On PostgreSQL, node-postgres decodes natively on
 * its socket's data, and the ORM's path is kept.
 */
export async function readFileContents(orm: MikroORM, em: EntityManager, projectId: string, paths: string[], expectedBytes: number): Promise<Map<string, FileContent>> {
  const sql = `select path, content from project_files where project_id = ? and path in (${paths.map(() => '?').join(', ')})`;
  const pglite = await pgliteOf(orm);
  if (!pglite) {
    const rows: Array<{ path: string; content: string }> = await em.getConnection().execute(sql, [projectId, ...paths]);
    return new Map(rows.map((row) => [row.path, row.content]));
  }
  const found = new Map<string, FileContent>();
  // Sized by the sizes recorded at write; a row that does not fit gets a buffer of its own.
  const shared = Buffer.allocUnsafe(expectedBytes);
  let used = 0;
  let n = 0;
  await pgliteBinaryRows(pglite, sql.replace(/\?/g, () => `$${++n}`), [projectId, ...paths], ([path, content]) => {
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

function pgliteOf(orm: MikroORM): Promise<PgliteProtocol | undefined> {
  let pglite = pglites.get(orm);
  if (!pglite) {
    const connection = orm.em.getConnection();
    pglite = connection instanceof PgliteConnection ? (connection.getNativeClient() as Promise<unknown> as Promise<PgliteProtocol>) : Promise.resolve(undefined);
    pglites.set(orm, pglite);
  }
  return pglite;
}
