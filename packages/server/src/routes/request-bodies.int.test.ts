/**
 * Large request bodies are read only when they may be: who is calling and how much the route
 * takes are checked from the headers first. A request that declares a body and sends only its
 * first kilobyte gets its answer at once, without the server waiting for (or parsing) the rest.
 */
import http from 'node:http';
import { MAX_RUN_BODY_BYTES } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

/** POSTs headers declaring `declared` bytes, sends 1 KB of them, and resolves with the answer (the rest is never sent). */
function partialPost(url: string, declared: number, cookie = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(declared), ...(cookie ? { cookie } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        request.destroy();
        resolve({ status: res.statusCode!, body });
      });
    });
    request.on('error', (error) => (/ECONNRESET|socket hang up/.test(error.message) ? undefined : reject(error)));
    request.write(`{"prompt":"${'x'.repeat(1000)}`);
  });
}

describe.each(testDatabases())('request bodies on %s', (kind) => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'bodies', password: 'correct-horse' })).status).toBe(201);
  });
  afterAll(async () => {
    await server.dispose();
  });

  // A build, its estimate and an enhancement take the same body: up to five attachments.
  const largeBodyRoutes = ['/api/multi-pass-enhancements', '/api/wolfpack/stream', '/api/wolfpack/estimate'];

  it.each(largeBodyRoutes)('refuses a caller who is not signed in before reading the body of POST %s', async (route) => {
    const res = await partialPost(`${server.url}${route}`, 30_000_000);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it.each(largeBodyRoutes)('refuses a body of POST %s larger than the schema allows from its declared length, before reading it', async (route) => {
    const res = await partialPost(`${server.url}${route}`, MAX_RUN_BODY_BYTES + 1, client.cookieHeader());
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', error: 'The request body is too large. Send less data at once.' });
  });
});
