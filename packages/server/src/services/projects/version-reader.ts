import type { EntityManager, MikroORM } from '@mikro-orm/core';
import {
  AppError,
  diffFileMapsAsync,
  versionSource,
  versionSourceLabel,
  verificationVerdict,
  type VersionDiffReply,
  type VersionFilesReply,
  type VersionSource,
  type VersionSummary,
  type VersionsReply,
} from '@wolfpack/core';
import { plainSql } from '../../db/plain-sql.js';
import { versionFiles } from '../../db/version-files.js';
import { isUuid } from './project-service.js';

/** A row of project_versions with its verdict, as {@link SUMMARY_SQL} reads it. */
interface SummaryRow {
  version: number;
  created_iso: string;
  idea: string;
  source: unknown;
  conversation_id: string | null;
  file_count: number | string | null;
  added: number | string | null;
  changed: number | string | null;
  removed: number | string | null;
  verdict: string | null;
}

const SUMMARY_SQL = `select v.version, to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_iso,
    v.idea, v.source, v.conversation_id, v.file_count, v.added, v.changed, v.removed, pv.verdict
  from project_versions v
  left join project_verifications pv on pv.project_id = v.project_id and pv.version = v.version
  where v.project_id = ?`;

/** The read side of a project's versions: the list, a version's files, and diffs. */
export class VersionReader {
  constructor(private readonly orm: MikroORM) {}

  /** Every version of an owned project, newest first. */
  async list(userId: string, projectId: string): Promise<VersionsReply> {
    const em = this.orm.em.fork();
    const current = await this.currentVersion(em, userId, projectId);
    const rows = await plainSql(em).execute<SummaryRow[]>(`${SUMMARY_SQL} order by v.version desc`, [projectId]);
    return { current, versions: rows.map((row) => summaryOf(row, current)) };
  }

  /** The files of version `n` of an owned project; with `path`, that one file (404 when the version has no such file). */
  async files(userId: string, projectId: string, n: number, path?: string): Promise<VersionFilesReply> {
    const em = this.orm.em.fork();
    const current = await this.currentVersion(em, userId, projectId);
    const version = await this.summary(em, projectId, n, current);
    const files = await versionFiles(em, projectId, n, path);
    if (path !== undefined && !Object.hasOwn(files, path)) throw new AppError('NOT_FOUND', `Version ${n} has no file ${path}.`);
    return { version, files };
  }

  /** What changed from version `against` (default: the one before `n`; 0: nothing) to version `n`. */
  async diff(userId: string, projectId: string, n: number, against?: number): Promise<VersionDiffReply> {
    const em = this.orm.em.fork();
    const current = await this.currentVersion(em, userId, projectId);
    assertVersion(n, current);
    const from = against ?? n - 1;
    if (from !== 0) assertVersion(from, current);
    const [before, after] = await Promise.all([from === 0 ? {} : versionFiles(em, projectId, from), versionFiles(em, projectId, n)]);
    return { from, to: n, ...(await diffFileMapsAsync(before, after)) };
  }

  /** The files of version `n` of an owned project, and the project's current version. */
  async versionFiles(userId: string, projectId: string, n: number): Promise<{ current: number; files: Record<string, string> }> {
    const em = this.orm.em.fork();
    const current = await this.currentVersion(em, userId, projectId);
    assertVersion(n, current);
    return { current, files: await versionFiles(em, projectId, n) };
  }

  /** The project's current version number; 404 for a project that is not the user's (or no project). */
  async currentVersion(em: EntityManager, userId: string, projectId: string): Promise<number> {
    const rows = isUuid(projectId)
      ? await plainSql(em).execute<Array<{ version: number }>>('select version from projects where id = ? and user_id = ?', [projectId, userId])
      : [];
    if (!rows[0]) throw new AppError('NOT_FOUND', 'Project not found');
    return Number(rows[0].version);
  }

  private async summary(em: EntityManager, projectId: string, n: number, current: number): Promise<VersionSummary> {
    assertVersion(n, current);
    const [row] = await plainSql(em).execute<SummaryRow[]>(`${SUMMARY_SQL} and v.version = ?`, [projectId, n]);
    if (!row) throw noVersion(n, current);
    return summaryOf(row, current);
  }
}

/** 404 unless `n` is one of the project's versions (1 to the current one). */
export function assertVersion(n: number, current: number): void {
  if (n < 1 || n > current) throw noVersion(n, current);
}

function noVersion(n: number, current: number): AppError {
  return new AppError('NOT_FOUND', `This project has no version ${n}: ${current === 1 ? 'its only version is 1' : `its versions are 1 to ${current}`}.`);
}

function summaryOf(row: SummaryRow, current: number): VersionSummary {
  const number = Number(row.version);
  const source = storedSource(row.source, number, row.idea);
  const verdict = verificationVerdict.safeParse(row.verdict);
  return {
    number,
    createdAt: row.created_iso,
    source,
    label: versionSourceLabel(source),
    runId: row.conversation_id ?? null,
    verdict: verdict.success ? verdict.data : null,
    fileCount: Number(row.file_count ?? 0),
    added: Number(row.added ?? 0),
    changed: Number(row.changed ?? 0),
    removed: Number(row.removed ?? 0),
    current: number === current,
  };
}

/**
 * A version's stored source (jsonb, or its text on some drivers). A row without a readable one was
 * made by a run: the build, or a continuation of its idea.
 */
export function storedSource(raw: unknown, number: number, idea: string): VersionSource {
  const parsed = versionSource.safeParse(typeof raw === 'string' ? safeJson(raw) : raw);
  if (parsed.success) return parsed.data;
  return number === 1 ? { kind: 'build' } : { kind: 'continue', idea };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
