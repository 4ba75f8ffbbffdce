/**
 * Turns an engine's proposal into changed files. Engines are asked for whole changed files in
 * fenced blocks with paths or for a unified diff, and write either (sometimes both): fenced files
 * go through the pipeline's own parser, diffs through jsdiff. Every path is sanitised; a proposal
 * that names an unsafe path, or whose diff does not apply to the files sent, fails.
 */
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { parseFileBlocks } from '../pipeline/file-blocks.js';
import { sanitizePath } from '../pipeline/safe-path.js';

/** Checks that run before verification: is the answer usable at all? */
export type ProposalCheck = 'format' | 'paths' | 'applies';

export interface ProposalProblem {
  check: ProposalCheck;
  message: string;
}

export interface AppliedProposal {
  /** Files the proposal adds or rewrites (whole), only those that differ from the files sent. */
  written: Record<string, string>;
  /** Paths the proposal removes. */
  deleted: string[];
  /** The project after the proposal: the files sent with the changes applied. */
  files: Record<string, string>;
  problems: ProposalProblem[];
}

// A fence whose info string says diff/patch; its body is a unified diff. The closing fence must
// start the line, which no diff line does (they start with ' ', '+', '-', '@' or '\').
const DIFF_FENCE = /^(`{3,}|~{3,})[ \t]*(?:diff|patch|udiff)\b[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
// A fence without an info string whose body starts like a diff.
const BARE_DIFF_FENCE = /^(`{3,}|~{3,})[ \t]*\n((?:diff --git |Index: |--- )[\s\S]*?)^\1[ \t]*$/gm;
const DIFF_START = /^(?:diff --git |--- \S.*\n\+\+\+ \S)/m;
const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** Separates diff text from the rest of an answer (which may hold fenced whole files). */
export function splitDiffs(answer: string): { diffs: string[]; rest: string } {
  const text = answer.replace(/\r\n?/g, '\n');
  const diffs: string[] = [];
  const take = (_match: string, _fence: string, body: string): string => {
    diffs.push(body);
    return '';
  };
  const rest = text.replace(DIFF_FENCE, take).replace(BARE_DIFF_FENCE, take);
  if (diffs.length > 0) return { diffs, rest };
  // A bare diff outside any fence (none opened before it): everything from its first header on.
  const start = text.search(DIFF_START);
  if (start >= 0 && !/^(`{3,}|~{3,})/m.test(text.slice(0, start))) return { diffs: [text.slice(start)], rest: text.slice(0, start) };
  return { diffs, rest };
}

function isHunkLine(line: string): boolean {
  return line === '' || line.startsWith(' ') || line.startsWith('+') || line.startsWith('-') || line.startsWith('\\');
}

function isFileHeaderAt(lines: string[], i: number): boolean {
  const line = lines[i] ?? '';
  return line.startsWith('diff --git ') || (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '));
}

/**
 * Rewrites each hunk header's line counts from the hunk's body, as `git apply --recount` does:
 * engines miscount them often, and jsdiff refuses a hunk whose counts are off. Blank lines inside
 * a hunk are context lines whose leading space was lost.
 */
export function recountHunks(diff: string): string {
  const lines = diff.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = HUNK_HEADER.exec(lines[i] ?? '');
    if (!header) {
      out.push(lines[i] ?? '');
      i++;
      continue;
    }
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && isHunkLine(lines[j] ?? '') && !isFileHeaderAt(lines, j) && !HUNK_HEADER.test(lines[j] ?? '')) body.push(lines[j++] ?? '');
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    const fixed = body.map((line) => (line === '' ? ' ' : line));
    let oldLines = 0;
    let newLines = 0;
    for (const line of fixed) {
      if (line.startsWith(' ')) {
        oldLines++;
        newLines++;
      } else if (line.startsWith('-')) oldLines++;
      else if (line.startsWith('+')) newLines++;
    }
    // Start lines stay as written: applyPatch looks around them when they are off.
    out.push(`@@ -${header[1] ?? '1'},${oldLines} +${header[2] ?? '1'},${newLines} @@${header[3] ?? ''}`, ...fixed);
    i = j;
  }
  return out.join('\n');
}

/** A diff header name as a project path: `/dev/null` is null, Git's `a/` and `b/` go. */
function headerPath(name: string | undefined, known: Readonly<Record<string, string>>): string | null | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (trimmed === '/dev/null') return null;
  if (/^[ab]\//.test(trimmed) && !Object.hasOwn(known, trimmed)) return trimmed.slice(2);
  return trimmed;
}

function safe(raw: string, problems: ProposalProblem[]): string | undefined {
  const result = sanitizePath(raw);
  if (result.ok) return result.path;
  problems.push({ check: 'paths', message: result.reason });
  return undefined;
}

/** Applies one file's diff to `files` in place. */
function applyFileDiff(patch: StructuredPatch, files: Record<string, string>, deleted: Set<string>, problems: ProposalProblem[]): void {
  const oldRaw = headerPath(patch.oldFileName, files);
  const newRaw = headerPath(patch.newFileName, files);
  if (oldRaw === undefined && newRaw === undefined) {
    if (patch.hunks.length > 0) problems.push({ check: 'format', message: 'A diff hunk names no file: write "--- a/path" and "+++ b/path" before it.' });
    return;
  }
  if (patch.isBinary) {
    problems.push({ check: 'format', message: 'Binary diffs cannot be applied: write the file whole instead.' });
    return;
  }
  const oldPath = oldRaw === null || oldRaw === undefined ? null : safe(oldRaw, problems);
  const newPath = newRaw === null || newRaw === undefined ? null : safe(newRaw, problems);
  if (oldPath === undefined || newPath === undefined) return;
  const creates = oldPath === null || patch.isCreate === true;
  const target = newPath ?? oldPath;
  if (target === null) return;
  if (!creates && oldPath !== null && !Object.hasOwn(files, oldPath)) {
    problems.push({ check: 'applies', message: `The diff changes ${oldPath}, which is not among the files sent.` });
    return;
  }
  if (creates && Object.hasOwn(files, target)) {
    problems.push({ check: 'applies', message: `The diff creates ${target}, which already exists.` });
    return;
  }
  const source = creates || oldPath === null ? '' : (files[oldPath] ?? '');
  const result = patch.hunks.length === 0 ? source : applyPatch(source, patch);
  if (result === false) {
    problems.push({ check: 'applies', message: `The diff for ${target} does not apply: its context lines do not match the file sent.` });
    return;
  }
  if (newPath === null || patch.isDelete === true) {
    if (oldPath !== null) {
      delete files[oldPath];
      deleted.add(oldPath);
    }
    return;
  }
  if (oldPath !== null && oldPath !== newPath) {
    delete files[oldPath];
    deleted.add(oldPath);
  }
  files[newPath] = result;
  deleted.delete(newPath);
}

/**
 * Applies an engine's answer to a copy of `original`. Diffs are applied first, whole files after
 * (a file written whole replaces whatever a diff did to it). Problems say why the proposal cannot
 * be used; the caller fails the candidate when there are any.
 */
export function applyProposal(original: Readonly<Record<string, string>>, answer: string): AppliedProposal {
  const files: Record<string, string> = { ...original };
  const deleted = new Set<string>();
  const problems: ProposalProblem[] = [];
  const { diffs, rest } = splitDiffs(answer);

  for (const diff of diffs) {
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(recountHunks(diff));
    } catch (error) {
      problems.push({ check: 'format', message: `The unified diff could not be read: ${(error as Error).message}.` });
      continue;
    }
    for (const patch of patches) applyFileDiff(patch, files, deleted, problems);
  }

  const parsed = parseFileBlocks(rest);
  for (const problem of parsed.problems) {
    if (problem.kind === 'unsafe-path') problems.push({ check: 'paths', message: problem.message });
    if (problem.kind === 'truncated') problems.push({ check: 'format', message: problem.message });
  }
  for (const file of parsed.files) {
    files[file.path] = file.content;
    deleted.delete(file.path);
  }

  const written: Record<string, string> = {};
  for (const [path, content] of Object.entries(files)) if (original[path] !== content) written[path] = content;
  const gone = [...deleted].filter((path) => Object.hasOwn(original, path) && !Object.hasOwn(files, path)).sort();
  if (problems.length === 0 && Object.keys(written).length === 0 && gone.length === 0) {
    problems.push({
      check: 'format',
      message: diffs.length === 0 && parsed.files.length === 0
        ? 'The answer held neither whole files in fenced blocks with paths nor a unified diff.'
        : 'The answer changes nothing.',
    });
  }
  return { written, deleted: gone, files, problems };
}
