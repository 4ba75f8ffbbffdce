// The preview proxy's bounds, against a plain HTTP server on a Unix socket (what the sandbox's relay
// gives the proxy): requests and answers too large, an app that never answers, an answer that
// streams past the exchange's deadline. Each ends, and says so; none holds the proxy.
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { forwardRequest, type ProxyLimits, type ProxyRequest } from './preview-proxy.js';

// The waits are long enough that a slow machine busy with other suites answers in time (300 ms
// for headers is not), short enough that the timeout test is quick.
const LIMITS: ProxyLimits = { requestBytes: 1024, responseBytes: 2048, headersMs: 2000, totalMs: 5000 };

describe('forwardRequest', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function app(handler: RequestListener): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'wolfpack-proxy-test-'));
    const socketPath = join(dir, 'app.sock');
    const server: Server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    });
    return socketPath;
  }

  const request = (fields: Partial<ProxyRequest> = {}): ProxyRequest => ({
    method: 'GET',
    path: '/',
    headers: {},
    body: Readable.from([]),
    mount: { host: 'p-1.localhost', proto: 'http' },
    ...fields,
  });

  /** Forwards, and resolves with the reply and a promise of the exchange's end. */
  async function forward(socketPath: string, fields: Partial<ProxyRequest> = {}) {
    let ended!: () => void;
    const over = new Promise<void>((resolve) => (ended = resolve));
    const agent = new Agent({ keepAlive: true });
    cleanups.push(async () => agent.destroy());
    const reply = await forwardRequest(socketPath, agent, request(fields), LIMITS, () => ended());
    return { reply, over };
  }

  it('streams the body in and the answer out', async () => {
    const socket = await app((req, res) => void text(req).then((body) => res.end(`${req.method} ${req.url} ${body}`)));
    const { reply, over } = await forward(socket, { method: 'POST', path: '/a?b=1', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: Readable.from(['he', 'llo']) });
    if (reply.kind !== 'response') throw new Error(JSON.stringify(reply));
    expect(reply.status).toBe(200);
    expect(await text(reply.body)).toBe('POST /a?b=1 hello');
    await over;
  });

  it('refuses a request larger than its bound, declared or streamed', async () => {
    const socket = await app((req, res) => void text(req).then(() => res.end('took it')));
    const declared = await forward(socket, { method: 'POST', headers: { 'content-length': '4096' }, body: Readable.from([Buffer.alloc(4096)]) });
    expect(declared.reply).toMatchObject({ kind: 'failed', why: 'request-too-large', message: expect.stringMatching(/^The request is larger than the .* a preview passes on\.$/) });
    const streamed = await forward(socket, { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, body: Readable.from([Buffer.alloc(800), Buffer.alloc(800)]) });
    expect(streamed.reply).toMatchObject({ kind: 'failed', why: 'request-too-large' });
    await Promise.all([declared.over, streamed.over]);
  });

  it('cuts an answer larger than its bound, declared or streamed', async () => {
    const socket = await app((req, res) => {
      if (req.url === '/declared') {
        res.setHeader('content-length', '4096');
        res.end(Buffer.alloc(4096));
      } else {
        res.write(Buffer.alloc(1500));
        res.end(Buffer.alloc(1500));
      }
    });
    expect((await forward(socket, { path: '/declared' })).reply).toMatchObject({ kind: 'failed', why: 'response-too-large' });
    const streamed = await forward(socket, { path: '/streamed' });
    if (streamed.reply.kind !== 'response') throw new Error(JSON.stringify(streamed.reply));
    await expect(text(streamed.reply.body)).rejects.toThrow('the preview response too large');
    await streamed.over;
  });

  it('gives up on an app that does not answer, and cuts an answer that outlasts the exchange', async () => {
    const socket = await app((req, res) => {
      if (req.url === '/dribble') {
        res.write('a');
        const timer = setInterval(() => res.write('a'), 100);
        res.on('close', () => clearInterval(timer));
      }
      // else: never answers
    });
    const silent = await forward(socket, { path: '/silent' });
    expect(silent.reply).toMatchObject({ kind: 'failed', why: 'timeout', message: expect.stringMatching(/^The app did not answer within/) });
    const dribble = await forward(socket, { path: '/dribble' });
    if (dribble.reply.kind !== 'response') throw new Error(JSON.stringify(dribble.reply));
    await expect(text(dribble.reply.body)).rejects.toThrow();
    await Promise.all([silent.over, dribble.over]);
  });
});
