import { constants, gzipSync } from 'node:zlib';
import type { Context, Middleware } from 'koa';
import compress from 'koa-compress';

/**
 * Types worth compressing: JSON and text. Zip files and images are compressed already; an event
 * stream is left alone because a compressor holds its events back until it has a block to write.
 */
const COMPRESSIBLE = /^(application\/(json|javascript|xml|[\w.+-]+\+json)|text\/(?!event-stream)|image\/svg\+xml)/i;

/**
 * gzip for replies up to 64 KB (the API's JSON): a 4 KB window and a small hash table. koa-compress
 * makes a zlib stream for each reply, and zlib's default state (256 KB) is allocated and cleared
 * every time. On the projects page (17 KB of JSON; the server and its clients together, a busy
 * machine) a reply cost 1,060–1,500 µs of CPU that way, 540–820 µs with this state, for the same
 * 2.0 KB on the wire (gzip through deflate streams kept open: 230–430 µs; no compression: 110–230 µs).
 */
const SMALL_REPLY_GZIP = { level: constants.Z_BEST_SPEED, windowBits: 12, memLevel: 6 };
const SMALL_REPLY = 64 * 1024;

/**
 * koa-compress for JSON and text replies of 1 KB or more, with gzip before brotli when a client
 * takes both (brotli costs about twice the CPU for nearly the same size on the API's JSON), at
 * gzip's fastest level (the projects page: 32 µs at level 1 against 170 µs at level 6 for 1 % more
 * bytes). Larger replies (the web app's scripts) keep zlib's full window. Mount it outermost, so
 * error replies are covered too.
 */
export function compressReplies(): Middleware {
  const compressing = compress({
    filter: (type) => COMPRESSIBLE.test(type),
    threshold: MIN_BYTES,
    encodingPreference: ['gzip', 'br', 'identity'],
    gzip: (_type, size) => (size <= SMALL_REPLY ? SMALL_REPLY_GZIP : { level: constants.Z_BEST_SPEED }),
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 3, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
    deflate: false,
    zstd: false,
  });
  return (ctx, next) =>
    compressing(ctx, async () => {
      await next();
      // A client that refuses identity and takes neither gzip nor brotli (`identity;q=0`) would
      // get a 500 from koa-compress, which finds no encoding: it gets the reply as it is.
      const encoding = ctx.acceptsEncodings('gzip', 'br', 'identity');
      if (!encoding) ctx.compress = false;
      else if (encoding === 'gzip') gzipInMemory(ctx);
    });
}

const MIN_BYTES = 1024;
/** Statuses whose reply has no body. */
const BODYLESS = new Set([204, 205, 304]);

/**
 * A reply already in memory (the API's JSON), up to 64 KB, gzipped in one call on this thread;
 * called when gzip is the client's first choice (browsers list it first). koa-compress would pipe it
 * through a zlib stream and Koa through `stream.pipeline`: about 120 µs of CPU for the projects
 * page's 19 KB that way, 36 µs in one call, and nothing left to collect. Streams (files, the zip
 * export) and everything else stay koa-compress's, which sees the Content-Encoding and passes.
 */
function gzipInMemory(ctx: Context): void {
  const body: unknown = ctx.body;
  if (body === null || body === undefined || ctx.compress === false || ctx.method === 'HEAD' || BODYLESS.has(ctx.status) || ctx.status === 206) return;
  if (!(typeof body === 'string' || Buffer.isBuffer(body) || (typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype) || Array.isArray(body))) return;
  if (ctx.response.get('Content-Encoding') || /no-transform/i.test(ctx.response.get('Cache-Control')) || !COMPRESSIBLE.test(ctx.type)) return;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  if (bytes.length < MIN_BYTES || bytes.length > SMALL_REPLY) return;
  ctx.set('Content-Encoding', 'gzip');
  // Koa keeps the type already set and counts the new body's length.
  ctx.body = gzipSync(bytes, SMALL_REPLY_GZIP);
}
