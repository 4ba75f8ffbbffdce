/**
 * Deleting and moving files. A repair sometimes has to remove a file rather than rewrite it (a
 * doubled `src/src/x.ts` beside the fixed `src/x.ts`), and no code block can say that. The
 * operations are one line each, outside any code block, in the same "KEYWORD: path" style as the
 * plan's `FILE:` lines, because that is what models reproduce most faithfully:
 *
 *     DELETE: src/src/app.ts
 *     MOVE: src/Utils.ts -> src/utils.ts
 *
 * Their paths go through {@link sanitizePath} exactly like written files' paths.
 */
import type { FileProblem } from './parsed-file.js';
import { sanitizePath } from './safe-path.js';

export type FileOperation = { kind: 'delete'; path: string } | { kind: 'move'; from: string; to: string };

/** How prompts should ask for deletions and moves; kept next to the parser so both agree. */
export const FILE_OPERATION_INSTRUCTIONS = [
  'To delete a file, write a line of its own, outside any code block:',
  'DELETE: path/to/file.ext',
  'To move or rename a file, write:',
  'MOVE: old/path.ext -> new/path.ext',
  'A moved file keeps its content; to change it as well, also write the file at its new path.',
].join('\n');

/** One operation as the line a model is asked to write (the inverse of {@link parseOperationLine}). */
export function formatFileOperation(op: FileOperation): string {
  return op.kind === 'delete' ? `DELETE: ${op.path}` : `MOVE: ${op.from} -> ${op.to}`;
}

// "DELETE: a", "- **DELETE:** `a`", "=== MOVE: a -> b ===", "RENAME: a → b". The colon is required:
// "Delete the old file" in prose is not an instruction.
const OPERATION_LINE = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:={2,}\s*)?(?:\*\*)?(DELETE|REMOVE|MOVE|RENAME)(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*?)\s*(?:={2,})?\s*$/i;
const ARROW = /\s*(?:->|=>|→)\s*/;
// A path token: backticked or quoted (may hold spaces), or bare without whitespace.
const PATH_TOKEN = /^(?:`([^`]+)`|"([^"]+)"|'([^']+)'|(\S+))$/;

export type OperationLine = { operation: FileOperation } | { problem: FileProblem } | null;

function unquote(token: string): string | null {
  const m = PATH_TOKEN.exec(token.trim());
  if (!m) return null;
  return (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim();
}

function safe(raw: string, keyword: string): { path: string } | { problem: FileProblem } {
  const result = sanitizePath(raw);
  return result.ok ? { path: result.path } : { problem: { kind: 'unsafe-path', message: `${result.reason}. The ${keyword} line was skipped.` } };
}

/**
 * Reads one line written outside any code block. Null when it is not an operation (prose, a
 * keyword without a readable path): such lines are left alone rather than guessed at.
 */
export function parseOperationLine(line: string): OperationLine {
  if (line.length > 600) return null;
  const m = OPERATION_LINE.exec(line);
  if (!m) return null;
  const keyword = (m[1] ?? '').toUpperCase();
  const rest = (m[2] ?? '').replace(/\*\*$/, '').trim();
  if (keyword === 'DELETE' || keyword === 'REMOVE') {
    const raw = unquote(rest);
    if (raw === null || raw === '') return null;
    const path = safe(raw, keyword);
    return 'problem' in path ? path : { operation: { kind: 'delete', path: path.path } };
  }
  const parts = rest.split(ARROW);
  if (parts.length !== 2) return null;
  const from = unquote(parts[0] ?? '');
  const to = unquote(parts[1] ?? '');
  if (from === null || to === null || from === '' || to === '') return null;
  const a = safe(from, keyword);
  if ('problem' in a) return a;
  const b = safe(to, keyword);
  if ('problem' in b) return b;
  return { operation: { kind: 'move', from: a.path, to: b.path } };
}

export interface AppliedChanges {
  /** The project after the changes. */
  files: Record<string, string>;
  /** Paths whose content changed, appeared or disappeared, in order. */
  changed: string[];
  /** What was refused and why, one sentence each. */
  warnings: string[];
}

/**
 * Applies an answer's operations (in the order written), then its written files. A deletion of a
 * missing file, or a move of a missing file or onto an existing one, is refused with a warning:
 * the model misremembered the project, which is no reason to fail the run or lose a file.
 * A file both deleted and written in one answer is kept as written.
 */
export function applyFileChanges(
  before: Readonly<Record<string, string>>,
  writes: Readonly<Record<string, string>>,
  operations: readonly FileOperation[],
): AppliedChanges {
  const files: Record<string, string> = { ...before };
  const warnings: string[] = [];
  for (const op of operations) {
    if (op.kind === 'delete') {
      if (!Object.hasOwn(files, op.path)) warnings.push(`DELETE: ${op.path} was refused: there is no such file.`);
      else if (Object.hasOwn(writes, op.path)) warnings.push(`${op.path} was both deleted and written; the written version was kept.`);
      else delete files[op.path];
      continue;
    }
    if (op.from === op.to) continue;
    if (!Object.hasOwn(files, op.from)) warnings.push(`MOVE: ${op.from} -> ${op.to} was refused: there is no file ${op.from}.`);
    else if (Object.hasOwn(files, op.to)) warnings.push(`MOVE: ${op.from} -> ${op.to} was refused: ${op.to} already exists (delete it first, or write the file instead).`);
    else {
      files[op.to] = files[op.from]!;
      delete files[op.from];
    }
  }
  Object.assign(files, writes);
  const changed = [...new Set([...Object.keys(before), ...Object.keys(files)])].filter((p) => before[p] !== files[p]);
  return { files, changed, warnings };
}
