import { createHash } from 'node:crypto';

/** How a content is keyed in project_blobs: the sha256 of its UTF-8 text, in hex. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/**
 * The sha256 of a version's files, as migration 0019 computes it in SQL: `${hash} ${path}\n` for
 * each file in code point order (UTF-8 byte order, PostgreSQL's `collate "C"`). Two versions with
 * the same files have the same tree hash. Paths never hold a newline (sanitizePath refuses
 * control characters), so the lines cannot be confused.
 */
export function treeHash(index: ReadonlyMap<string, string>): string {
  const paths = [...index.keys()].map((path) => Buffer.from(path, 'utf8')).sort(Buffer.compare);
  const hash = createHash('sha256');
  for (const path of paths) {
    const text = path.toString('utf8');
    hash.update(`${index.get(text)!} ${text}\n`, 'utf8');
  }
  return hash.digest('hex');
}

/** What a version changed against the version before it: the change rows and their counts. */
export interface IndexChange {
  /** path -> new hash, or null where the path was removed. */
  rows: Array<{ path: string; hash: string | null }>;
  added: number;
  changed: number;
  removed: number;
}

/** The paths `next` adds, changes and removes against `previous` (both `path -> hash`). */
export function indexChange(previous: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>): IndexChange {
  const change: IndexChange = { rows: [], added: 0, changed: 0, removed: 0 };
  for (const [path, hash] of next) {
    const before = previous.get(path);
    if (before === hash) continue;
    change.rows.push({ path, hash });
    if (before === undefined) change.added++;
    else change.changed++;
  }
  for (const path of previous.keys()) {
    if (next.has(path)) continue;
    change.rows.push({ path, hash: null });
    change.removed++;
  }
  return change;
}
