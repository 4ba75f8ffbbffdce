/**
 * The HTTP helper against a local server speaking the wire formats that the real Wolfpack server
 * never sends on purpose: HTML error pages, redirects, stalls, replies from another program.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError, meReply } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const handler = routes.get(req.url ?? '');
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function json(status: number, body: unknown): Handler {
  return (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('ApiClient', () => {
  it('sends the token and JSON, and parses the reply with the schema', async () => {
    let seen: { auth?: string | undefined; type?: string | undefined; body?: string } = {};
    routes.set('/api/echo', (req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, type: req.headers['content-type'], body };
        json(200, { user: { username: 'ann', plan: 'Free' }, extra: true })(req, res);
      });
    });
    const reply = await new ApiClient({ server: base, token: 'wpk_t' }).post('/api/echo', { body: { a: 1 }, reply: meReply });
    expect(reply).toEqual({ user: { username: 'ann', plan: 'Free' } });
    expect(seen).toEqual({ auth: 'Bearer wpk_t', type: 'application/json', body: '{"a":1}' });
  });

  it('turns { error, code } into an AppError with the server’s sentence', async () => {
    routes.set('/api/slow-down', json(429, { error: 'Too many attempts. Try again in 30 seconds.', code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 30 }));
    const error = await failure(new ApiClient({ server: base }).get('/api/slow-down'));
    expect(error.message).toBe('Too many attempts. Try again in 30 seconds.');
    expect(error.code).toBe('TOO_MANY_REQUESTS');
    expect(error.details).toEqual({ retryAfterSeconds: 30 });
  });

  it('asks whether it is a Wolfpack server when the error is not ours', async () => {
    const error = await failure(new ApiClient({ server: base }).get('/api/nothing-here'));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(`The server at ${base} answered 404 Not Found. Is it a Wolfpack server?`);
  });

  it('refuses a success reply it does not understand', async () => {
    routes.set('/api/odd', json(200, { hello: 'world' }));
    routes.set('/api/html', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    for (const path of ['/api/odd', '/api/html']) {
      const error = await failure(new ApiClient({ server: base }).get(path, { reply: meReply }));
      expect(error.code).toBe('BAD_GATEWAY');
      expect(error.message).toBe(
        `The server at ${base} sent a reply this CLI does not understand (200 on ${path}). Is it a Wolfpack server of the same version?`,
      );
    }
  });

  it('does not follow redirects, so a password never goes elsewhere', async () => {
    routes.set('/api/moved', (_req, res) => res.writeHead(307, { location: 'https://elsewhere.example/api/moved' }).end());
    const error = await failure(new ApiClient({ server: base }).post('/api/moved', { body: { password: 'x' } }));
    expect(error.message).toBe(`The server at ${base} redirects to https://elsewhere.example. Use that address with --server.`);
  });

  it('gives up on a server that does not answer in time', async () => {
    routes.set('/api/stall', () => {});
    const error = await failure(new ApiClient({ server: base, timeoutMs: 200 }).get('/api/stall'));
    expect(error.message).toBe(`The Wolfpack server at ${base} did not answer within 1 second. Try again later.`);
  });
});
