import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, type BrotliOptions } from 'node:zlib';
import type { Context, Next } from 'koa';
import type { KeptReply } from '../services/operations/reply-cache.js';
import { KeptGzip } from './kept-gzip.js';

/** What a route sets when its body is a kept reply's JSON: its encodings are reused and kept. */
export interface KeptReplyState {
  keptReply?: KeptReply;
}

const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);

/** Tuning of {@link compressReplies}; the defaults are what the server uses. */
export interface CompressOptions {
  /**
   * Replies smaller than this go as they are: a compressed small reply saves less than its
   * headers and the work cost.
   * @default 1024
   */
  threshold?: number;
  /**
   * gzip's level. Measured on the projects page (19 KB of JSON, 2026-11-27): level 1 took 32 µs
   * for 1,850 bytes, level 3 83 µs for 1,849, level 6 170 µs for 1,840 (a second process beside
   * it); an earlier sitting, level 3 27 µs for 2,425 bytes, level 6 59 µs for 2,353. Under load
   * compression was a tenth of the server's time at level 3, so level 1. gzip goes through kept
   * deflate streams on the thread pool ({@link KeptGzip}), whatever the size.
   * @default 1
   */
  gzipLevel?: number;
  /** Brotli's quality, for clients that take brotli and not gzip (quality 3: 45 µs, 2,364 bytes). @default 3 */
  brotliQuality?: number;
  /**
   * Brotli replies up to this size are compressed on the event loop at once (tens of
   * microseconds, less than handing them to the thread pool costs); larger ones on the thread
   * pool, so a multi-megabyte reply does not stall other requests.
   * @default 256 KiB
   */
  syncLimit?: number;
}

/** Types worth compressing: JSON and text. Zip files, images and event streams are not. */
const COMPRESSIBLE = /^(application\/(json|javascript|xml|[\w.+-]+\+json)|text\/(?!event-stream)|image\/svg\+xml)/i;

/**
 * Compresses JSON and text replies of at least `threshold` bytes with gzip or brotli, as the
 * client's Accept-Encoding allows (gzip first: about half the CPU of brotli for nearly the same
 * size), in one piece with its Content-Length. Streams (the zip export, served files) and replies
 * that bypass Koa (event streams) are left alone, so nothing is compressed twice and nothing is
 * held back from a stream. Mount it outermost, so error replies are covered too.
 */
export function compressReplies(options: CompressOptions = {}) {
  const threshold = options.threshold ?? 1024;
  const syncLimit = options.syncLimit ?? 256 * 1024;
  const kept = new KeptGzip(options.gzipLevel ?? 1);
  const brotliQuality = options.brotliQuality ?? 3;
  const brotli = (bytes: Buffer): Buffer | Promise<Buffer> => {
    const settings: BrotliOptions = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    };
    return bytes.length <= syncLimit ? brotliCompressSync(bytes, settings) : brotliAsync(bytes, settings);
  };
  return async function compress(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.respond === false || ctx.method === 'HEAD' || ctx.headerSent || !ctx.writable) return;
    if (ctx.response.get('Content-Encoding') || !COMPRESSIBLE.test(ctx.response.type)) return;
    const bytes = replyBytes(ctx.body);
    if (!bytes || bytes.length < threshold) return;
    // Whatever this client gets, another may get it otherwise: caches must keep them apart.
    ctx.vary('Accept-Encoding');
    const encoding = ctx.acceptsEncodings('gzip', 'br', 'identity');
    if (encoding !== 'gzip' && encoding !== 'br') {
      // Sent as bytes already made, so Koa does not serialize the JSON a second time.
      if (!Buffer.isBuffer(ctx.body)) ctx.body = bytes;
      return;
    }
    const keptReply = (ctx.state as KeptReplyState).keptReply;
    const memo = keptReply?.json === bytes ? keptReply : undefined;
    // A kept reply's encoding, made for an earlier request of the same bytes, goes as it is.
    let compressed = memo?.encoding(encoding);
    if (!compressed) {
      compressed = encoding === 'gzip' ? await kept.gzip(bytes) : await brotli(bytes);
      memo?.keep(encoding, compressed);
    }
    const type = ctx.response.get('Content-Type');
    ctx.body = compressed;
    ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', encoding);
  };
}

/** The reply as bytes, when it is one piece (a string, bytes, or JSON); undefined for streams and empty replies. */
function replyBytes(body: unknown): Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  if (body instanceof Blob || body instanceof ReadableStream || body instanceof Response || ArrayBuffer.isView(body)) return undefined;
  // What Koa would send for an object.
  return Buffer.from(JSON.stringify(body));
}
