/**
 * How `wolfpack enhance` ends for outcomes the demo engines never produce: an empty result (the
 * original prompt is kept, with a warning), a failed enhancement, a stream that stops early. The
 * binary talks to a local server that speaks the real wire format and sends what each test needs.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeJsonEvent, type EnhancementEvent } from '@wolfpack/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './testing/cli-harness.js';

const WARNING = 'Enhancement completed but result was empty. Using original prompt.';

let events: EnhancementEvent[];
let server: Server;
let url: string;
let home: string;
let received: unknown;

function step(n: number): EnhancementEvent {
  return {
    type: 'step',
    passNumber: n <= 4 ? 1 : 2,
    engineOrder: ((n - 1) % 4) + 1,
    progress: { current: n, total: 8, percent: Math.round((n / 8) * 100) },
    estimatedRemainingSeconds: 75,
    engine: 'real-one',
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== 'Bearer wpk_test') {
        return res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Log in first.', code: 'UNAUTHORIZED' }));
      }
      if (req.url === '/api/multi-pass-enhancements' && req.method === 'POST') {
        received = JSON.parse(body);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        events.forEach((event, i) => res.write(encodeJsonEvent(event, { id: String(i + 1) })));
        return res.end();
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Not found', code: 'NOT_FOUND' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-enhance-outcomes-'));
  await writeFile(join(home, 'config.json'), JSON.stringify({ lastServer: url, logins: [{ server: url, token: 'wpk_test', username: 'ann' }] }));
  await writeFile(join(home, 'notes.md'), '# Notes\nUse big buttons.\n');
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await rm(home, { recursive: true, force: true });
});

beforeEach(() => {
  events = [1, 2, 3, 4, 5, 6, 7, 8].map(step);
  received = undefined;
});

const wolfpack = (args: string[]) => runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'config.json') } });

describe('how an enhancement ends', () => {
  it('keeps the original prompt when the result is empty, and says so once on stderr', async () => {
    events.push({ type: 'log', id: 'l1', level: 'warning', message: WARNING, timestamp: new Date().toISOString() }, { type: 'complete', finalPrompt: '' });
    const result = await wolfpack(['enhance', 'a quiz game']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('a quiz game\n');
    expect(result.stderr.split('\n').filter((line) => line.includes(WARNING))).toEqual([`Warning: ${WARNING}`]);
    // The estimate as the web page shows it.
    expect(result.stderr).toContain('[step] Pass 1, engine 1 done (real-one): 1 of 8, 13%, ~1m 15s left\n');
  });

  it('--json: the events as sent, the empty complete last; the warning on stderr', async () => {
    events.push({ type: 'complete', finalPrompt: '' });
    const result = await wolfpack(['enhance', 'a quiz game', '--json']);
    expect(result.code).toBe(0);
    const lines = parseJsonLines(result.stdout);
    expect(lines.at(-1)).toEqual({ eventId: 9, type: 'complete', finalPrompt: '' });
    expect(result.stderr).toBe(`Warning: ${WARNING}\n`);
  });

  it('sends --attach files with the prompt', async () => {
    events.push({ type: 'complete', finalPrompt: 'A quiz game with big buttons.' });
    const result = await wolfpack(['enhance', 'a quiz game', '--attach', join(home, 'notes.md')]);
    expect(result.stdout).toBe('A quiz game with big buttons.\n');
    expect(received).toEqual({ prompt: 'a quiz game', attachments: [{ filename: 'notes.md', content: '# Notes\nUse big buttons.\n', mimeType: 'text/markdown', size: 25 }] });
  });

  it('exits 1 with the error event’s sentence when the enhancement fails', async () => {
    events = [{ type: 'error', error: 'No engine could enhance the prompt in pass 1.', code: 'BAD_GATEWAY' }];
    const result = await wolfpack(['enhance', 'a quiz game']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: '[error] No engine could enhance the prompt in pass 1.\nwolfpack: No engine could enhance the prompt in pass 1.\n',
    });
  });

  it('exits 1 when the stream ends without a result', async () => {
    events = events.slice(0, 3);
    const result = await wolfpack(['enhance', 'a quiz game']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith(`wolfpack: The server at ${url} ended the enhancement stream without a result. Try again.\n`)).toBe(true);
  });
});
