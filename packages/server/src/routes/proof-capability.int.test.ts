/**
 * The server tells its clients (GET /api/engines, which the build screen and `wolfpack
 * build` call before a run) and its start-up log whether Proven Code can run generated code here,
 * and when not, why and the one command that fixes it.
 */
import { existsSync } from 'node:fs';
import { enginesReply } from '@wolfpack/core';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { CHROMIUM_PATHS } from '../services/runs/proof-capability.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the test that the server says it has a sandbox');
const chromium = CHROMIUM_PATHS.some((path) => existsSync(path));

/** The lines a server logs at start, by level. */
function recordingLogger(): Logger & { lines: Array<{ level: string; message: string }> } {
  const lines: Array<{ level: string; message: string }> = [];
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
}

async function enginesOf(server: TestServer, username: string) {
  const client = new TestClient(server.url);
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  const reply = await client.get('/api/engines');
  expect(reply.status).toBe(200);
  return enginesReply.parse(reply.json);
}

const proofLines = (logger: ReturnType<typeof recordingLogger>) => logger.lines.filter((line) => line.message.includes('Proven Code'));

describe('Proven Code capability', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });

  it('WOLFPACK_SANDBOX=off: no sandbox, why, and the fix, in one start-up line and to clients', async () => {
    const logger = recordingLogger();
    const server = await startTestServer('pglite', { env: { WOLFPACK_SANDBOX: 'off' }, logger });
    servers.push(server);
    const { proof } = await enginesOf(server, 'nosandbox');
    expect(proof).toMatchObject({ sandbox: false, browser: chromium, reason: expect.stringContaining('WOLFPACK_SANDBOX=off') });
    expect(proof?.notice).toMatch(/^Proven Code cannot run generated code on this server \(the sandbox is turned off with WOLFPACK_SANDBOX=off.*\), so verdicts are "not proven"\. Fix: .*restart the server without WOLFPACK_SANDBOX=off$/);
    // The operator reads the same sentence once, as a warning.
    expect(proofLines(logger)).toEqual([{ level: 'warn', message: proof!.notice! }]);
    // Words only: nothing of the server's paths or environment.
    expect(JSON.stringify(proof)).not.toMatch(/\/(usr|bin|tmp|proc|home|root)\b/);
  });

  it.skipIf(!sandboxed)('with bubblewrap: the sandbox is there, and with Chromium nothing is said', async () => {
    const logger = recordingLogger();
    const server = await startTestServer('pglite', { env: { WOLFPACK_SANDBOX: 'on' }, logger });
    servers.push(server);
    const { proof } = await enginesOf(server, 'sandboxed');
    expect(proof).toMatchObject({ sandbox: true, browser: chromium });
    if (chromium) {
      expect(proof).toEqual({ sandbox: true, browser: true, notice: null });
      expect(proofLines(logger)).toEqual([]);
    } else {
      expect(proof?.notice).toMatch(/Chromium is not installed.*Fix: sudo apt-get install chromium$/);
      expect(proofLines(logger)).toEqual([{ level: 'warn', message: proof!.notice! }]);
    }
  });
});
