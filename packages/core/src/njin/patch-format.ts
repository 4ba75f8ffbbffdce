/**
 * The patch njin answers with: one unified diff for every changed file, in Git's dialect
 * (`diff --git`, `new file mode`, `--- /dev/null`) so `git apply`, `patch -p1` and jsdiff's own
 * `parsePatch` / `applyPatch` all take it.
 */
import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';

/** Lines of context around each change, as `git diff` writes by default. */
const CONTEXT_LINES = 3;

export interface FileChangeSet {
  /** The files before the change, path → content. */
  before: Readonly<Record<string, string>>;
  /** Files the change adds or rewrites, path → whole new content. */
  written: Readonly<Record<string, string>>;
  /** Paths the change removes. */
  deleted: readonly string[];
}

function patchFor(path: string, oldText: string | null, newText: string | null): StructuredPatch {
  const patch = structuredPatch(
    oldText === null ? '/dev/null' : `a/${path}`,
    newText === null ? '/dev/null' : `b/${path}`,
    oldText ?? '',
    newText ?? '',
    undefined,
    undefined,
    { context: CONTEXT_LINES },
  );
  patch.isGit = true;
  if (oldText === null) patch.isCreate = true;
  if (newText === null) patch.isDelete = true;
  return patch;
}

/** One structured patch per changed path, sorted by path; unchanged files are left out. */
export function structuredChanges(change: FileChangeSet): StructuredPatch[] {
  const patches: StructuredPatch[] = [];
  const paths = [...new Set([...Object.keys(change.written), ...change.deleted])].sort();
  for (const path of paths) {
    const old = Object.hasOwn(change.before, path) ? (change.before[path] ?? '') : null;
    const next = change.deleted.includes(path) ? null : (change.written[path] ?? '');
    if (old === next || (old === null && next === null)) continue;
    patches.push(patchFor(path, old, next));
  }
  return patches;
}

/** The unified diff of a change ('' when it changes nothing). */
export function formatUnifiedPatch(change: FileChangeSet): string {
  const patches = structuredChanges(change);
  if (patches.length === 0) return '';
  const text = formatPatch(patches);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * Added plus removed lines: the size of a change, used to break ties between equally voted
 * candidates (the smaller change is easier to review and less likely to touch what it should not).
 */
export function changedLineCount(change: FileChangeSet): number {
  let count = 0;
  for (const patch of structuredChanges(change)) {
    for (const hunk of patch.hunks) for (const line of hunk.lines) if (line.startsWith('+') || line.startsWith('-')) count++;
  }
  return count;
}
