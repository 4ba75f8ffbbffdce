import type { FileProblem } from './parsed-file.js';

/** Largest accepted file, in UTF-8 bytes (1 MiB). Generated source is never this big. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Most files one project may hold. */
export const MAX_FILES = 2000;
/** Largest accepted project, in UTF-8 bytes over all files (20 MiB). */
export const MAX_PROJECT_BYTES = 20 * 1024 * 1024;

/** UTF-8 size of a string, without Buffer or TextEncoder so core stays runtime-neutral. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A valid surrogate pair is one 4-byte code point; a lone surrogate is written as U+FFFD (3).
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Human size with one decimal: "1.4 MiB", "12.0 KiB", "300 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trimZero((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${trimZero((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

function trimZero(n: string): string {
  return n.endsWith('.0') ? n.slice(0, -2) : n;
}

export interface LimitedFiles<T> {
  /** The files within every limit, in the input's shape and order. */
  files: T;
  /** One problem per breach; dropped files are named in it. */
  problems: FileProblem[];
}

const MAX_NAMED = 5;

function nameSome(paths: string[]): string {
  const shown = paths.slice(0, MAX_NAMED).join(', ');
  return paths.length > MAX_NAMED ? `${shown} and ${paths.length - MAX_NAMED} more` : shown;
}

/**
 * Drops files that break the size and count limits and says why. Takes a list of files (parser
 * output) or a whole project as `{ path: content }`, and returns the kept files in the same shape.
 *
 * @param files the candidate files, in the order the engine wrote them
 * @param existingBytes bytes the project already holds outside `files` (earlier stages)
 * @param existingFiles files the project already holds outside `files`
 */
export function applyLimits(
  files: Readonly<Record<string, string>>,
  existingBytes?: number,
  existingFiles?: number,
): LimitedFiles<Record<string, string>>;
export function applyLimits<F extends { path: string; content: string }>(
  files: readonly F[],
  existingBytes?: number,
  existingFiles?: number,
): LimitedFiles<F[]>;
export function applyLimits(
  files: readonly { path: string; content: string }[] | Readonly<Record<string, string>>,
  existingBytes = 0,
  existingFiles = 0,
): LimitedFiles<unknown> {
  if (isFileList(files)) return limitList(files, existingBytes, existingFiles);
  const list = Object.entries(files).map(([path, content]) => ({ path, content }));
  const limited = limitList(list, existingBytes, existingFiles);
  return { files: Object.fromEntries(limited.files.map((f) => [f.path, f.content])), problems: limited.problems };
}

function isFileList(
  files: readonly { path: string; content: string }[] | Readonly<Record<string, string>>,
): files is readonly { path: string; content: string }[] {
  return Array.isArray(files);
}

function limitList<F extends { path: string; content: string }>(
  files: readonly F[],
  existingBytes: number,
  existingFiles: number,
): LimitedFiles<F[]> {
  const problems: FileProblem[] = [];
  const kept: F[] = [];
  const overCount: string[] = [];
  const overTotal: string[] = [];
  let total = existingBytes;
  let count = existingFiles;
  for (const file of files) {
    const bytes = utf8ByteLength(file.content);
    if (bytes > MAX_FILE_BYTES) {
      problems.push({
        kind: 'file-too-large',
        path: file.path,
        message: `${file.path} is ${formatBytes(bytes)}; the limit is ${formatBytes(MAX_FILE_BYTES)} per file. Split it or generate the data at run time.`,
      });
      continue;
    }
    if (count >= MAX_FILES) {
      overCount.push(file.path);
      continue;
    }
    // A big file that does not fit may be followed by small ones that do, so keep looking.
    if (total + bytes > MAX_PROJECT_BYTES) {
      overTotal.push(file.path);
      continue;
    }
    kept.push(file);
    total += bytes;
    count++;
  }

  if (overCount.length > 0) {
    problems.push({
      kind: 'too-many-files',
      message: `The project may hold at most ${MAX_FILES.toLocaleString('en-US')} files; ${overCount.length} more were dropped: ${nameSome(overCount)}.`,
    });
  }
  if (overTotal.length > 0) {
    problems.push({
      kind: 'project-too-large',
      message: `The project may hold at most ${formatBytes(MAX_PROJECT_BYTES)}; ${overTotal.length} file(s) did not fit and were dropped: ${nameSome(overTotal)}.`,
    });
  }
  return { files: kept, problems };
}
