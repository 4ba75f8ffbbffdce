/**
 * Layout mistakes no per-file check sees: a model that writes `src/src/app.ts` next to the
 * `src/app.ts` it meant leaves two versions that drift apart (only one of them gets repaired),
 * and two paths that differ only in letter case overwrite each other when the project is
 * unpacked on macOS or Windows. Both rules need the twin to exist, so a project that really has
 * a `src/src` folder of its own is not flagged.
 */
export interface PathProblem {
  path: string;
  check: 'duplicates';
  message: string;
}

/** `src/src/app.ts` -> `src/app.ts`; null when no folder name is doubled. */
function undoubled(path: string): string | null {
  const segments = path.split('/');
  const kept = segments.filter((s, i) => i === 0 || s !== segments[i - 1]);
  return kept.length === segments.length ? null : kept.join('/');
}

/** Problems with the project's layout: doubled folders beside their twin, and case-only twins. */
export function checkPaths(paths: readonly string[]): PathProblem[] {
  const all = new Set(paths);
  const problems: PathProblem[] = [];
  const byLower = new Map<string, string>();
  for (const path of [...paths].sort()) {
    const twin = undoubled(path);
    if (twin !== null && all.has(twin)) {
      problems.push({
        path,
        check: 'duplicates',
        message: `${path} repeats a folder name and duplicates ${twin}; keep one of them (DELETE: ${path}, or MOVE it if it is the right version)`,
      });
    }
    const lower = path.toLowerCase();
    const other = byLower.get(lower);
    if (other !== undefined) {
      problems.push({
        path,
        check: 'duplicates',
        message: `${path} and ${other} differ only in letter case and overwrite each other on macOS and Windows; keep one of them`,
      });
    } else byLower.set(lower, path);
  }
  return problems;
}
