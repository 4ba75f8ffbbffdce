/**
 * A folder as a zip in memory, for `wolfpack import DIR`: the paths an import leaves out (core's
 * importSkipReason: node_modules/, .git/, build output, OS junk) are never read, and symbolic
 * links are never followed, so a link cannot pull in files from outside the folder.
 */
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, IMPORT_MAX_ENTRIES, IMPORT_MAX_UNPACKED_BYTES, IMPORT_MAX_ZIP_BYTES, importSkipReason, type ImportSkipped } from '@wolfpack/core';
import { zipSync, type Zippable } from 'fflate';
import { formatBytes } from './format.js';

export const SYMLINK_SKIP_REASON = 'a symbolic link is not followed';
export const SPECIAL_FILE_SKIP_REASON = 'not a regular file';

export interface ZippedFolder {
  zip: Uint8Array;
  /** Files in the zip, in the order they were added. */
  files: string[];
  /** What was left out, and why. */
  skipped: ImportSkipped[];
}

/**
 * Reads `dir` (its files only; the paths in the zip are relative to it) and zips what an import
 * keeps. A folder bigger than an import may be is refused with a sentence saying what to do.
 */
export async function zipFolder(dir: string): Promise<ZippedFolder> {
  const entries: Zippable = {};
  const files: string[] = [];
  const skipped: ImportSkipped[] = [];
  let bytes = 0;

  const walk = async (folder: string, prefix: string): Promise<void> => {
    const children = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const path = `${prefix}${child.name}`;
      if (child.isSymbolicLink()) {
        skipped.push({ path, reason: SYMLINK_SKIP_REASON });
      } else if (child.isDirectory()) {
        // The folder's own name decides: a path inside it is what importSkipReason judges.
        const reason = importSkipReason(`${path}/x`);
        if (reason !== null) skipped.push({ path: `${path}/`, reason });
        else await walk(join(folder, child.name), `${path}/`);
      } else if (!child.isFile()) {
        skipped.push({ path, reason: SPECIAL_FILE_SKIP_REASON });
      } else {
        const reason = importSkipReason(path);
        if (reason !== null) {
          skipped.push({ path, reason });
          continue;
        }
        if (files.length >= IMPORT_MAX_ENTRIES) {
          throw new AppError('PAYLOAD_TOO_LARGE', `${dir} has more than ${IMPORT_MAX_ENTRIES} files to import. Import the folder that holds the project's source alone.`);
        }
        const content = await readNoFollow(join(folder, child.name));
        bytes += content.length;
        if (bytes > IMPORT_MAX_UNPACKED_BYTES) {
          throw new AppError('PAYLOAD_TOO_LARGE', `${dir} holds more than ${formatBytes(IMPORT_MAX_UNPACKED_BYTES)} of files to import. Import the folder that holds the project's source alone.`);
        }
        entries[path] = content;
        files.push(path);
      }
    }
  };
  await walk(dir, '');

  const zip = zipSync(entries, { level: 6 });
  if (zip.length > IMPORT_MAX_ZIP_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${dir} zips to ${formatBytes(zip.length)}, more than the ${formatBytes(IMPORT_MAX_ZIP_BYTES)} an import may be. Import the folder that holds the project's source alone.`);
  }
  return { zip, files, skipped };
}

/** A file's bytes, refusing a link that took the file's place since the folder was listed. */
async function readNoFollow(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}
