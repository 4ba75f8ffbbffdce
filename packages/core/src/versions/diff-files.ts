/**
 * What differs between two sets of files (path → text): one unified diff per path that was
 * added, changed or removed, as the versions API and the web's diff view show them.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { FileDiff } from '../schemas/versions.js';

/** Lines of context around each change, as `git diff` writes by default. */
const CONTEXT_LINES = 3;

export interface FileMapDiff {
  /** Every path that differs, sorted by code point. */
  files: FileDiff[];
  added: number;
  changed: number;
  removed: number;
}

/**
 * Orders strings by Unicode code point, the same order on every machine and database; `<` on
 * JavaScript strings compares UTF-16 units, which puts U+FF61…U+FFFF after astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done || q.done) return p.done ? (q.done ? 0 : -1) : 1;
    const d = p.value.codePointAt(0)! - q.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** A unified diff of one file (`--- a/PATH`, `+++ b/PATH`, `/dev/null` for a side without it). */
export function filePatch(path: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: CONTEXT_LINES, headerOptions: FILE_HEADERS_ONLY },
  );
}

/** The files that differ from `before` to `after`, each with its patch; identical files are left out. */
export function diffFileMaps(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): FileMapDiff {
  const has = (files: Readonly<Record<string, string>>, path: string) => Object.prototype.hasOwnProperty.call(files, path);
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareCodePoints);
  const files: FileDiff[] = [];
  let added = 0;
  let changed = 0;
  let removed = 0;
  for (const path of paths) {
    const old = has(before, path) ? before[path]! : null;
    const now = has(after, path) ? after[path]! : null;
    if (old === now) continue;
    const status = old === null ? 'added' : now === null ? 'removed' : 'changed';
    if (status === 'added') added++;
    else if (status === 'removed') removed++;
    else changed++;
    files.push({ path, status, before: old, after: now, patch: filePatch(path, old, now) });
  }
  return { files, added, changed, removed };
}
