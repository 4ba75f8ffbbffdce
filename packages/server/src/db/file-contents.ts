import type { EntityManager } from '@mikro-orm/core';

/** A file's content as the export takes it: text as stored, or bytes. */
export type FileContent = string | Uint8Array;

/**
 * The content of `paths` of one project, by path (a path deleted meanwhile is missing), as text on
 * both databases. Reading the text column as bytes instead (`convert_to(content, 'UTF8')`, bytea)
 * took about twice as long on PGlite: its hex text and the decoding cost more than encoding the
 * strings for the zip.
 */
export async function readFileContents(em: EntityManager, projectId: string, paths: string[]): Promise<Map<string, FileContent>> {
  const rows: Array<{ path: string; content: string }> = await em
    .getConnection()
    .execute(`select path, content from project_files where project_id = ? and path in (${paths.map(() => '?').join(', ')})`, [projectId, ...paths]);
  return new Map(rows.map((row) => [row.path, row.content]));
}
