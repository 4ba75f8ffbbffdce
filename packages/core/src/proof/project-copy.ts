/**
 * A fresh, throwaway copy of a generated project on disk: the read-only seed that every sandboxed
 * command copies into its own tmpfs. Paths go through the same sanitizer as every other place
 * that writes generated files, so a path cannot leave the copy.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sanitizePath } from '../pipeline/safe-path.js';

/** Installed by the proof itself (from the dependency cache), never taken from the generated files. */
export function isInstalledPath(path: string): boolean {
  return path === 'node_modules' || path.startsWith('node_modules/') || path.includes('/node_modules/');
}

/**
 * The files that will be copied: safe paths only, without node_modules. Unsafe paths are listed
 * so the caller can say which files were not run.
 */
export function copyableFiles(files: Readonly<Record<string, string>>): { files: Record<string, string>; rejected: string[] } {
  const kept: Record<string, string> = {};
  const rejected: string[] = [];
  for (const [raw, content] of Object.entries(files)) {
    const safe = sanitizePath(raw);
    if (!safe.ok) rejected.push(raw);
    else if (!isInstalledPath(safe.path)) kept[safe.path] = content;
  }
  return { files: kept, rejected };
}

/**
 * Writes `files` to a new temp directory, calls `fn` with it, and removes it afterwards whatever
 * happens. The copy is world-readable (0755/0644): when the server runs as root the sandbox runs
 * as an unprivileged user that must read it.
 *
 * @throws Error naming the first unsafe path, when a path is not a safe relative path.
 */
export async function withProjectCopy<T>(files: Readonly<Record<string, string>>, fn: (dir: string) => Promise<T>): Promise<T> {
  const { files: safe, rejected } = copyableFiles(files);
  const firstRejected = rejected[0];
  if (firstRejected !== undefined) {
    const reason = sanitizePath(firstRejected);
    throw new Error(reason.ok ? `${firstRejected} cannot be copied` : reason.reason);
  }
  const dir = await mkdtemp(join(tmpdir(), 'wolfpack-project-'));
  try {
    await chmod(dir, 0o755);
    // Modes given to mkdir and writeFile are filtered by the umask; a server with umask 077 would
    // hide the copy from the sandbox user, so every folder and file is chmod-ed explicitly.
    const made = new Set<string>();
    for (const [path, content] of Object.entries(safe)) {
      const segments = path.split('/');
      for (let i = 1; i < segments.length; i++) {
        const folder = join(dir, ...segments.slice(0, i));
        if (made.has(folder)) continue;
        await mkdir(folder, { recursive: true });
        await chmod(folder, 0o755);
        made.add(folder);
      }
      const target = join(dir, path);
      await writeFile(target, content);
      await chmod(target, 0o644);
    }
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
