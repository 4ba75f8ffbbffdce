import type { EntityManager } from '@mikro-orm/core';
import { plainSql } from './plain-sql.js';

/**
 * What a version of a project holds: `path -> hash of its content`. A version stores only the
 * paths it changed against the version before it (project_version_changes, hash null where it
 * removed one), so the files of version n are each path's latest change at or before n that did
 * not remove it.
 */
export async function versionIndex(em: EntityManager, projectId: string, version: number, path?: string): Promise<Map<string, string>> {
  const rows = await plainSql(em).execute<Array<{ path: string; hash: string | null }>>(
    `select distinct on (path) path, hash from project_version_changes
      where project_id = ? and version <= ?${path === undefined ? '' : ' and path = ?'}
      order by path, version desc`,
    path === undefined ? [projectId, version] : [projectId, version, path],
  );
  return new Map(rows.filter((row) => row.hash !== null).map((row) => [row.path, row.hash!]));
}

/**
 * The files of a version of a project, `path -> content`, sorted by path (code points: database
 * collations differ); one file with `path`. An unknown version is an empty map: the caller says
 * whether the version exists.
 */
export async function versionFiles(em: EntityManager, projectId: string, version: number, path?: string): Promise<Record<string, string>> {
  const rows = await plainSql(em).execute<Array<{ path: string; content: string }>>(
    `select c.path, b.content from (
        select distinct on (path) path, hash from project_version_changes
         where project_id = ? and version <= ?${path === undefined ? '' : ' and path = ?'}
         order by path, version desc
      ) c join project_blobs b on b.project_id = ? and b.hash = c.hash`,
    path === undefined ? [projectId, version, projectId] : [projectId, version, path, projectId],
  );
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return Object.fromEntries(rows.map((row) => [row.path, row.content]));
}
