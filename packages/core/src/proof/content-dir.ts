/**
 * Folders of fixed files the sandbox binds in (generated /etc files, the proof's scripts, browser
 * launchers). Each is named after a hash of its files and shared by every process of this user,
 * so nothing needs removing: a test worker or server that is killed leaves no folder behind, and
 * the next process finds the same one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Map<string, string>();

function unchanged(path: string, content: string): boolean {
  try {
    return readFileSync(path, 'utf8') === content;
  } catch {
    return false;
  }
}

/**
 * The folder holding exactly `files` (name -> content), world-readable so the unprivileged sandbox
 * owner can read it, with the files in `executables` mode 0755. Written atomically, so concurrent
 * processes may race to create it.
 */
export function contentDir(prefix: string, files: Readonly<Record<string, string>>, executables: readonly string[] = []): string {
  const hash = createHash('sha256').update(JSON.stringify([files, executables])).digest('hex').slice(0, 16);
  const uid = process.getuid?.() ?? 0;
  const key = `${prefix}-${uid}-${hash}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  let dir = join(tmpdir(), key);
  try {
    mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A predictable name in a shared /tmp: use it only if it is our own real folder, else a private one.
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid) {
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const own = dir;
    process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  }
  chmodSync(dir, 0o755);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    if (!unchanged(path, content)) {
      const temp = `${path}.${randomBytes(6).toString('hex')}`;
      writeFileSync(temp, content);
      chmodSync(temp, executables.includes(name) ? 0o755 : 0o644);
      renameSync(temp, path);
    }
  }
  made.set(key, dir);
  return dir;
}
