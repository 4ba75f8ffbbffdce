/**
 * A NUL character (U+0000), which PostgreSQL cannot store in text, anywhere text enters: refused
 * with a 400 that names the field, never a 500, and the server's log never holds what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const MARK = 'kept-out-of-the-log';
const nul = (field: string) => `${field} contains a NUL character (\\u0000), which cannot be stored. Remove it and send it again.`;

describe.each(testDatabases())('text PostgreSQL cannot store, on %s', (kind) => {
  let server: TestServer;
  let client: TestClient;
  const logged: string[] = [];
  const logger: Logger = {
    info: (message) => logged.push(message),
    warn: (message, error) => logged.push(`${message} ${String(error ?? '')}`),
    error: (message, error) => logged.push(`${message} ${error instanceof Error ? `${error.message}\n${error.stack}` : String(error ?? '')}`),
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { logger, quiet: false });
    client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'nul-tester', password: 'correct-horse' })).status).toBe(201);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it.each([
    ['a folder name', '/api/folders', { name: `Work ${MARK}\u0000`, parentFolderId: null }, 'name'],
    ['an idea', '/api/wolfpack/stream', { idea: `A timer ${MARK}\u0000 app` }, 'idea'],
    ['an attachment name', '/api/wolfpack/stream', { idea: 'A timer', attachments: [{ name: `notes\u0000${MARK}.txt`, type: 'text/plain', size: 2, content: 'hi' }] }, 'attachments.0.name'],
    ['an experiment name', '/api/experiments/start', { projectName: `Lab ${MARK}\u0000`, testPrompt: 'A timer' }, 'projectName'],
    ['a key of an object', '/api/folders', { [`name\u0000${MARK}`]: 'x', name: 'Work', parentFolderId: null }, `name\u0000${MARK}`],
  ])('refuses %s with a NUL, naming the field', async (_what, path, body, field) => {
    const res = await client.post(path, body);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, code: 'BAD_REQUEST', error: nul(field) });
  });

  it('refuses a NUL in a query string or a path, signed in or not', async () => {
    const anonymous = await fetch(`${server.url}/api/listings?search=a%00b`);
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toEqual({ success: false, code: 'BAD_REQUEST', error: nul('The query parameter search') });
    const path = await client.get('/api/projects/%00');
    expect(path.status).toBe(400);
    expect(path.json.error).toBe(nul('The address'));
    expect((await client.post('/api/auth/register', { username: `x\u0000${MARK}`, password: 'correct-horse' })).json.error).toBe(nul('username'));
  });

  it('never logs what was sent', async () => {
    await client.post('/api/folders', { name: `Work ${MARK}\u0000`, parentFolderId: null });
    expect(logged.filter((line) => line.includes(MARK))).toEqual([]);
    // Nothing failed inside the server, so nothing was logged as an error at all.
    expect(logged.filter((line) => / failed/.test(line))).toEqual([]);
  });
});
