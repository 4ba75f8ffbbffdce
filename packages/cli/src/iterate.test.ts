/**
 * `wolfpack iterate`: arguments, paths, and what each answer of the iteration API prints, run
 * in-process against a local HTTP server that answers like POST /api/njin/iterate.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { generateNjinApiKey } from '@wolfpack/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyChanges, sanitizePath } from './commands/iterate.js';
import { main } from './index.js';
import type { CliIo } from './io.js';

/** Well formed (length and checksum right), as the CLI checks before sending anything. */
const KEY = generateNjinApiKey(new Uint8Array(16).fill(7));

interface Received {
  authorization: string | undefined;
  body: { files: Record<string, string>; instruction: string; mode: string };
}

type Answer = (received: Received, res: ServerResponse) => void;

let dir: string;
let server: Server;
let url: string;
let answer: Answer;
let received: Received[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wolfpack-iterate-'));
  received = [];
  answer = (_r, res) => json(res, 500, { error: 'no answer set', code: 'INTERNAL' });
  server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const r: Received = { authorization: req.headers.authorization, body: JSON.parse(raw) as Received['body'] };
      received.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});
afterEach(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await rm(dir, { recursive: true, force: true });
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = dir) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  stdin.end('');
  const io: CliIo = { stdin, stdout, stderr, env: { WOLFPACK_CONFIG: join(dir, 'config.json'), WOLFPACK_URL: url, ...env }, cwd };
  const code = await main(argv, io);
  return { code, stdout: out, stderr: err };
}

const PATCH = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;\n';

function success(files: Record<string, string>, extra: Record<string, unknown> = {}) {
  return {
    patch: PATCH,
    files,
    consensusScore: 0.67,
    modelVotes: 'Engine 1,Engine 3',
    checks: [{ check: 'syntax', ok: true, detail: '' }],
    candidates: [
      { engine: 'Engine 1', passed: true, failedChecks: [] },
      { engine: 'Engine 2', passed: false, failedChecks: ['syntax: src/a.ts: Unexpected token'] },
      { engine: 'Engine 3', passed: true, failedChecks: [] },
    ],
    mode: 'consensus',
    usageCount: 12,
    ...extra,
  };
}

async function project() {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(dir, 'src', 'b.ts'), 'export const b = 1;\n');
}

describe('arguments', () => {
  it('needs a key and says where to get one', async () => {
    await project();
    const result = await run(['iterate', '--instruction', 'x', 'src/a.ts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('An njin API key is required');
    expect(result.stderr).toContain('/njin page of the web app');
    expect(received).toHaveLength(0);
  });

  it('refuses a key of the wrong shape before sending anything', async () => {
    await project();
    const result = await run(['iterate', '--instruction', 'x', '--key', 'sk_live_nope', 'src/a.ts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('njin API keys start with njin_');
    expect(received).toHaveLength(0);
  });

  it('refuses a key of the wrong length or with a typo before sending anything, saying what to do once', async () => {
    await project();
    const short = await run(['iterate', '--instruction', 'x', 'src/a.ts'], { NJIN_API_KEY: 'njin_abc' });
    expect(short.code).toBe(2);
    expect(short.stderr).toBe(
      'wolfpack: An njin API key is 33 letters and digits long, starting with njin_. Copy it again from the /njin page of the web app (Setup tab), then pass it with --key or set NJIN_API_KEY.\n',
    );
    const typo = await run(['iterate', '--instruction', 'x', '--key', `${KEY.slice(0, -1)}${KEY.endsWith('a') ? 'b' : 'a'}`, 'src/a.ts']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^wolfpack: This njin API key has a typo \(its checksum does not match\)\. Copy it again from the \/njin page/);
    expect(received).toHaveLength(0);
  });

  it('needs --instruction and at least one file', async () => {
    expect((await run(['iterate', 'src/a.ts'], { NJIN_API_KEY: KEY })).code).toBe(2);
    const none = await run(['iterate', '--instruction', 'x'], { NJIN_API_KEY: KEY });
    expect(none.code).toBe(2);
  });

  it('refuses paths outside the current folder, missing files and folders', async () => {
    await project();
    for (const path of ['../etc/passwd', '/etc/passwd', 'src/../../x']) {
      const result = await run(['iterate', '--instruction', 'x', '--key', KEY, path]);
      expect(result.code, path).toBe(2);
      expect(result.stderr).toContain('outside the current folder');
    }
    expect((await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/nope.ts'])).stderr).toContain('does not exist');
    expect((await run(['iterate', '--instruction', 'x', '--key', KEY, 'src'])).stderr).toContain('is not a file');
    expect(received).toHaveLength(0);
  });

  it('rejects an unknown --mode', async () => {
    await project();
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, '--mode', 'fast', 'src/a.ts']);
    expect(result.code).toBe(2);
  });

  it('sanitises paths to forward-slash paths relative to the folder', () => {
    expect(sanitizePath('/w', 'src/./a.ts')).toBe('src/a.ts');
    expect(sanitizePath('/w', '/w/src/a.ts')).toBe('src/a.ts');
    expect(() => sanitizePath('/w', '.')).toThrow();
    expect(() => sanitizePath('/w', '/w2/a.ts')).toThrow();
  });
});

describe('answers', () => {
  it('sends the files with the key as Bearer and prints the patch and a summary', async () => {
    await project();
    answer = (_r, res) => json(res, 200, success({ 'src/a.ts': 'export const a = 2;\n' }));
    const result = await run(['iterate', '--instruction', ' make a two ', '--mode', 'consensus', 'src/a.ts', './src/b.ts', 'src/a.ts'], { NJIN_API_KEY: KEY });
    expect(result.code, result.stderr).toBe(0);
    expect(received[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(received[0]?.body).toEqual({
      files: { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' },
      instruction: 'make a two',
      mode: 'consensus',
    });
    expect(result.stdout).toBe(PATCH);
    expect(result.stderr).toBe('njin: consensus, consensus score 0.67, 2 candidates passed, 1 failed (iteration 12 on this licence).\n');
    // Printing never writes.
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('--key wins over NJIN_API_KEY; the mode defaults to auto', async () => {
    await project();
    answer = (_r, res) => json(res, 200, success({}, { patch: '', mode: 'single', consensusScore: 1, candidates: [{ engine: 'Engine 1', passed: true, failedChecks: [] }] }));
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts'], { NJIN_API_KEY: 'njin_other0000000000000000' });
    expect(result.code, result.stderr).toBe(0);
    expect(received[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(received[0]?.body.mode).toBe('auto');
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('njin: single engine, consensus score 1.00, 1 candidate passed, 0 failed');
    expect(result.stderr).toContain('The engines proposed no change.');
  });

  it('--apply writes the changed and new files when nothing changed since the request', async () => {
    await project();
    answer = (_r, res) => json(res, 200, success({ 'src/a.ts': 'export const a = 2;\n', 'src/c.ts': 'export const c = 3;\n' }));
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, '--apply', 'src/a.ts', 'src/b.ts']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Applied the patch to 2 files: src/a.ts, src/c.ts\n');
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(await readFile(join(dir, 'src', 'c.ts'), 'utf8')).toBe('export const c = 3;\n');
    expect(await readFile(join(dir, 'src', 'b.ts'), 'utf8')).toBe('export const b = 1;\n');
  });

  it('--apply writes nothing when a file changed while the engines worked', async () => {
    await project();
    answer = (_r, res) => {
      // Someone edits b.ts during the request.
      void writeFile(join(dir, 'src', 'b.ts'), 'export const b = 99;\n').then(() =>
        json(res, 200, success({ 'src/a.ts': 'export const a = 2;\n', 'src/b.ts': 'export const b = 2;\n' })),
      );
    };
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, '--apply', 'src/a.ts', 'src/b.ts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no longer applies cleanly: src/b.ts changed since the request. Nothing was written');
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('--apply refuses a reply that names a path outside the folder', async () => {
    await project();
    answer = (_r, res) => json(res, 200, success({ '../evil.ts': 'x' }));
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, '--apply', 'src/a.ts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Nothing was written');
    await expect(readFile(join(dir, '..', 'evil.ts'), 'utf8')).rejects.toThrow();
  });

  it('422: prints each candidate and its failures, exit 1', async () => {
    await project();
    answer = (_r, res) =>
      json(res, 422, {
        success: false,
        error: 'No candidate passed the checks.',
        code: 'UNPROCESSABLE',
        candidates: [
          { engine: 'Engine 1', passed: false, failedChecks: ['syntax: src/a.ts: Unexpected token'] },
          { engine: 'Engine 2', passed: false, failedChecks: ['imports: src/a.ts imports ./missing'] },
        ],
      });
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'No candidate passed the checks:\n  Engine 1: failed syntax: src/a.ts: Unexpected token\n  Engine 2: failed imports: src/a.ts imports ./missing\nwolfpack: No candidate passed the checks.\n',
    );
    const asJson = await run(['--json', 'iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ code: 'UNPROCESSABLE', candidates: [{ engine: 'Engine 1' }, { engine: 'Engine 2' }] });
  });

  it('402: the licence sentence, exit 4', async () => {
    await project();
    answer = (_r, res) => json(res, 402, { success: false, error: 'This key has no active njin licence. Subscribe on the /njin page ($29 per month).', code: 'PAYMENT_REQUIRED' });
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('wolfpack: This key has no active njin licence. Subscribe on the /njin page ($29 per month).\n');
  });

  it('429: when to try again, from Retry-After', async () => {
    await project();
    answer = (_r, res) => json(res, 429, { success: false, error: 'Too many iterations with this key', code: 'TOO_MANY_REQUESTS' }, { 'retry-after': '17' });
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('wolfpack: Too many iterations with this key. Try again in 17 seconds.\n');

    answer = (_r, res) => json(res, 429, { success: false, error: 'Wait 12 s and try again.', code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 12 }, { 'retry-after': '12' });
    const said = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(said.stderr).toBe('wolfpack: Wait 12 s and try again.\n');
  });

  it('401: the key was refused, with what to do', async () => {
    await project();
    answer = (_r, res) => json(res, 401, { success: false, error: 'This API key is not valid', code: 'UNAUTHORIZED' });
    const result = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('This API key is not valid. Check the key, or create a new one on the /njin page');
    // The server's own advice (for its web page) gives way to the CLI's: said once.
    answer = (_r, res) => json(res, 401, { success: false, error: 'This njin API key is unknown or was revoked. Create a new one on the njin page.', code: 'UNAUTHORIZED' });
    const revoked = await run(['iterate', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(revoked.stderr).toBe('wolfpack: This njin API key is unknown or was revoked. Check the key, or create a new one on the /njin page of the web app.\n');
  });

  it('--json prints the reply', async () => {
    await project();
    answer = (_r, res) => json(res, 200, success({ 'src/a.ts': 'export const a = 2;\n' }));
    const result = await run(['iterate', '--json', '--instruction', 'x', '--key', KEY, 'src/a.ts']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ patch: PATCH, consensusScore: 0.67, applied: [] });
    expect(result.stderr).toBe('');
  });
});

describe('applyChanges', () => {
  it('writes nothing when a new file already exists', async () => {
    await project();
    await expect(applyChanges(dir, { 'src/a.ts': 'export const a = 1;\n' }, { 'src/a.ts': 'A', 'src/b.ts': 'B' })).rejects.toThrow(/src\/b\.ts changed/);
    expect(await readFile(join(dir, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });
});
