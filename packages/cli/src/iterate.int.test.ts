/**
 * `wolfpack iterate` from the built binary against a real server whose one engine is a local fake
 * speaking the OpenAI wire format: 402 without a licence (exit 4), then, with an active licence,
 * the verified patch printed and applied to the files.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateNjinApiKey } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_PAYMENT_REQUIRED } from './exit-code.js';
import { runCli, testServerBasics, type RunOptions } from './testing/cli-harness.js';
import type { Sql } from '@wolfpack/server/testing';

const PASSWORD = 'correct-horse-battery';
const CHANGED = 'export const a = 2;\n';

let engine: OpenAIFakeServer;
let server: { url: string; db: { orm: { em: { fork(): unknown } } }; close(): Promise<void> };
let dataDir: string;
let work: string;
let key: string;
let cookie: string;

beforeAll(async () => {
  // Every proposal rewrites src/a.ts whole, in the project's file-block format.
  // An instruction saying BREAK IT gets a proposal that does not parse.
  engine = await startFakeOpenAIServer({
    fallback: (request) => ({
      kind: 'stream',
      deltas: ['```ts src/a.ts\n', JSON.stringify(request.body).includes('BREAK IT') ? 'export const a = ;\n' : CHANGED, '```\n'],
    }),
  });
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-iterate-'));
  work = await mkdtemp(join(tmpdir(), 'wolfpack-cli-iterate-work-'));
  const { startServer } = await import('@wolfpack/server');
  server = await startServer({
    ...(await testServerBasics(dataDir)),
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    webDir: false,
    env: { WOLFPACK_ENGINES: JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]) },
  });
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'iterator', password: PASSWORD }),
  });
  expect(registered.ok).toBe(true);
  cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const created = await fetch(`${server.url}/api/njin/keys`, { method: 'POST', headers: { cookie, origin: server.url } });
  expect(created.status, await created.clone().text()).toBe(201);
  key = ((await created.json()) as { apiKey: string }).apiKey;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await engine?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

async function freshProject(): Promise<string> {
  const dir = await mkdtemp(join(work, 'p-'));
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  return dir;
}

function wolfpack(args: string[], cwd: string, options: RunOptions = {}) {
  return runCli(args, { timeoutMs: 120_000, ...options, cwd, env: { HOME: work, WOLFPACK_CONFIG: join(work, 'config.json'), WOLFPACK_URL: server.url, NJIN_API_KEY: key, ...options.env } });
}

/** An active licence, as the subscription's webhook would leave it. */
async function activateLicence(): Promise<void> {
  const sql = server.db.orm.em.fork() as Sql;
  const [user] = await sql.execute<Array<{ id: string }>>('select id from users where username = ?', ['iterator']);
  await sql.execute(
    `insert into njin_licences (user_id, status, current_period_end, usage_count, created_at, updated_at)
     values (?, 'active', now() + interval '30 days', 0, now(), now())`,
    [user!.id],
  );
}

describe('wolfpack iterate against a real server', () => {
  it('without a licence: the server’s sentence and exit 4', async () => {
    const dir = await freshProject();
    const result = await wolfpack(['iterate', '--instruction', 'make a two', '--mode', 'single', 'src/a.ts'], dir);
    expect(result.code, result.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^wolfpack: .*licen[cs]e.*\n$/i);
  });

  it('a key the server does not know: 401 with what to do, said once', async () => {
    const dir = await freshProject();
    // Well formed (so the CLI sends it), but never issued.
    const result = await wolfpack(['iterate', '--instruction', 'x', '--key', generateNjinApiKey(), 'src/a.ts'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('wolfpack: This njin API key is unknown or was revoked. Check the key, or create a new one on the /njin page of the web app.\n');
  });

  it('a key of the wrong shape is refused before anything is sent, with the advice once', async () => {
    const dir = await freshProject();
    const result = await wolfpack(['iterate', '--instruction', 'x', 'src/a.ts'], dir, { env: { NJIN_API_KEY: 'njin_abc' } });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'wolfpack: An njin API key is 33 letters and digits long, starting with njin_. Copy it again from the /njin page of the web app (Setup tab), then pass it with --key or set NJIN_API_KEY.\n',
    });
  });

  it('with a licence: prints the verified patch, then --apply writes it', async () => {
    await activateLicence();
    const dir = await freshProject();
    const printed = await wolfpack(['iterate', '--instruction', 'make a two', '--mode', 'single', 'src/a.ts'], dir);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain('-export const a = 1;');
    expect(printed.stdout).toContain('+export const a = 2;');
    expect(printed.stderr).toMatch(/^njin: single engine, consensus score \d\.\d\d, 1 candidate passed, 0 failed \(iteration \d+ on this licence\)\.\n$/);
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');

    const applied = await wolfpack(['iterate', '--instruction', 'make a two', '--mode', 'single', '--apply', 'src/a.ts'], dir);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toBe('Applied the patch to 1 file: src/a.ts\n');
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe(CHANGED);
  });

  it('no candidate passes: each one\'s failures, exit 1, nothing written', async () => {
    const dir = await freshProject();
    const result = await wolfpack(['iterate', '--instruction', 'BREAK IT', '--mode', 'single', '--apply', 'src/a.ts'], dir);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^No candidate passed the checks:\n  .+: failed .+\nwolfpack: .+\n$/);
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });
});
