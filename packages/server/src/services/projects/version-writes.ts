import type { EntityManager } from '@mikro-orm/core';
import { AppError, versionSourceLabel, type VersionSource, type VersionSummary } from '@wolfpack/core';
import { formatBytes, MAX_FILE_BYTES, MAX_FILES, MAX_PROJECT_BYTES } from '@wolfpack/core/pipeline';
import { sanitizePath } from '@wolfpack/core/safe-path';
import { rowsWrite, sqlPart, type GatedWrite } from '../../db/one-statement.js';
import { plainSql } from '../../db/plain-sql.js';
import { versionIndex } from '../../db/version-files.js';
import { contentHash, indexChange, treeHash, type IndexChange } from './version-tree.js';

/** A version about to be stored: its number, what made it, its whole files and the version before. */
export interface NewVersion {
  projectId: string;
  version: number;
  idea: string;
  source: VersionSource;
  /** The run that made it, else null. */
  conversationId: string | null;
  createdAt: Date;
  /** Every file of the version (not only the changed ones). */
  files: Readonly<Record<string, string>>;
  /** `path -> hash` of the version before it (empty for version 1). */
  previous: ReadonlyMap<string, string>;
}

/** A version ready to be written: its figures and the writes for one gated statement. */
export interface PreparedVersion {
  index: Map<string, string>;
  treeHash: string;
  fileCount: number;
  totalBytes: number;
  change: IndexChange;
  /** Named CTEs: the new contents, the change rows and the version row. */
  writes: Array<[string, GatedWrite]>;
}

/**
 * The writes that store a version: only the contents it changed go to project_blobs (a content
 * already stored, by this or an earlier version, is kept as it is), one change row per path it
 * added, changed or removed, and its project_versions row.
 */
export function prepareVersion(next: NewVersion): PreparedVersion {
  const index = new Map<string, string>();
  const byHash = new Map<string, string>();
  let totalBytes = 0;
  for (const [path, content] of Object.entries(next.files)) {
    const hash = contentHash(content);
    index.set(path, hash);
    byHash.set(hash, content);
    totalBytes += Buffer.byteLength(content, 'utf8');
  }
  const change = indexChange(next.previous, index);
  const blobs = new Map<string, { hash: string; content: string; size: number }>();
  for (const row of change.rows) {
    if (row.hash === null || blobs.has(row.hash)) continue;
    const content = byHash.get(row.hash)!;
    blobs.set(row.hash, { hash: row.hash, content, size: Buffer.byteLength(content, 'utf8') });
  }
  const tree = treeHash(index);
  const { projectId, version } = next;
  const blobWrite = rowsWrite('project_blobs (project_id, hash, content, size)', '?::uuid, x.hash, x.content, x.size', [projectId], 'hash text, content text, size int', [...blobs.values()]);
  const versionRow: GatedWrite = (from) =>
    sqlPart(
      `insert into project_versions (project_id, version, idea, conversation_id, created_at, source, file_count, total_bytes, added, changed, removed, tree_hash)
       select ?::uuid, ?::int, ?::text, ?::uuid, ?::timestamptz, ?::jsonb, ?::int, ?::bigint, ?::int, ?::int, ?::int, ?::text from ${from.text} as c`,
      [projectId, version, next.idea, next.conversationId, next.createdAt, JSON.stringify(next.source), index.size, totalBytes, change.added, change.changed, change.removed, tree, ...from.params],
    );
  return {
    index,
    treeHash: tree,
    fileCount: index.size,
    totalBytes,
    change,
    writes: [
      // Two versions may bring back the same content: the first one stored keeps it.
      ['version_blobs', (from) => {
        const part = blobWrite(from);
        return sqlPart(`${part.text}\n       on conflict do nothing`, part.params);
      }],
      ['version_changes', rowsWrite('project_version_changes (project_id, version, path, hash)', '?::uuid, ?::int, x.path, x.hash', [projectId, version], 'path text, hash text', change.rows)],
      ['version_row', versionRow],
    ],
  };
}

/**
 * `path -> hash` of the project's current version. A project whose current version was never
 * stored as one (a copy bought from the showcase is written by SQL of its own) gets it stored
 * here first, from its working copy, so the next version has something to be told against.
 * Called right after such a copy is written, it stores the copy's version 1.
 */
export async function currentIndex(
  em: EntityManager,
  project: { id: string; version: number; idea: string; createdAt: Date },
  /** What made the current version, when it must be stored (default: a build for version 1, else a Continue). */
  source?: VersionSource,
): Promise<Map<string, string>> {
  const sql = plainSql(em);
  const stored = await sql.execute<Array<{ version: number }>>('select version from project_versions where project_id = ? and version = ?', [project.id, project.version]);
  if (stored.length > 0) return versionIndex(em, project.id, project.version);
  const rows = await sql.execute<Array<{ path: string; content: string }>>('select path, content from project_files where project_id = ?', [project.id]);
  const baseline = prepareVersion({
    projectId: project.id,
    version: project.version,
    idea: project.idea,
    source: source ?? (project.version === 1 ? { kind: 'build' } : { kind: 'continue', idea: project.idea }),
    conversationId: null,
    createdAt: project.createdAt,
    files: Object.fromEntries(rows.map((row) => [row.path, row.content])),
    previous: project.version > 1 ? await versionIndex(em, project.id, project.version - 1) : new Map(),
  });
  await executeWrites(em, baseline.writes);
  return baseline.index;
}

/** Writes that no lease guards, as one statement in the caller's transaction. */
export async function executeWrites(em: EntityManager, writes: ReadonlyArray<readonly [string, GatedWrite]>): Promise<void> {
  const gate = sqlPart('select 1 as id');
  const ctes = [['gate', gate] as const, ...writes.map(([name, write]) => [name, write(sqlPart('gate'))] as const)];
  await plainSql(em).execute(`with ${ctes.map(([name, part]) => `${name} as (${part.text})`).join(',\n')}\nselect 1`, ctes.flatMap(([, part]) => part.params));
}

/**
 * Files a person or an import brings: each new path (not in `kept`) one sanitizePath keeps as it is, within the
 * limits of a project (files, bytes per file, bytes in all). Contents with lone surrogates are
 * made well-formed (stored text is UTF-8). Bad input is a clear 400 or 413.
 */
export function checkedFiles(files: Readonly<Record<string, string>>, kept: ReadonlyMap<string, string> = new Map()): Record<string, string> {
  const out: Record<string, string> = {};
  let total = 0;
  let count = 0;
  for (const [path, raw] of Object.entries(files)) {
    // Paths the project already holds were checked when they came in.
    const safe = kept.has(path) ? { ok: true as const, path } : sanitizePath(path);
    if (!safe.ok) throw new AppError('BAD_REQUEST', `${safe.reason}. Rename the file and try again.`);
    if (safe.path !== path) throw new AppError('BAD_REQUEST', `${JSON.stringify(path)} is not a plain file path: write it as ${JSON.stringify(safe.path)}.`);
    const content = raw.toWellFormed();
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_FILE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `${path} is ${formatBytes(bytes)}; a file may be at most ${formatBytes(MAX_FILE_BYTES)}. Make it smaller or split it.`);
    total += bytes;
    count++;
    out[path] = content;
  }
  if (count > MAX_FILES) {
    throw new AppError('BAD_REQUEST', `A project may hold at most ${MAX_FILES.toLocaleString('en-US')} files; this would make it ${count.toLocaleString('en-US')}. Remove some files first.`);
  }
  if (total > MAX_PROJECT_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `A project may hold at most ${formatBytes(MAX_PROJECT_BYTES)}; this would make it ${formatBytes(total)}. Remove or shrink some files first.`);
  }
  return out;
}

/** The summary of a version just stored (the project's current one). */
export function storedSummary(
  prepared: PreparedVersion,
  next: Pick<NewVersion, 'version' | 'source' | 'conversationId' | 'createdAt'>,
  verdict: VersionSummary['verdict'],
): VersionSummary {
  return {
    number: next.version,
    createdAt: next.createdAt.toISOString(),
    source: next.source,
    label: versionSourceLabel(next.source),
    runId: next.conversationId,
    verdict,
    fileCount: prepared.fileCount,
    added: prepared.change.added,
    changed: prepared.change.changed,
    removed: prepared.change.removed,
    current: true,
  };
}
