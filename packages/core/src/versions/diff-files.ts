/**
 * What differs between two sets of files (path → text): one unified diff per path that was
 * added, changed or removed, as the versions API and the web's diff view show them.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch } from 'diff';
import type { FileDiff } from '../schemas/versions.js';

/** Lines of context around each change, as `git diff` writes by default. */
const CONTEXT_LINES = 3;
const PATCH_OPTIONS = { context: CONTEXT_LINES, headerOptions: FILE_HEADERS_ONLY };

/**
 * Milliseconds one {@link diffFileMaps} may spend matching lines. Two unrelated 1 MiB files took
 * jsdiff over two minutes on one thread (it is O(N·D)); past the budget, a file's patch replaces
 * all its lines, which is a correct patch, only a longer one.
 */
export const DIFF_BUDGET_MS = 2_000;

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

/**
 * A unified diff of one file (`--- a/PATH`, `+++ b/PATH`, `/dev/null` for a side without it);
 * when matching its lines takes longer than `timeoutMs` (or that is 0), one hunk that replaces them all.
 */
export function filePatch(path: string, before: string | null, after: string | null, timeoutMs = DIFF_BUDGET_MS): string {
  const names = fileNames(path, before, after);
  if (timeoutMs <= 0) return replacingPatch(names, before ?? '', after ?? '');
  const matched = createTwoFilesPatch(names.old, names.new, before ?? '', after ?? '', undefined, undefined, { ...PATCH_OPTIONS, timeout: timeoutMs });
  return matched ?? replacingPatch(names, before ?? '', after ?? '');
}

/**
 * {@link filePatch} without holding the thread for the whole match: jsdiff matches the lines in
 * steps, letting other work run between them (a server's other requests).
 */
export function filePatchAsync(path: string, before: string | null, after: string | null, timeoutMs = DIFF_BUDGET_MS): Promise<string> {
  const names = fileNames(path, before, after);
  if (timeoutMs <= 0) return Promise.resolve(replacingPatch(names, before ?? '', after ?? ''));
  return new Promise((resolve) => {
    createTwoFilesPatch(names.old, names.new, before ?? '', after ?? '', undefined, undefined, {
      ...PATCH_OPTIONS,
      timeout: timeoutMs,
      callback: (matched) => resolve(matched ?? replacingPatch(names, before ?? '', after ?? '')),
    });
  });
}

function fileNames(path: string, before: string | null, after: string | null): { old: string; new: string } {
  return { old: before === null ? '/dev/null' : `a/${path}`, new: after === null ? '/dev/null' : `b/${path}` };
}

/** A patch of one hunk: every line of `before` removed, every line of `after` added. */
function replacingPatch(names: { old: string; new: string }, before: string, after: string): string {
  const removed = patchLines(before, '-');
  const added = patchLines(after, '+');
  // jsdiff's hunks start at 1 even for an empty side; formatPatch writes that side as `-0,0`.
  return formatPatch(
    {
      oldFileName: names.old,
      newFileName: names.new,
      oldHeader: undefined,
      newHeader: undefined,
      hunks: [{ oldStart: 1, oldLines: removed.count, newStart: 1, newLines: added.count, lines: [...removed.lines, ...added.lines] }],
    },
    FILE_HEADERS_ONLY,
  );
}

function patchLines(text: string, sign: '-' | '+'): { count: number; lines: string[] } {
  if (text === '') return { count: 0, lines: [] };
  const parts = text.split('\n');
  const ended = text.endsWith('\n');
  if (ended) parts.pop();
  const lines = parts.map((line) => `${sign}${line}`);
  if (!ended) lines.push('\\ No newline at end of file');
  return { count: parts.length, lines };
}

/** The files that differ from `before` to `after`, each with its patch; identical files are left out. */
export function diffFileMaps(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>, budgetMs = DIFF_BUDGET_MS): FileMapDiff {
  const deadline = Date.now() + budgetMs;
  const changes = changesOf(before, after);
  return { ...changes, files: changes.files.map((file) => ({ ...file, patch: filePatch(file.path, file.before, file.after, deadline - Date.now()) })) };
}

/** {@link diffFileMaps} with {@link filePatchAsync}: for a server, whose other requests go on meanwhile. */
export async function diffFileMapsAsync(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>, budgetMs = DIFF_BUDGET_MS): Promise<FileMapDiff> {
  const deadline = Date.now() + budgetMs;
  const changes = changesOf(before, after);
  const files: FileDiff[] = [];
  for (const file of changes.files) files.push({ ...file, patch: await filePatchAsync(file.path, file.before, file.after, deadline - Date.now()) });
  return { ...changes, files };
}

function changesOf(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): { files: Array<Omit<FileDiff, 'patch'>>; added: number; changed: number; removed: number } {
  const has = (files: Readonly<Record<string, string>>, path: string) => Object.prototype.hasOwnProperty.call(files, path);
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareCodePoints);
  const files: Array<Omit<FileDiff, 'patch'>> = [];
  const counts = { added: 0, changed: 0, removed: 0 };
  for (const path of paths) {
    const old = has(before, path) ? before[path]! : null;
    const now = has(after, path) ? after[path]! : null;
    if (old === now) continue;
    const status = old === null ? 'added' : now === null ? 'removed' : 'changed';
    counts[status]++;
    files.push({ path, status, before: old, after: now });
  }
  return { files, ...counts };
}
