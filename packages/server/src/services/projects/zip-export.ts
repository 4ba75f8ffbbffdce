import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import { sanitizePath } from '@wolfpack/core/pipeline';
import type { FileContent } from '../../db/file-contents.js';
import type { Logger } from '../../logger.js';
import { KeptDeflate } from '../operations/kept-deflate.js';

/** Tuning of {@link zipStream}; the defaults are what the server uses. */
export interface ZipStreamOptions {
  /**
   * Content compressed as one group: files are added to a group until it holds
   * this much (so a group may be larger, by its last file).
   * @default 512 KiB
   */
  groupBytes?: number;
  /**
   * Groups being compressed or waiting to be written at once. With the stream's own buffer this
   * bounds what an export holds, however large the project or slow the client.
   * @default groups compressed at once + 2
   */
  groupsInFlight?: number;
  /**
   * Bytes the stream buffers for the client before it stops taking files.
   * @default 256 KiB
   */
  highWaterMark?: number;
}

export interface ZipFileInput {
  path: string;
  /** Text, or its UTF-8 bytes (as PGlite hands them over: no string in between). */
  content: FileContent;
}

const KiB = 1024;
// Regular files, rw-r--r--, made on Unix: unzip gives them those permissions, as it did with
// archiver's output.
const UNIX = 3;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
// fflate writes the classic zip format, without ZIP64: more entries or bytes than this would
// make an archive no tool opens. A project is far smaller (2,000 files, 20 MB), so refuse
// rather than check every offset.
const MAX_ENTRIES = 0xffff;
const MAX_ARCHIVE_BYTES = 0xffffffff;

/**
 * A zip of `files`, streamed. The files' bytes go in groups of about 512 KiB to libuv's thread
 * pool (deflate level 6, as `zip -6`, by Node's zlib), so compressing runs beside the main
 * thread, which reads the database; fflate writes the zip's headers around the results, in the
 * files' order. Reading stops whenever the client is slower than the export (the stream's
 * buffer is full), so memory stays flat whatever the project's size; a client that leaves
 * destroys the stream, which stops the reading (the iterator is closed). Entry names are
 * checked again for path traversal: unsafe ones are skipped with a warning.
 */
export function zipStream(files: AsyncIterable<ZipFileInput>, log: Logger, options: ZipStreamOptions = {}): Readable {
  const groupBytes = options.groupBytes ?? 512 * KiB;
  const groupsInFlight = Math.max(1, options.groupsInFlight ?? deflatePool.groupsInFlight);
  // Resolves the writer's wait: the client wants more, or it left.
  let wake: (() => void) | undefined;
  const wait = () => new Promise<void>((resolve) => (wake = resolve));
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let wantsMore = true;
  const out = new Readable({
    highWaterMark: options.highWaterMark ?? 256 * KiB,
    read() {
      wantsMore = true;
      notify();
    },
    destroy(error, callback) {
      notify();
      callback(error);
    },
  });

  // fflate hands over the local header, the data and the data descriptor of each entry as
  // separate chunks; gathering them into one push per ~64 KiB saves the socket thousands of
  // small writes.
  let gathered: Uint8Array[] = [];
  let gatheredBytes = 0;
  let archiveBytes = 0;
  let zipError: Error | undefined;
  const flush = () => {
    if (gatheredBytes === 0) return;
    const chunk = gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered, gatheredBytes);
    gathered = [];
    gatheredBytes = 0;
    if (!out.destroyed && !out.push(chunk)) wantsMore = false;
  };
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      zipError ??= error;
      return;
    }
    gathered.push(chunk);
    gatheredBytes += chunk.length;
    archiveBytes += chunk.length;
    if (gatheredBytes >= 64 * KiB || final) flush();
  });

  // One timestamp for every entry: the moment of the export.
  const mtime = new Date();
  let entries = 0;
  /** Files read but not yet sent to compression. */
  let pending: Array<{ name: string; content: FileContent }> = [];
  let pendingChars = 0;
  /** Groups sent to compression, oldest first. */
  const inFlight: Array<{ entries: ZipInputFile[]; result: Promise<DeflatedGroup> }> = [];

  const sendPending = () => {
    const group = pending;
    pending = [];
    pendingChars = 0;
    // The group's text as UTF-8, in one buffer that zlib reads, not copied.
    const sizes = group.map((file) => (typeof file.content === 'string' ? Buffer.byteLength(file.content, 'utf8') : file.content.length));
    const input = deflatePool.buffer(sizes.reduce((a, b) => a + b, 0));
    const ends: number[] = [];
    let at = 0;
    group.forEach((file, i) => {
      if (typeof file.content === 'string') at += input.write(file.content, at, sizes[i]!, 'utf8');
      else {
        input.set(file.content, at);
        at += sizes[i]!;
      }
      ends.push(at);
    });
    const groupEntries = group.map((file, i): ZipInputFile => {
      // crc is set once the group is compressed; fflate only needs it at the entry's end.
      const entry: ZipInputFile = { filename: file.name, size: sizes[i]!, crc: 0, compression: 8, mtime, os: UNIX, attrs: FILE_ATTRIBUTES };
      zip.add(entry);
      return entry;
    });
    const result = deflatePool.run(input.buffer, ends);
    // A failure is handled where the group is awaited; until then (or for good, if the client
    // leaves first) it must not count as an unhandled rejection, which would end the process.
    result.catch(() => {});
    inFlight.push({ entries: groupEntries, result });
  };
  // Writes the oldest group once compressed, then waits while the client's buffer is full.
  const writeOldest = async () => {
    const { entries: groupEntries, result } = inFlight.shift()!;
    const { output, ends, crcs } = await result;
    let start = 0;
    groupEntries.forEach((entry, i) => {
      entry.crc = crcs[i]!;
      entry.ondata!(null, output.subarray(start, ends[i]), true);
      start = ends[i]!;
    });
    if (zipError) throw zipError;
    if (archiveBytes > MAX_ARCHIVE_BYTES) throw new Error('The project is too large for a zip file (over 4 GB)');
    while (!wantsMore && !out.destroyed) await wait();
  };

  void (async () => {
    try {
      for await (const file of files) {
        if (out.destroyed) return;
        const safe = sanitizePath(file.path);
        if (!safe.ok) {
          log.warn(`export skipped an unsafe path: ${safe.reason}`);
          continue;
        }
        if (++entries > MAX_ENTRIES) throw new Error(`The project has more than ${MAX_ENTRIES} files, too many for a zip file`);
        pending.push({ name: safe.path, content: file.content });
        // Characters (or bytes), not UTF-8 bytes: cheaper to count, and near enough for a group's size.
        pendingChars += file.content.length;
        if (pendingChars < groupBytes) continue;
        sendPending();
        while (inFlight.length >= groupsInFlight) {
          await writeOldest();
          if (out.destroyed) return;
        }
      }
      if (pending.length > 0) sendPending();
      while (inFlight.length > 0) {
        await writeOldest();
        if (out.destroyed) return;
      }
      zip.end();
      if (zipError) throw zipError;
      flush();
      out.push(null);
    } catch (error) {
      if (out.destroyed) return;
      log.error('zip export failed', error);
      out.destroy(error as Error);
    }
  })();
  return out;
}

interface DeflatedGroup {
  /** The compressed files, one after another. */
  output: Uint8Array<ArrayBuffer>;
  /** Where each file's compressed bytes end in `output`. */
  ends: number[];
  /** Each file's CRC-32, as the zip format wants it. */
  crcs: number[];
}

/**
 * Compression on libuv's thread pool (Node's asynchronous zlib), shared by every export: the
 * deflate itself runs beside the main thread, which reads the database and frames the zip. Not a
 * worker thread: a worker's own V8 heap and its malloc arena (64 MB, fully resident) stay with the
 * process after the first large export, which left it 128-260 MB above where it started
 * (PostgreSQL, 2,000 real source files, `pnpm bench export`). Here nothing is allocated off the
 * main thread, and the files of a group are compressed one after another through deflate streams
 * kept for the process's life, one for each group compressed at once.
 */
class DeflatePool {
  /**
   * Groups compressed at once (each on a thread of libuv's pool): one a core, at most 4. Leaving
   * a core to the main thread would leave one lane on 2 cores, which binds the export (PGlite,
   * side by side: 1,473 ms with one lane against 1,174 ms with two; a first export 0.74× `zip -r -6`
   * against 0.79–0.87×), while /api/health asked during the export answers alike either way (p50
   * 3–4 ms, max 57–90 ms; `pnpm bench export`): with three busy threads on two cores the scheduler
   * still gives the main thread two thirds of one, more than it needs meanwhile.
   */
  readonly size = Math.max(1, Math.min(4, availableParallelism()));
  /** Groups in flight by default: those being compressed, and two more ready to go or to be written. */
  readonly groupsInFlight = this.size + 2;

  /** Input buffers of finished groups, to be filled again. */
  private readonly spare: ArrayBuffer[] = [];

  /**
   * A buffer for a group's input: a spare one when it is large enough, else a new one (with
   * room to spare, so that it is likely to fit the next group too).
   */
  buffer(bytes: number): Buffer<ArrayBuffer> {
    const index = this.spare.findIndex((b) => b.byteLength >= bytes);
    const buffer = index >= 0 ? this.spare.splice(index, 1)[0]! : new ArrayBuffer(Math.max(bytes, 640 * KiB));
    return Buffer.from(buffer, 0, bytes);
  }

  /**
   * Raw deflate at level 6, as `zip -6`, memLevel 9 (zlib's default is 8: about 25 % faster at
   * level 6, output no larger), through deflate streams kept from export to export, one for each
   * group that may be compressed at once. A zlib object for each file would pay its set-up (about
   * 400 KB of state allocated and zeroed, for a 25 KB file) 2,000 times an export.
   */
  private readonly deflater = new KeptDeflate({ level: 6, memLevel: 9, lanes: this.groupsInFlight });

  /** Compresses the files laid end to end in `input` (ending at `ends`); `input` is reused once done. */
  async run(input: ArrayBuffer, ends: number[]): Promise<DeflatedGroup> {
    try {
      const bytes = Buffer.from(input);
      const parts: Buffer[] = [];
      const crcs: number[] = [];
      const outEnds: number[] = [];
      let start = 0;
      let at = 0;
      for (const end of ends) {
        const file = bytes.subarray(start, end);
        crcs.push(crc32(file));
        for (const part of await this.deflater.deflate(file)) {
          parts.push(part);
          at += part.length;
        }
        outEnds.push(at);
        start = end;
      }
      const output = Buffer.concat(parts, at);
      return { output: new Uint8Array(output.buffer as ArrayBuffer, output.byteOffset, output.length), ends: outEnds, crcs };
    } catch (error) {
      throw new Error(`compression failed: ${(error as Error).message}`);
    } finally {
      // Keep a few, and none of the large ones a big file needed.
      if (this.spare.length < 8 && input.byteLength <= 2 * 1024 * KiB) this.spare.push(input);
    }
  }
}

const deflatePool = new DeflatePool();
