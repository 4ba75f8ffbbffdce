import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError } from '@wolfpack/core';
// The path rule alone: the pipeline's index loads the type checker and esbuild.
import { sanitizePath } from '@wolfpack/core/safe-path';
import { UsageError } from './usage-error.js';

export interface WriteProjectOptions {
  /** Write into a folder that already has files in it (files of the same name are replaced). */
  force?: boolean | undefined;
}

export interface WriteProjectResult {
  /** Absolute path of the folder written to. */
  dir: string;
  /** Relative paths written, in the project's order. */
  written: string[];
  /** Paths from the server that were not written, with the reason. */
  refused: Array<{ path: string; reason: string }>;
}

/**
 * Checks before a run that its files can go to `dir`: a folder that does not exist yet (it is
 * created), an empty one, or with `force` any folder. Nothing is written here.
 *
 * @throws UsageError when `dir` is a file, or a folder with files in it and `force` is not set.
 */
export async function checkOutputDir(dir: string, options: WriteProjectOptions = {}): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new UsageError(`${dir} is a file, not a folder. Pick a folder for --out.`);
    throw new AppError('INTERNAL', `Cannot read the folder ${dir}: ${(error as Error).message}.`, undefined, { cause: error });
  }
  if (entries.length > 0 && !options.force) {
    throw new UsageError(`${dir} is not empty. Pick a new or empty folder for --out, or add --force to write the project over it.`);
  }
}

/**
 * Writes a generated project (path → content) under `dir`. File names come from an AI model by
 * way of the server, so each one is checked again here with core's sanitizePath, which refuses
 * absolute paths, `..`, `.git` and names Windows cannot hold; and on disk every file must land
 * inside `dir` after symbolic links are resolved, and is opened without following a link. A
 * refused path is reported, never written, and the rest of the project is still written.
 */
export async function writeProject(dir: string, files: Record<string, string>, options: WriteProjectOptions = {}): Promise<WriteProjectResult> {
  const root = resolve(dir);
  await checkOutputDir(root, options);
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const result: WriteProjectResult = { dir: root, written: [], refused: [] };

  for (const [raw, content] of Object.entries(files)) {
    const safe = sanitizePath(raw);
    if (!safe.ok) {
      result.refused.push({ path: raw, reason: safe.reason });
      continue;
    }
    const target = join(root, ...safe.path.split('/'));
    if (!inside(root, target)) {
      result.refused.push({ path: raw, reason: `${JSON.stringify(raw)} would be written outside ${root}` });
      continue;
    }
    try {
      await writeInside(realRoot, root, safe.path, content);
      result.written.push(safe.path);
    } catch (error) {
      result.refused.push({ path: raw, reason: `${JSON.stringify(raw)} could not be written: ${(error as Error).message}` });
    }
  }
  return result;
}

/** Creates the file's folders one by one, refusing any that is (or leads through) a link out of the root. */
async function writeInside(realRoot: string, root: string, path: string, content: string): Promise<void> {
  const segments = path.split('/');
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    await mkdir(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const info = await lstat(current);
    if (!info.isDirectory()) throw new Error(`${relative(root, current)} is not a folder`);
  }
  // A folder of the root itself may be a link placed there before (--force); where it really goes counts.
  const realParent = await realpath(dirname(join(root, path)));
  if (!inside(realRoot, join(realParent, 'x'))) throw new Error('its folder leads outside the output folder');
  const target = join(realParent, segments.at(-1)!);
  // O_NOFOLLOW: a link planted at the file's own name is refused rather than written through.
  const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Whether `target` is strictly below `root`. */
function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}
