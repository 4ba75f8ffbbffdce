import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressReplies } from './compress.js';

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

describe('compressReplies', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = new Koa();
    app.use(compressReplies());
    app.use((ctx) => {
      if (ctx.path === '/big') ctx.body = big;
      else if (ctx.path === '/small') ctx.body = small;
      else if (ctx.path === '/text') ctx.body = 'word '.repeat(1000);
      else if (ctx.path === '/no-transform') {
        ctx.set('Cache-Control', 'no-transform');
        ctx.body = big;
      } else if (ctx.path === '/large') ctx.body = { rows: Array.from({ length: 3000 }, (_, i) => ({ i, text: `row ${i} of a large reply` })) };
      else if (ctx.path === '/zip') {
        ctx.type = 'application/zip';
        ctx.body = Readable.from([Buffer.alloc(4096, 1)]);
      } else if (ctx.path === '/stream-json') {
        ctx.type = 'application/json';
        ctx.body = Readable.from([JSON.stringify(big)]);
      } else if (ctx.path === '/events') {
        // An event stream as a Koa body.
        ctx.type = 'text/event-stream';
        ctx.body = Readable.from([`data: ${JSON.stringify(big)}\n\n`]);
      } else if (ctx.path === '/raw-events') {
        // An event stream written outside Koa's body.
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

  it('gzips a JSON reply over 1 KB for a client that takes gzip and brotli, with Vary', async () => {
    const res = await rawGet(`${base}/big`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.length).toBeLessThan(JSON.stringify(big).length / 3);
    expect(JSON.parse(gunzipSync(res.body).toString())).toEqual(big);
    // Compressed whole, in one call: it goes out with its length, not in chunks.
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });

  it('streams the gzip of a reply over 64 KB, and leaves a no-transform reply alone', async () => {
    const large = await rawGet(`${base}/large`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(large.headers['transfer-encoding']).toBe('chunked');
    expect((JSON.parse(gunzipSync(large.body).toString()) as { rows: unknown[] }).rows).toHaveLength(3000);
    const kept = await rawGet(`${base}/no-transform`, { 'accept-encoding': 'gzip' });
    expect(kept.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(kept.body.toString())).toEqual(big);
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
    expect(JSON.parse(res.body.toString())).toEqual(small);
  });

  it('sends plain JSON, still marked as varying, to a client that accepts no compression', async () => {
    for (const headers of [{} as Record<string, string>, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }, { 'accept-encoding': 'identity;q=0' }]) {
      const res = await rawGet(`${base}/big`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(res.body.toString())).toEqual(big);
    }
  });

  it('never compresses a zip download or an event stream, and compresses a streamed JSON body', async () => {
    const zip = await rawGet(`${base}/zip`, { 'accept-encoding': 'gzip, br' });
    expect(zip.headers['content-encoding']).toBeUndefined();
    expect(zip.body).toEqual(Buffer.alloc(4096, 1));
    for (const path of ['/events', '/raw-events']) {
      const events = await rawGet(`${base}${path}`, { 'accept-encoding': 'gzip, br' });
      expect(events.headers['content-encoding']).toBeUndefined();
      expect(events.body.toString()).toBe(`data: ${JSON.stringify(big)}\n\n`);
    }
    const streamed = await rawGet(`${base}/stream-json`, { 'accept-encoding': 'gzip, br' });
    expect(streamed.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(streamed.body).toString())).toEqual(big);
  });

  it('compresses a HEAD request not at all and answers it without a body', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.request(`${base}/big`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject).end();
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    res.resume();
  });
});
