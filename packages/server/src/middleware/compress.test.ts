import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptReply } from '../services/operations/reply-cache.js';
import { compressReplies, type KeptReplyState } from './compress.js';

/** The reply as it crossed the wire: no client-side decompression (fetch would undo it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const big = { projects: Array.from({ length: 40 }, (_, i) => ({ id: `project-${i}`, idea: `A recipe app number ${i} with a dark mode` })) };
const small = { ok: true, database: 'postgres' };
/** A route's kept reply (services/operations/reply-cache.ts), answered by /kept. */
const keptReply = new KeptReply(Buffer.from(JSON.stringify(big)));
/** One whose gzip is a marker, answered by /marked: what is kept is what goes. */
const marker = Buffer.from('kept bytes, not made again');
const markedReply = new KeptReply(Buffer.from(JSON.stringify(big)));
markedReply.keep('gzip', marker);

describe('compressReplies', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = new Koa();
    app.use(compressReplies());
    app.use((ctx) => {
      if (ctx.path === '/big') ctx.body = big;
      else if (ctx.path === '/kept' || ctx.path === '/marked') {
        const reply = ctx.path === '/kept' ? keptReply : markedReply;
        (ctx.state as KeptReplyState).keptReply = reply;
        ctx.type = 'application/json';
        ctx.body = reply.json;
      }
      else if (ctx.path === '/small') ctx.body = small;
      else if (ctx.path === '/text') ctx.body = 'word '.repeat(1000);
      else if (ctx.path === '/zip') {
        ctx.type = 'application/zip';
        ctx.body = Readable.from([Buffer.alloc(4096, 1)]);
      } else if (ctx.path === '/stream-json') {
        ctx.type = 'application/json';
        ctx.body = Readable.from([JSON.stringify(big)]);
      } else if (ctx.path === '/events') {
        // What the SSE writer does: the response is written outside Koa.
        ctx.respond = false;
        ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        ctx.res.end(`data: ${JSON.stringify(big)}\n\n`);
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('gzips a JSON reply over 1 KB for a client that takes gzip and brotli, with Vary and the compressed length', async () => {
    const res = await rawGet(`${base}/big`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(JSON.stringify(big).length / 3);
    expect(JSON.parse(gunzipSync(res.body).toString())).toEqual(big);
  });

  it('uses brotli when the client prefers it or takes only brotli', async () => {
    for (const accept of ['br', 'gzip;q=0.5, br']) {
      const res = await rawGet(`${base}/big`, { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(brotliDecompressSync(res.body).toString())).toEqual(big);
    }
  });

  it('compresses text too', async () => {
    const res = await rawGet(`${base}/text`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe('word '.repeat(1000));
  });

  it('sends a reply under 1 KB as it is', async () => {
    const res = await rawGet(`${base}/small`, { 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toEqual(small);
  });

  it('sends plain JSON, still marked as varying, to a client that accepts no compression', async () => {
    for (const headers of [{} as Record<string, string>, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }, { 'accept-encoding': 'identity;q=0' }]) {
      const res = await rawGet(`${base}/big`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(JSON.parse(res.body.toString())).toEqual(big);
    }
  });

  it('never compresses streams (a zip download, a streamed body) or event streams', async () => {
    const zip = await rawGet(`${base}/zip`, { 'accept-encoding': 'gzip, br' });
    expect(zip.headers['content-encoding']).toBeUndefined();
    expect(zip.body).toEqual(Buffer.alloc(4096, 1));
    const streamed = await rawGet(`${base}/stream-json`, { 'accept-encoding': 'gzip, br' });
    expect(streamed.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(streamed.body.toString())).toEqual(big);
    const events = await rawGet(`${base}/events`, { 'accept-encoding': 'gzip, br' });
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.toString()).toBe(`data: ${JSON.stringify(big)}\n\n`);
  });

  it('keeps the encodings of a kept reply, and answers them again without compressing anew', async () => {
    const first = await rawGet(`${base}/kept`, { 'accept-encoding': 'gzip' });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(keptReply.encoding('gzip')?.equals(first.body)).toBe(true);
    expect(JSON.parse(gunzipSync(first.body).toString())).toEqual(big);
    const brotli = await rawGet(`${base}/kept`, { 'accept-encoding': 'br' });
    expect(keptReply.encoding('br')?.equals(brotli.body)).toBe(true);
    const again = await rawGet(`${base}/kept`, { 'accept-encoding': 'gzip' });
    expect(again.body.equals(first.body)).toBe(true);
    // What is kept is what goes: a marker kept as the gzip comes back as it is.
    const marked = await rawGet(`${base}/marked`, { 'accept-encoding': 'gzip' });
    expect(marked.body.toString()).toBe(marker.toString());
    expect(Number(marked.headers['content-length'])).toBe(marker.length);
    expect(marked.headers['content-encoding']).toBe('gzip');
  });

  it('compresses a HEAD request not at all and answers it without a body', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.request(`${base}/big`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject).end();
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    res.resume();
  });
});
