/**
 * The embedded database on a disk that fills up: its data directory is a small tmpfs of the test's
 * own (mounting needs root, as the server runs here), filled with a file once a first build has
 * completed. A build then fails at once with the reason (an error event, or a 503 before any
 * stream), never a silent 200; GET /api/health answers 503 saying the disk is full; nothing is
 * charged for work that was not stored.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { healthReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { copyPgliteTemplate } from '../testing/database-template.js';
import { TestClient } from '../testing/http-client.js';
import { completeBuild, readEvents } from '../testing/sse-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Room for the migrated template (about 40 MB, 16 MB of it the write-ahead log) and a first build. */
const TMPFS_SIZE = '64m';

describe.skipIf(process.getuid?.() !== 0)('the embedded database on a full disk', () => {
  let mount: string;
  let mounted = false;
  let fake: OpenAIFakeServer;
  let server: TestServer;
  const sql = <T>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as unknown as Sql).execute<T>(text, params);

  beforeAll(async () => {
    mount = await mkdtemp(join(tmpdir(), 'wolfpack-full-disk-'));
    await run('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', mount]);
    mounted = true;
    await copyPgliteTemplate(inject('pgliteTemplateDir'), mount);
    fake = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }) });
    server = await startTestServer('pglite', {
      reuse: { dataDir: mount, databaseUrl: undefined },
      env: { WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 1 }]) },
    });
  }, 120_000);
  afterAll(async () => {
    // Room again first: the database writes its files as it closes.
    await rm(join(mount, 'fill'), { force: true });
    await server?.close();
    await fake?.close();
    if (mounted) await run('umount', [mount]);
    await rm(mount, { recursive: true, force: true });
  }, 60_000);

  it('a build fails at once saying the disk is full, health answers 503, and only what was stored is charged', async () => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'fulldisk', password: 'correct-horse' })).status).toBe(201);
    await completeBuild(server.url, client.cookieHeader(), 'A habit tracker');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    // dd stops with "No space left on device": that is the point.
    await run('dd', ['if=/dev/zero', `of=${join(mount, 'fill')}`, 'bs=64k']).catch(() => undefined);
    const { stdout } = await run('df', ['--output=avail', '-k', mount]);
    expect(Number(stdout.split('\n')[1])).toBeLessThan(64);

    // The health answer before the fill holds for a second (probes share answers: DatabaseProbe).
    await sleep(1100);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    const body = healthReply.parse(await health.json());
    expect(body.ok).toBe(false);
    expect(body.ok === false && body.reason).toMatch(/^The database cannot store data: the disk of .+ is full \(\d+ KiB free\)\. Free disk space there\.$/);

    const started = Date.now();
    const reply = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'A second habit tracker', modelOrder: [], cycles: 1 }),
    });
    const took = Date.now() - started;
    let runId: string | undefined;
    if (reply.status === 200) {
      // The stream ends with why, whether or not its first events could be stored.
      const last = reply.events.at(-1)?.event;
      expect(last?.type).toBe('error');
      expect(last?.type === 'error' && last.code).toBe('SERVICE_UNAVAILABLE');
      expect(last?.type === 'error' && last.error).toMatch(/^The run stopped: the server could not store it, because its database's disk is full \(.*No space left on device\)\. Nothing was charged for work that was not stored\. Try again once the server has disk space\.$/);
      const first = reply.events[0]?.event;
      runId = first?.type === 'run' ? first.runId : undefined;
    } else {
      // Not even the run's row could be stored: refused before any stream.
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body!).error).toMatch(/^The server cannot store a new run: its database's disk is full \(.*No space left on device\)\. Nothing was started or charged\. Try again later\.$/);
    }
    expect(took).toBeLessThan(15_000);

    // Room again: what the stopped run held goes back, and what it was charged is what was stored.
    await rm(join(mount, 'fill'));
    const userId = (await sql<Array<{ id: string }>>(`select id from users where username = 'fulldisk'`))[0]!.id;
    let open = -1;
    for (let i = 0; i < 100 && open !== 0; i++) {
      open = Number((await sql<Array<{ n: number }>>(`select count(*)::int as n from holds where user_id = ? and status = 'held'`, [userId]))[0]!.n);
      if (open !== 0) await sleep(200);
    }
    expect(open).toBe(0);
    const [charged] = await sql<Array<{ total: number }>>(`select coalesce(sum(-amount_cents), 0)::int as total from ledger_entries where user_id = ? and kind = 'engine_usage'`, [userId]);
    const [billed] = await sql<Array<{ total: number }>>('select coalesce(sum(billed_cents), 0)::int as total from engine_usage where user_id = ?', [userId]);
    expect(Number(charged!.total)).toBe(Number(billed!.total));
    // The run is left interrupted once its row can be written again, never completed.
    let status: string | undefined;
    for (let i = 0; i < 100 && status !== 'interrupted'; i++) {
      status = (await sql<Array<{ status: string }>>(`select status from conversations where user_id = ? and idea = 'A second habit tracker'`, [userId]))[0]?.status;
      if (reply.status !== 200) break;
      if (status !== 'interrupted') await sleep(200);
    }
    expect(status).toBe(reply.status === 200 ? 'interrupted' : undefined);
    if (runId) expect((await sql<Array<{ id: string }>>('select id from conversations where id = ?', [runId]))).toHaveLength(1);
  }, 120_000);
});
