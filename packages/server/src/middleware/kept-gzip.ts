import { crc32 } from 'node:zlib';
import { KeptDeflate } from '../services/operations/kept-deflate.js';

/** A gzip member's fixed header: deflate, no name or time, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * gzip of many answers through a few deflate streams kept open ({@link KeptDeflate}): each
 * answer's complete deflate stream, with the gzip header, CRC-32 and length around it, is a gzip
 * member of its own.
 */
export class KeptGzip {
  private readonly deflater: KeptDeflate;

  constructor(level: number, /** Streams at most: answers beyond that wait for one. */ size = 4) {
    this.deflater = new KeptDeflate({ level, lanes: size });
  }

  async gzip(data: Buffer): Promise<Buffer> {
    const body = await this.deflater.deflate(data);
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(crc32(data), 0);
    trailer.writeUInt32LE(data.length >>> 0, 4);
    return Buffer.concat([HEADER, ...body, trailer]);
  }
}
