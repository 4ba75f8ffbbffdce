import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import { sanitizePath } from '@wolfpack/core/pipeline';
import type { FileContent } from '../../db/file-contents.js';
import type { Logger } from '../../logger.js';
import { KeptDeflate } from './kept-deflate.js';

export interface ZipFileInput {
  path: string;
  /** Text, or its UTF-8 bytes. */
  content: FileContent;
}

const KiB = 1024;
// Regular files, rw-r--r--, made on Unix: unzip gives them those permissions.
const UNIX = 3;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
// fflate writes the classic zip format, without ZIP64: more entries or bytes than this would
// make an archive no tool opens. A project is far smaller (2,000 files, 20 MB), so refuse
// rather than check every offset.
const MAX_ENTRIES = 0xffff;
const MAX_ARCHIVE_BYTES = 0xffffffff;
/**
 * Files being compressed at once, at most, and their bytes: libuv's four pool threads stay busy
 * while the main thread reads the next rows, and an export holds a few MiB whatever the project.
 */
const FILES_IN_FLIGHT = 8;
const BYTES_IN_FLIGHT = 4 * 1024 * KiB;

/**
 * Level 6, as `zip -6`; memLevel 9 (zlib's default is 8: about 25 % faster at level 6, the output
 * no larger); one kept stream for each of the 4 threads of libuv's pool, shared by every export.
 */
const deflater = new KeptDeflate({ level: 6, memLevel: 9, lanes: 4 });

/**
 * A zip of `files`, streamed: each file is deflated by Node's zlib on libuv's thread pool (see
 * {@link deflater}), several at once, while fflate writes the zip's headers around them in the
 * files' order. The stream pulls files only while the client reads (Readable.from asks its
 * generator for more only below the high-water mark), so memory stays flat however large the
 * project or slow the client; a client that leaves destroys the stream, which closes the files'
 * iterator. Entry names are checked again for path traversal: unsafe ones are skipped with a
 * warning.
 */
export function zipStream(files: AsyncIterable<ZipFileInput>, log: Logger): Readable {
  const stream = Readable.from(zipChunks(files, log), { objectMode: false, highWaterMark: 256 * KiB });
  // Koa ends the reply on the stream's error; the log says why.
  stream.on('error', (error) => log.error('zip export failed', error));
  return stream;
}

interface Compressing {
  entry: ZipInputFile;
  bytes: Uint8Array;
  deflated: Promise<Buffer[]>;
}

async function* zipChunks(files: AsyncIterable<ZipFileInput>, log: Logger): AsyncGenerator<Buffer> {
  // fflate calls back synchronously as entries are added and ended; what it wrote is sent as one
  // chunk a file, not as the header, data and descriptor separately.
  let written: Uint8Array[] = [];
  let archiveBytes = 0;
  let zipError: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) zipError ??= error;
    else {
      written.push(chunk);
      archiveBytes += chunk.length;
    }
  });
  const take = (): Buffer => {
    if (zipError) throw zipError;
    if (archiveBytes > MAX_ARCHIVE_BYTES) throw new Error('The project is too large for a zip file (over 4 GB)');
    const chunk = Buffer.concat(written);
    written = [];
    return chunk;
  };

  // One timestamp for every entry: the moment of the export.
  const mtime = new Date();
  const inFlight: Compressing[] = [];
  let bytesInFlight = 0;
  let entries = 0;
  const writeOldest = async () => {
    const { entry, bytes, deflated } = inFlight.shift()!;
    const pieces = await deflated;
    bytesInFlight -= bytes.length;
    entry.crc = crc32(bytes);
    zip.add(entry);
    // zlib hands back Buffers of its own memory, never shared ones.
    pieces.forEach((piece, i) => entry.ondata!(null, piece as Uint8Array<ArrayBuffer>, i === pieces.length - 1));
  };
  for await (const file of files) {
    const safe = sanitizePath(file.path);
    if (!safe.ok) {
      log.warn(`export skipped an unsafe path: ${safe.reason}`);
      continue;
    }
    if (++entries > MAX_ENTRIES) throw new Error(`The project has more than ${MAX_ENTRIES} files, too many for a zip file`);
    const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    const deflated = deflater.deflate(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    // Awaited in order below; a client that leaves first must not leave it unhandled.
    deflated.catch(() => {});
    inFlight.push({ entry: { filename: safe.path, size: bytes.length, crc: 0, compression: 8, mtime, os: UNIX, attrs: FILE_ATTRIBUTES }, bytes, deflated });
    bytesInFlight += bytes.length;
    while (inFlight.length >= FILES_IN_FLIGHT || bytesInFlight >= BYTES_IN_FLIGHT) {
      await writeOldest();
      yield take();
    }
  }
  while (inFlight.length > 0) {
    await writeOldest();
    yield take();
  }
  zip.end();
  yield take();
}
