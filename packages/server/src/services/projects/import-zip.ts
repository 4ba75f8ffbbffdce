import { inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  AppError,
  BINARY_SKIP_REASON,
  commonTopFolder,
  decodeImportedText,
  IMPORT_MAX_ENTRIES,
  IMPORT_MAX_RATIO,
  IMPORT_MAX_UNPACKED_BYTES,
  IMPORT_RATIO_MIN_BYTES,
  importEntryNameProblem,
  importFilePath,
  importSkip,
  stripTopFolder,
  type ImportSkipped,
} from '@wolfpack/core';
import { formatBytes, MAX_FILE_BYTES, MAX_FILES, MAX_PROJECT_BYTES } from '@wolfpack/core/pipeline';

/** The text files of a zip, by path, and what was left out. */
export interface UnpackedImport {
  files: Record<string, string>;
  skipped: ImportSkipped[];
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function refuse(message: string): never {
  throw new AppError('BAD_REQUEST', `${message} Nothing was imported.`);
}

/**
 * Reads an uploaded or downloaded zip as a hostile archive: every rule of core's import rules is
 * checked, inflating stops at the limits whatever a header's sizes say, and any broken
 * rule refuses the whole zip with a message that names the entry.
 */
export async function unpackImportZip(zip: Buffer): Promise<UnpackedImport> {
  let zipfile: ZipFile;
  try {
    // decodeStrings off: yauzl would refuse a bad name with its own wording; core's rules name it instead.
    zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    refuse(`The body is not a readable zip file (${(error as Error).message}).`);
  }
  try {
    if (zipfile.entryCount > IMPORT_MAX_ENTRIES) {
      refuse(`The zip lists ${zipfile.entryCount.toLocaleString('en-US')} entries; an import may hold at most ${IMPORT_MAX_ENTRIES.toLocaleString('en-US')}. Leave out dependencies and build output and zip it again.`);
    }
    const entries = await listEntries(zipfile);
    return await readEntries(zipfile, entries);
  } finally {
    zipfile.close();
  }
}

interface NamedEntry {
  entry: Entry;
  name: string;
}

/** Every entry with its decoded name; names that would leave the folder refuse the zip. */
async function listEntries(zipfile: ZipFile): Promise<NamedEntry[]> {
  const entries: NamedEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: Entry) => {
      try {
        // Strict: a backslash is kept, so core's rules can refuse it rather than guess it means "/".
        const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
        const problem = importEntryNameProblem(name);
        if (problem !== null) refuse(`The zip entry ${problem}.`);
        entries.push({ entry, name });
        if (entries.length > IMPORT_MAX_ENTRIES) refuse(`The zip holds more than ${IMPORT_MAX_ENTRIES.toLocaleString('en-US')} entries.`);
        zipfile.readEntry();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    zipfile.once('end', () => resolve());
    zipfile.once('error', (error: Error) => reject(error instanceof AppError ? error : new AppError('BAD_REQUEST', `The zip is damaged (${error.message}). Nothing was imported.`)));
    zipfile.readEntry();
  });
  return entries;
}

async function readEntries(zipfile: ZipFile, entries: NamedEntry[]): Promise<UnpackedImport> {
  const top = commonTopFolder(entries.map((e) => e.name));
  // A Map: a file may be named __proto__ or constructor.
  const files = new Map<string, string>();
  const skipped = new Map<string, string>();
  let unpacked = 0;
  let kept = 0;
  let keptBytes = 0;
  for (const { entry, name } of entries) {
    if (name.endsWith('/')) continue; // a folder: its files say all there is
    const relative = stripTopFolder(name, top);
    const skip = importSkip(relative);
    if (skip !== null) {
      skipped.set(skip.path, skip.reason);
      continue;
    }
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      refuse(`"${name}" is a symbolic link; an import holds files only. Replace the link with the file it points to and zip it again.`);
    }
    if (entry.isEncrypted()) refuse(`"${name}" is encrypted; zip the project without a password.`);
    const safe = importFilePath(relative);
    if (!safe.ok) refuse(`The zip entry ${safe.reason}. Rename it and zip it again.`);
    if (files.has(safe.path)) refuse(`"${name}" is in the zip twice.`);
    const bytes = await inflate(zipfile, entry, name, IMPORT_MAX_UNPACKED_BYTES - unpacked);
    unpacked += bytes.length;
    const text = decodeImportedText(bytes);
    if (text === null) {
      skipped.set(safe.path, BINARY_SKIP_REASON);
      continue;
    }
    kept += 1;
    if (kept > MAX_FILES) {
      refuse(`The zip holds more than ${MAX_FILES.toLocaleString('en-US')} text files (after leaving out dependencies and build output), the most a project may hold; "${name}" is one too many.`);
    }
    keptBytes += bytes.length;
    if (keptBytes > MAX_PROJECT_BYTES) {
      refuse(`The zip's text files come to more than ${formatBytes(MAX_PROJECT_BYTES)}, the most a project may hold; "${name}" goes over it.`);
    }
    files.set(safe.path, text);
  }
  if (kept === 0) refuse(`The zip holds no text files to import${skipped.size > 0 ? ` (${skipped.size} left out: ${[...skipped.keys()].slice(0, 5).join(', ')})` : ''}.`);
  return { files: Object.fromEntries(files), skipped: [...skipped].map(([path, reason]) => ({ path, reason })) };
}

/**
 * The entry's bytes. Its compressed bytes are read as they are and inflated with a cap on the
 * output (zlib stops there), so neither a header's sizes nor a bomb's data decide how much is
 * unpacked: over the per-file limit, over what is left of the archive's unpacked total, or
 * expanding like a zip bomb, it refuses the zip.
 */
async function inflate(zipfile: ZipFile, entry: Entry, name: string, budget: number): Promise<Buffer> {
  const cap = Math.min(MAX_FILE_BYTES, budget);
  const over = () =>
    cap < MAX_FILE_BYTES
      ? refuse(`The zip unpacks to more than ${formatBytes(IMPORT_MAX_UNPACKED_BYTES)}; "${name}" goes over it.`)
      : refuse(`"${name}" is over ${formatBytes(MAX_FILE_BYTES)}, the most one file of a project may hold. Remove it from the zip and import again.`);
  let bytes: Buffer;
  try {
    const stored = entry.compressionMethod === 0;
    const stream = await zipfile.openReadStreamPromise(entry, stored ? {} : { decompress: false });
    const raw = await readAll(stream, stored ? cap : IMPORT_MAX_UNPACKED_BYTES, over);
    bytes = stored ? raw : inflateRawSync(raw, { maxOutputLength: cap + 1 });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') over();
    refuse(`"${name}" cannot be read (${(error as Error).message}).`);
  }
  if (bytes.length > cap) over();
  if (bytes.length > IMPORT_RATIO_MIN_BYTES && bytes.length > Math.max(1, entry.compressedSize) * IMPORT_MAX_RATIO) {
    refuse(`"${name}" expands more than ${IMPORT_MAX_RATIO} times its compressed size, as a zip bomb does.`);
  }
  return bytes;
}

async function readAll(stream: AsyncIterable<unknown> & { destroy(): void }, limit: number, over: () => never): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      over();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
