import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, verificationRecord, versionSourceLabel, type ProjectSummary, type VersionSource, type VersionSummary, type VerificationRecord } from '@wolfpack/core';
import { plainSql } from '../../db/plain-sql.js';
import { rowsWrite, sqlPart, type GatedWrite } from '../../db/one-statement.js';
import { isUuid } from './project-service.js';
import { storedSource } from './version-reader.js';
import { checkedFiles, currentIndex, executeWrites, prepareVersion, storedSummary } from './version-writes.js';

/** A change to a project's files, applied to the current files under the project's row lock. */
export type FilesChange = (current: Readonly<Record<string, string>>) => Record<string, string>;

interface LockedProject {
  id: string;
  idea: string;
  version: number;
  created_at: Date | string;
}

/**
 * The write side of a project's versions: every change to a project's files is a new version,
 * its contents stored once per project by hash (content-addressed) and shared by every version
 * that holds them.
 */
export class VersionStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * A new version of an owned project from its current files: `change` gives the new files. With
   * `expectedVersion`, another current version is a 409 CONFLICT that names it. The verdict of an
   * earlier version with the same files comes with it.
   */
  async commit(userId: string, projectId: string, source: VersionSource, change: FilesChange, expectedVersion?: number): Promise<{ version: VersionSummary; verification: VerificationRecord | null }> {
    if (!isUuid(projectId)) throw new AppError('NOT_FOUND', 'Project not found');
    return this.orm.em.fork().transactional(async (em) => {
      const sql = plainSql(em);
      // The row lock orders this change after any other change of the project (a run's end, another tab).
      const [project] = await sql.execute<LockedProject[]>('select id, idea, version, created_at from projects where id = ? and user_id = ? for update', [projectId, userId]);
      if (!project) throw new AppError('NOT_FOUND', 'Project not found');
      if (expectedVersion !== undefined && expectedVersion !== project.version) {
        throw new AppError(
          'CONFLICT',
          `This project changed since you opened it: it is at version ${project.version} now (${await currentLabel(em, project)}). Reload it to see that version, then make your change again.`,
        );
      }
      // A run replaces the whole project when it ends: a change made meanwhile would be lost.
      const busy = await sql.execute<unknown[]>("select 1 from conversations where project_id = ? and user_id = ? and status = 'running' limit 1", [projectId, userId]);
      if (busy.length > 0) throw new AppError('CONFLICT', 'A run is changing this project now. Wait for it to end, then try again.');
      const previous = await currentIndex(em, { ...project, createdAt: new Date(project.created_at) });
      const rows = await sql.execute<Array<{ path: string; content: string }>>('select path, content from project_files where project_id = ?', [projectId]);
      const files = checkedFiles(change(Object.freeze(Object.fromEntries(rows.map((row) => [row.path, row.content])))), previous);
      const now = this.clock();
      const next = { projectId, version: project.version + 1, idea: project.idea, source, conversationId: null, createdAt: now, files, previous };
      const prepared = prepareVersion(next);
      if (prepared.change.rows.length === 0) throw new AppError('BAD_REQUEST', `Nothing changed: the files are the same as version ${project.version}.`);
      const written = new Set(prepared.change.rows.filter((row) => row.hash !== null).map((row) => row.path));
      const upserts = Object.entries(files)
        .filter(([path]) => written.has(path))
        .map(([path, content]) => ({ path, content, size: Buffer.byteLength(content, 'utf8') }));
      const removed = prepared.change.rows.filter((row) => row.hash === null).map((row) => row.path);
      const workingCopy: GatedWrite = (from) => {
        const part = rowsWrite('project_files (project_id, path, content, size)', '?::uuid, x.path, x.content, x.size', [projectId], 'path text, content text, size int', upserts)(from);
        return sqlPart(`${part.text}\n       on conflict (project_id, path) do update set content = excluded.content, size = excluded.size`, part.params);
      };
      const dropped: GatedWrite = (from) =>
        sqlPart(`delete from project_files f using ${from.text} as c where f.project_id = ?::uuid and f.path in (select jsonb_array_elements_text(?::jsonb))`, [...from.params, projectId, JSON.stringify(removed)]);
      const bump: GatedWrite = (from) =>
        sqlPart(`update projects set version = ?::int, file_count = ?::int, total_bytes = ?::bigint, updated_at = ?::timestamptz from ${from.text} as c where projects.id = ?::uuid`, [
          next.version,
          prepared.fileCount,
          prepared.totalBytes,
          now,
          ...from.params,
          projectId,
        ]);
      await executeWrites(em, [...prepared.writes, ['files_upsert', workingCopy], ['files_removed', dropped], ['project_bump', bump]]);
      const verification = await this.inheritVerification(em, projectId, prepared.treeHash, next.version, now);
      return { version: storedSummary(prepared, next, verification?.verdict ?? null), verification };
    });
  }

  /** A new project of the user whose version 1 is `files` (an import). */
  async createProject(userId: string, idea: string, files: Record<string, string>, source: VersionSource): Promise<ProjectSummary> {
    const checked = checkedFiles(files);
    const id = randomUUID();
    const now = this.clock();
    const prepared = prepareVersion({ projectId: id, version: 1, idea, source, conversationId: null, createdAt: now, files: checked, previous: new Map() });
    const project: GatedWrite = (from) =>
      sqlPart(
        `insert into projects (id, user_id, idea, file_count, total_bytes, folder_id, version, session_count, total_processing_time_ms, total_cost_millicents, github_repo, created_at, updated_at)
         select ?::uuid, ?::uuid, ?::text, ?::int, ?::bigint, null, 1, 0, 0, 0, null, ?::timestamptz, ?::timestamptz from ${from.text} as c`,
        [id, userId, idea, prepared.fileCount, prepared.totalBytes, now, now, ...from.params],
      );
    const rows = Object.entries(checked).map(([path, content]) => ({ path, content, size: Buffer.byteLength(content, 'utf8') }));
    const workingCopy = rowsWrite('project_files (project_id, path, content, size)', '?::uuid, x.path, x.content, x.size', [id], 'path text, content text, size int', rows);
    // One statement: the project, its files and its version 1 all appear at once or not at all.
    await executeWrites(this.orm.em.fork(), [['project', project], ['files', workingCopy], ...prepared.writes]);
    return {
      id,
      idea,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      folderId: null,
      fileCount: prepared.fileCount,
      sessionCount: 0,
      totalCostCents: 0,
      replitTotalCostCents: 0,
      totalProcessingTimeMs: 0,
    };
  }

  /**
   * Proven Code's record of the latest earlier version with exactly these files, copied to the
   * new version: the files are the ones it checked (a restore, an edit undone), so its verdict holds.
   */
  private async inheritVerification(em: EntityManager, projectId: string, tree: string, version: number, now: Date): Promise<VerificationRecord | null> {
    const sql = plainSql(em);
    const rows = await sql.execute<Array<{ record: unknown }>>(
      `select v.record from project_verifications v join project_versions pv on pv.project_id = v.project_id and pv.version = v.version
        where pv.project_id = ? and pv.tree_hash = ? and pv.version < ? order by v.version desc limit 1`,
      [projectId, tree, version],
    );
    if (!rows[0]) return null;
    const parsed = verificationRecord.safeParse(typeof rows[0].record === 'string' ? JSON.parse(rows[0].record) : rows[0].record);
    if (!parsed.success) return null;
    const record: VerificationRecord = { ...parsed.data, version };
    await sql.execute('insert into project_verifications (project_id, version, verdict, record, created_at) values (?, ?, ?, ?::jsonb, ?)', [
      projectId,
      version,
      record.verdict,
      JSON.stringify(record),
      now,
    ]);
    return record;
  }
}

/** The words of the project's current version ("Edited by you", "Continue: …"), for a 409. */
async function currentLabel(em: EntityManager, project: LockedProject): Promise<string> {
  const rows = await plainSql(em).execute<Array<{ source: unknown }>>('select source from project_versions where project_id = ? and version = ?', [project.id, project.version]);
  return versionSourceLabel(storedSource(rows[0]?.source, project.version, project.idea));
}
