import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { AppError, type Project as ProjectPayload, type ProjectsPageReply, type ProjectsQuery, type ProjectSummary, type VersionSource } from '@wolfpack/core';
import { Folder, Project, ProjectFile } from '../../entities/index.js';
import { currentIndex, prepareVersion } from './version-writes.js';
import { countColumns, cursorAfter, decodeCursor, pageSql, updatedIso, type PageRow } from './project-list-query.js';
import { plainSql, preparedRows } from '../../db/plain-sql.js';
import { readFileContents, type FileContent } from '../../db/file-contents.js';
import { oneStatement, rowsWrite, sqlPart, ungated, type GatedWrite } from '../../db/one-statement.js';

export interface RunResult {
  userId: string;
  conversationId: string;
  idea: string;
  /** Set when the run continued an existing project. */
  projectId: string | null;
  files: Record<string, string>;
  /** What made the version (default: a build for a new project, a Continue with `idea` else). */
  source?: VersionSource;
  processingMs: number;
  costMillicents: number;
}

/**
 * Content read per query when streaming: bounded by bytes so memory stays flat for any project.
 * 1 MiB reads PGlite about twice as fast as 256 KiB (fewer round trips), 4 MiB no faster.
 */
const STREAM_BATCH_BYTES = 1024 * 1024;

/** Projects: the files runs produce, scoped to their owner; every version kept (see VersionStore). */
export class ProjectService {
  constructor(private readonly orm: MikroORM) {}

  /** The project, or a 404 that does not reveal whether it exists for someone else. */
  async getOwned(userId: string, id: string, em: EntityManager = this.orm.em.fork()) {
    const project = isUuid(id) ? await em.findOne(Project, { id, userId }) : null;
    if (!project) throw new AppError('NOT_FOUND', 'Project not found');
    return project;
  }

  /** Every file of an owned project as path -> content. */
  async files(userId: string, id: string): Promise<Record<string, string>> {
    const em = this.orm.em.fork();
    await this.getOwned(userId, id, em);
    const rows = await em.find(ProjectFile, { projectId: id }, { populate: ['content'] });
    // Sorted here, by code point: database collations differ (C on PGlite, often en_US on servers).
    return Object.fromEntries(rows.map((r) => [r.path, r.content] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /**
   * The files one by one, in path order, reading about 1 MiB of content per query: an export of
   * a 50 MB project holds one batch in memory, not the project. Each batch is its own short
   * query, not a cursor held open: a slow download must not keep a transaction (on PGlite, the
   * only connection) for its whole length. Closing the iterator early stops the reading.
   */
  async *streamFiles(userId: string, id: string): AsyncGenerator<{ path: string; content: FileContent }> {
    const em = this.orm.em.fork();
    await this.getOwned(userId, id, em);
    // Plain SQL rather than entities: no identity map or hydration for thousands of rows and
    // megabytes of content.
    const index: Array<{ path: string; size: number }> = await em.getConnection().execute('select path, size from project_files where project_id = ?', [id]);
    // Sorted here, by code point: database collations differ (C on PGlite, often en_US on servers).
    index.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (let start = 0; start < index.length; ) {
      // At least one file per batch, however large; then as many as fit in STREAM_BATCH_BYTES.
      let end = start + 1;
      let bytes = index[start]!.size;
      while (end < index.length && bytes + index[end]!.size <= STREAM_BATCH_BYTES) bytes += index[end++]!.size;
      const paths = index.slice(start, end).map((entry) => entry.path);
      start = end;
      const byPath = await readFileContents(em, id, paths);
      for (const path of paths) {
        const content = byPath.get(path);
        // A file deleted since the index was read is left out.
        if (content !== undefined) yield { path, content };
      }
    }
  }

  /**
   * One page of the user's projects (GET /api/projects): `limit` rows in `sort` order after
   * `cursor`, only those of one folder (`root`: no folder) or matching `q` when given. With
   * `counts`, also how many match and how many each folder holds.
   */
  async page(userId: string, query: ProjectsQuery): Promise<ProjectsPageReply> {
    const em = this.orm.em.fork();
    const folderId = query.folderId === undefined ? undefined : query.folderId.toLowerCase() === 'root' ? null : query.folderId;
    if (folderId) await this.assertFolder(userId, folderId, em);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.sort);
    const filter = { userId, folderId, q: query.q || undefined };
    const counts = query.counts === 'true';
    const { sql, params } = pageSql(filter, query.sort, query.limit, after, counts);
    const rows = await preparedRows<PageRow>(em, sql, params);
    const more = rows.length > query.limit;
    const shown = more ? rows.slice(0, query.limit) : rows;
    const reply: ProjectsPageReply = {
      projects: shown.map(summaryOfRow),
      nextCursor: more ? cursorAfter(shown.at(-1)!, query.sort) : null,
    };
    if (counts) {
      // The counts came with the rows; an empty page brings none, so they are asked for alone.
      let [first] = rows;
      if (!first) {
        const { columns, params: countParams } = countColumns(filter);
        [first] = await plainSql(em).execute<PageRow[]>(`select ${columns}`, countParams);
      }
      reply.folderCounts = Object.fromEntries(Object.entries(JSON.parse(first!.folder_counts!) as Record<string, number | string>).map(([folder, n]) => [folder, Number(n)]));
      reply.total = filter.q
        ? Number(first!.filter_total ?? 0)
        : folderId === undefined
          ? Object.values(reply.folderCounts).reduce((sum, n) => sum + n, 0)
          : (reply.folderCounts[folderId ?? 'root'] ?? 0);
    }
    return reply;
  }

  async list(userId: string, folderId?: string | null): Promise<ProjectSummary[]> {
    const em = this.orm.em.fork();
    if (folderId) await this.assertFolder(userId, folderId, em);
    const where = folderId === undefined ? { userId } : { userId, folderId };
    const rows = await em.find(Project, where, { orderBy: { updatedAt: 'desc' } });
    return rows.map((p) => ({
      id: p.id,
      idea: p.idea,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      folderId: p.folderId ?? null,
      fileCount: p.fileCount,
      sessionCount: p.sessionCount,
      totalCostCents: Math.ceil(p.totalCostMillicents / 1000),
      replitTotalCostCents: 0,
      totalProcessingTimeMs: p.totalProcessingTimeMs,
    }));
  }

  async detail(userId: string, id: string): Promise<{ project: ProjectPayload; files: string[]; version: number }> {
    const em = this.orm.em.fork();
    const { p, rows } = await em.transactional(async (tx) => {
      // Shared lock: a change of the project waits for this read, so files and number agree.
      const p = isUuid(id) ? await tx.findOne(Project, { id, userId }, { lockMode: LockMode.PESSIMISTIC_READ }) : null;
      if (!p) throw new AppError('NOT_FOUND', 'Project not found');
      return { p, rows: await plainSql(tx).execute<Array<{ path: string; content: string }>>('select path, content from project_files where project_id = ?', [id]) };
    });
    // Sorted here, by code point: database collations differ (C on PGlite, often en_US on servers).
    const fsIndex = Object.fromEntries(rows.map((r) => [r.path, r.content] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      version: p.version,
      project: {
        id: p.id,
        idea: p.idea,
        createdAt: p.createdAt.toISOString(),
        updatedAt: p.updatedAt.toISOString(),
        folderId: p.folderId ?? null,
        fsIndex,
      },
      files: Object.keys(fsIndex),
    };
  }

  async remove(userId: string, id: string): Promise<void> {
    const em = this.orm.em.fork();
    await this.getOwned(userId, id, em);
    await em.nativeDelete(Project, { id, userId });
  }

  /** Puts a project into a folder (null: the root). */
  async move(userId: string, id: string, folderId: string | null): Promise<void> {
    const em = this.orm.em.fork();
    await this.getOwned(userId, id, em);
    if (folderId) await this.assertFolder(userId, folderId, em);
    await em.nativeUpdate(Project, { id, userId }, { folderId });
  }

  async setGithubRepo(userId: string, id: string, repo: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(Project, { id, userId }, { githubRepo: repo });
  }

  private async assertFolder(userId: string, folderId: string, em: EntityManager): Promise<void> {
    const folder = isUuid(folderId) ? await em.findOne(Folder, { id: folderId, userId }, { fields: ['id'] }) : null;
    if (!folder) throw new AppError('NOT_FOUND', 'Folder not found');
  }

  /**
   * Every file in one text, each under a clear path header, ready to paste into Replit. Files
   * are sorted by path so the text is the same every time.
   */
  async consolidatedCode(userId: string, id: string): Promise<{ code: string; fileCount: number }> {
    const files = await this.files(userId, id);
    const rule = '='.repeat(72);
    const paths = Object.keys(files);
    const code = paths.map((path) => `${rule}\nFILE: ${path}\n${rule}\n${files[path]}${files[path]!.endsWith('\n') ? '' : '\n'}`).join('\n');
    return { code, fileCount: paths.length };
  }

  /**
   * Stores a run's files: a new project (its version 1), or the next version of the continued
   * one; every version stays readable (project_versions and its content-addressed files).
   */
  async saveRunResult(result: RunResult): Promise<string> {
    return this.orm.em.fork().transactional(async (em) => {
      const saved = await this.runResultWrites(em, result);
      const { text, params } = oneStatement(['run', ungated(result.conversationId)], saved.writes, sqlPart('select 1'));
      await plainSql(em).execute(text, params);
      return saved.id;
    });
  }

  /**
   * {@link saveRunResult} as writes for the caller's statement (the end of a run: one statement with
   * its completion, gated by its lease): the project (when new), its files and the version the run
   * made, stored by content. For a project the run continues, the project is updated (under its row
   * lock) and its working copy emptied first, in `em`, which must then be a transaction the statement
   * runs in.
   */
  async runResultWrites(em: EntityManager, result: RunResult): Promise<{ id: string; version: number; writes: Array<[string, GatedWrite]> }> {
    const now = new Date();
    const files = filesWrite(result.files);
    const existing = result.projectId
      ? await em.findOne(Project, { id: result.projectId, userId: result.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (existing) {
      const previous = await currentIndex(em, existing);
      const version = prepareVersion({
        projectId: existing.id,
        version: existing.version + 1,
        idea: existing.idea,
        source: result.source ?? { kind: 'continue', idea: result.idea },
        conversationId: result.conversationId,
        createdAt: now,
        files: wellFormed(result.files),
        previous,
      });
      existing.fileCount = version.fileCount;
      existing.totalBytes = version.totalBytes;
      existing.version += 1;
      existing.sessionCount += 1;
      existing.totalProcessingTimeMs += result.processingMs;
      existing.totalCostMillicents += result.costMillicents;
      existing.updatedAt = now;
      await em.flush();
      await em.nativeDelete(ProjectFile, { projectId: existing.id });
      return { id: existing.id, version: existing.version, writes: [['files', files(existing.id)], ...version.writes] };
    }
    const id = randomUUID();
    const version = prepareVersion({
      projectId: id,
      version: 1,
      idea: result.idea,
      source: result.source ?? { kind: 'build' },
      conversationId: result.conversationId,
      createdAt: now,
      files: wellFormed(result.files),
      previous: new Map(),
    });
    const project: GatedWrite = (from) =>
      sqlPart(
        `insert into projects (id, user_id, idea, file_count, total_bytes, folder_id, version, session_count, total_processing_time_ms, total_cost_millicents, github_repo, created_at, updated_at)
         select ?::uuid, ?::uuid, ?::text, ?::int, ?::bigint, null, 1, 1, ?::bigint, ?::bigint, null, ?::timestamptz, ?::timestamptz from ${from.text} as c`,
        [id, result.userId, result.idea, version.fileCount, version.totalBytes, result.processingMs, result.costMillicents, now, now, ...from.params],
      );
    return { id, version: 1, writes: [['project', project], ['files', files(id)], ...version.writes] };
  }
}

/** A page row as the list reply carries it (the same fields as {@link ProjectService.list}). */
function summaryOfRow(row: PageRow): ProjectSummary {
  return {
    id: row.id,
    idea: row.idea,
    createdAt: row.created_iso,
    updatedAt: updatedIso(row.updated_key),
    folderId: row.folder_id ?? null,
    fileCount: Number(row.file_count),
    sessionCount: Number(row.session_count),
    totalCostCents: Math.ceil(Number(row.total_cost_millicents) / 1000),
    replitTotalCostCents: 0,
    totalProcessingTimeMs: Number(row.total_processing_time_ms),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs are user input: anything that is not a UUID cannot name a row (and must not 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Lone surrogates cannot be stored as text; UTF-8 would have made them U+FFFD anyway. */
function wellFormed(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, content]) => [path, content.toWellFormed()]));
}

/** A project's files as one multi-row insert (a row may reference a project inserted in the same statement). */
function filesWrite(files: Record<string, string>): (projectId: string) => GatedWrite {
  // Lone surrogates cannot be stored as text; UTF-8 would have made them U+FFFD anyway.
  const rows = Object.entries(files).map(([path, content]) => ({ path, content: content.toWellFormed(), size: Buffer.byteLength(content) }));
  return (projectId) => rowsWrite('project_files (project_id, path, content, size)', '?::uuid, x.path, x.content, x.size', [projectId], 'path text, content text, size int', rows);
}
