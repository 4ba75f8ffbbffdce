/**
 * Proven Code through the server: a run's verification record is stored with the version it
 * saved, returned by GET /api/projects/{id} and /verification, re-checked on demand, and honest
 * about what ran: with the sandbox (bubblewrap) the demo project's page is loaded in Chromium in
 * it; without one the verdict is "unproven", never "passed", and nothing ran.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { projectDetailReply, verificationReply, type PipelineEvent, type VerificationRecord } from '@wolfpack/core';
import { needTool, sandboxCheck } from '@wolfpack/core/testing';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const sandboxed = needTool(await sandboxCheck(), 'the Proven Code test that runs the demo project in the sandbox');

async function buildProject(server: TestServer, username: string) {
  const client = new TestClient(server.url);
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
    body: JSON.stringify({ idea: 'A habit tracker with streaks' }),
  });
  const complete = events.at(-1)!.event as PipelineEvent;
  if (complete.type !== 'complete') throw new Error(`the run ended with ${JSON.stringify(complete)}`);
  return { client, complete, logs: events.flatMap((e) => (e.event.type === 'log' ? [e.event.message] : [])) };
}

describe.each(testDatabases())('Proven Code records on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });

  it('without a sandbox: unproven, never passed, and the record says why', async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'off' } });
    servers.push(server);
    const { client, complete, logs } = await buildProject(server, 'nosandbox');
    expect(complete.verification).toMatchObject({ passed: true, verdict: 'unproven' });
    expect(complete.verification?.notProven).toMatch(/not executed: no sandbox on this server/);
    expect(logs.some((m) => m.startsWith('Proven Code verdict: unproven.'))).toBe(true);
    // Nothing ran, so no thread was started for it.
    expect(server.proofThread?.alive).toBe(false);
    const detail = projectDetailReply.parse((await client.get(`/api/projects/${complete.projectId}`)).json);
    const record = detail.verification!;
    expect(record).toMatchObject({ version: 1, verdict: 'unproven', executed: false });
    // Every check that would have run is listed as skipped, with the reason; none passed.
    const executed = record.checks.filter((c) => c.kind === 'execution');
    expect(executed.length).toBeGreaterThan(0);
    expect(executed.every((c) => c.status === 'skipped' && /no sandbox/.test(c.reason ?? ''))).toBe(true);
    // README.md: nothing checks prose, and the record says so rather than calling it verified.
    expect(record.uncoveredFiles).toContain('README.md');
    expect(record.coveredFiles).not.toContain('README.md');
    expect(complete.verification?.checkedFiles).toBe(record.coveredFiles.length);
    // Another user sees nothing of it.
    const other = new TestClient(server.url);
    await other.post('/api/auth/register', { username: 'nosy', password: 'correct-horse' });
    expect((await other.get(`/api/projects/${complete.projectId}/verification`)).status).toBe(404);
    expect((await other.post(`/api/projects/${complete.projectId}/verification`, {})).status).toBe(404);
  }, 60_000);

  it.skipIf(!sandboxed)('with bubblewrap: the page is loaded in the sandbox, the record is kept, and a re-check replaces it', async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'on' } });
    servers.push(server);
    const { client, complete } = await buildProject(server, 'sandboxed');
    expect(complete.verification).toMatchObject({ passed: true, verdict: 'passed' });
    expect(complete.verification?.proven).toMatch(/the page loads without errors/);
    // The checks ran from Proven Code's own thread, not between this server's requests.
    expect(server.proofThread?.alive).toBe(true);
    const stored = verificationReply.parse((await client.get(`/api/projects/${complete.projectId}/verification`)).json).verification!;
    expect(stored.executed).toBe(true);
    const page = stored.checks.find((c) => c.check === 'page-load')!;
    expect(page).toMatchObject({ kind: 'execution', runtime: 'web', status: 'passed' });
    expect(page.files).toContain('index.html');
    const detail = projectDetailReply.parse((await client.get(`/api/projects/${complete.projectId}`)).json);
    expect(detail.verification).toEqual(stored);
    const again = await client.post(`/api/projects/${complete.projectId}/verification`, {});
    expect(again.status).toBe(200);
    const rechecked: VerificationRecord = verificationReply.parse(again.json).verification!;
    expect(rechecked).toMatchObject({ version: 1, verdict: 'passed', executed: true });
    expect(Date.parse(rechecked.createdAt)).toBeGreaterThan(Date.parse(stored.createdAt));
    expect(verificationReply.parse((await client.get(`/api/projects/${complete.projectId}/verification`)).json).verification).toEqual(rechecked);
  }, 90_000);

  it.skipIf(!sandboxed)('with one sandbox at a time: runs that reach Proven Code together take turns, the waiting ones say so, and each is proven', async () => {
    const server = await startTestServer(kind, { env: { WOLFPACK_SANDBOX: 'on', WOLFPACK_PROOF_CONCURRENCY: '1' } });
    servers.push(server);
    // How many projects the sandbox thread runs at once, seen every few milliseconds.
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, server.proofThread?.running ?? 0)), 5);
    try {
      const builds = await Promise.all(['turns-a', 'turns-b', 'turns-c'].map((name) => buildProject(server, name)));
      for (const { complete } of builds) expect(complete.verification).toMatchObject({ passed: true, verdict: 'passed' });
      expect(most).toBe(1);
      // At least one run found the sandbox taken and told its Activity Feed, before its verdict.
      const waited = builds.filter(({ logs }) => logs.some((m) => m.startsWith('Waiting for a free sandbox: the server is running as many projects as it runs at once')));
      expect(waited.length).toBeGreaterThan(0);
      for (const { logs } of waited) {
        const at = logs.findIndex((m) => m.startsWith('Waiting for a free sandbox'));
        expect(logs.findIndex((m) => m.startsWith('Proven Code verdict: passed.'))).toBeGreaterThan(at);
      }
    } finally {
      clearInterval(watch);
    }
  }, 120_000);
});
