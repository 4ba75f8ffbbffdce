import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';

/** A gzip member's fixed header: deflate, no name or time, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block (fixed Huffman, end of block at once): ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([3, 0]);

/**
 * gzip of many answers through a few deflate streams kept open, instead of a zlib object made
 * and freed for each (what `gzipSync` does). Each made one of V8's full collections likelier: 15
 * mark-compacts of 4–19 ms in 60,000 first pages with gzip against 4 without, and one of those
 * pauses holds every request in flight (docs/PERFORMANCE.md, "Issue 31 on a quiet machine").
 * Each answer is the stream's input up to a full flush, which ends every back-reference there,
 * so the blocks stand alone; a final empty block, the CRC-32 and the length make them a complete
 * gzip member. The deflating runs on libuv's thread pool, one hand-off an answer: the streams
 * flush fully on every write (zlib's `flush` option), so no separate flush call (a second trip
 * to the pool and back, each waking a pool thread) is needed.
 */
export class KeptGzip {
  private readonly idle: Lane[] = [];
  private readonly waiting: Array<(lane: Lane) => void> = [];
  private lanes = 0;

  constructor(
    private readonly level: number,
    /** Streams at most: answers beyond that wait for one. */
    private readonly size = 4,
  ) {}

  async gzip(data: Buffer): Promise<Buffer> {
    const lane = await this.acquire();
    try {
      const body = await lane.flush(data);
      const trailer = Buffer.allocUnsafe(8);
      trailer.writeUInt32LE(crc32(data), 0);
      trailer.writeUInt32LE(data.length >>> 0, 4);
      this.release(lane);
      return Buffer.concat([HEADER, body, FINAL_BLOCK, trailer]);
    } catch (error) {
      // A stream that failed is not used again: a new one takes its place.
      lane.destroy();
      this.release(new Lane(this.level));
      throw error;
    }
  }

  private acquire(): Promise<Lane> {
    const lane = this.idle.pop();
    if (lane) return Promise.resolve(lane);
    if (this.lanes < this.size) {
      this.lanes += 1;
      return Promise.resolve(new Lane(this.level));
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(lane: Lane): void {
    const next = this.waiting.shift();
    if (next) next(lane);
    else this.idle.push(lane);
  }
}

/** One kept deflate stream, used by one answer at a time. */
class Lane {
  private readonly stream: DeflateRaw;
  private chunks: Buffer[] = [];
  private failure: Error | undefined;

  constructor(level: number) {
    this.stream = createDeflateRaw({ level, flush: constants.Z_FULL_FLUSH });
    this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.stream.on('error', (error) => (this.failure = error));
  }

  /** `data` deflated up to a full flush: blocks that refer to nothing before them. */
  flush(data: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      // The write's callback comes once zlib has taken all of `data` and its output is pushed.
      this.stream.write(data, () => {
        if (this.failure) return reject(this.failure);
        const body = Buffer.concat(this.chunks);
        this.chunks = [];
        resolve(body);
      });
    });
  }

  destroy(): void {
    this.stream.destroy();
  }
}
