import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { commandWorks, needTool } from '@wolfpack/core/testing';
import type { Logger } from '../../logger.js';
import { zipStream, type ZipFileInput } from './zip-export.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const hasUnzip = needTool({ tool: 'unzip', available: commandWorks('unzip', ['-v']) }, 'the `unzip -t` check of exported zips');

/** Text that compresses like code does, not like zeros: random words, cut from one pool. */
const pool = randomBytes(6 * MiB).toString('base64').replace(/[+/=]/g, ' ');
let cursor = 0;
function text(bytes: number): string {
  if (bytes > pool.length) throw new Error('text() asked for more than its pool');
  cursor = (cursor + 7919) % (pool.length - bytes + 1);
  return pool.slice(cursor, cursor + bytes);
}

/** The files as an async iterable that records how far it was read and whether it was closed. */
function source(files: ZipFileInput[]) {
  const state = { pulled: 0, pulledBytes: 0, closed: false };
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  async function* iterate() {
    try {
      for (const file of files) {
        state.pulled++;
        state.pulledBytes += Buffer.byteLength(file.content);
        // A database read now and then, as streamFiles does per batch.
        if (state.pulled % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
        yield file;
      }
    } finally {
      state.closed = true;
      onClosed();
    }
  }
  return { files: iterate(), state, closed };
}

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => {}, warn: (m) => void warnings.push(m), error: (m, e) => void warnings.push(`${m}: ${String(e)}`) };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Resolves once `stream` holds all it buffers for a client that does not read: the export then
 * waits for the client, so how much it has read is final. Watched turn by turn of the event loop,
 * not for a quiet spell, so a busy machine's slow compression cannot pass for a pause.
 */
async function filledUp(stream: Readable): Promise<void> {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  while (stream.readableLength < stream.readableHighWaterMark) await turn();
  // The rest of the group being written when the buffer filled goes in the same turn.
  await turn();
}

describe('zipStream', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  it('writes every file byte for byte into a zip that unzip accepts, skipping unsafe paths', async () => {
    const files: ZipFileInput[] = [
      { path: 'README.md', content: '# Wolfpack\n' },
      { path: 'src/ünïcode/🐺.ts', content: 'export const wolf = "🐺 héllo, 世界";\n' },
      // As PGlite's rows come: UTF-8 bytes, not strings.
      { path: 'src/ünïcode/bytes.ts', content: Buffer.from('export const wolf = "🐺 héllo, 世界";\n', 'utf8') },
      { path: 'empty.txt', content: '' },
      { path: 'empty-bytes.txt', content: new Uint8Array(0) },
      { path: '../escape.txt', content: 'never' },
      // Larger than one zlib output buffer (4 MiB), so it comes back in several pieces.
      { path: 'data/big.txt', content: text(5 * MiB) },
      ...Array.from({ length: 300 }, (_, i) => {
        const content = text(1 + ((i * 7919) % (40 * KiB)));
        return { path: `src/module-${i % 7}/file-${i}.ts`, content: i % 3 === 0 ? Buffer.from(content, 'utf8') : content };
      }),
    ];
    const log = recordingLog();
    const zip = await collect(zipStream(source(files).files, log));

    const entries = unzipSync(new Uint8Array(zip));
    const expected = files.filter((f) => f.path !== '../escape.txt');
    expect(Object.keys(entries)).toEqual(expected.map((f) => f.path));
    for (const file of expected) {
      const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : Buffer.from(file.content);
      expect(Buffer.from(entries[file.path]!).equals(bytes), file.path).toBe(true);
    }
    expect(log.warnings).toEqual([expect.stringContaining('export skipped an unsafe path: "../escape.txt"')]);

    if (hasUnzip) {
      const dir = await mkdtemp(join(tmpdir(), 'wolfpack-zip-'));
      try {
        await writeFile(join(dir, 'export.zip'), zip);
        const tested = spawnSync('unzip', ['-t', join(dir, 'export.zip')], { encoding: 'utf8' });
        expect(tested.stdout).toContain('No errors detected');
        expect(tested.status).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it('stops reading files while the client does not read, and finishes when it does', async () => {
    // 20 MiB that compress poorly; nobody reads the stream at first.
    const files = Array.from({ length: 160 }, (_, i) => ({ path: `f${i}.txt`, content: text(128 * KiB) }));
    const { files: iterable, state } = source(files);
    const stream = zipStream(iterable, recordingLog());
    stream.pause();
    // Start the stream without reading it: it fills its own buffer, then waits.
    stream.read(0);
    await filledUp(stream);
    const pulledBytes = state.pulledBytes;
    // What is held: the entries being compressed (4 MiB) and the stream's buffer (256 KiB).
    expect(pulledBytes).toBeGreaterThan(1 * MiB);
    expect(pulledBytes).toBeLessThan(6 * MiB);
    expect(state.closed).toBe(false);
    // Nothing more is read while the client reads nothing.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(state.pulledBytes).toBe(pulledBytes);

    const entries = unzipSync(new Uint8Array(await collect(stream)));
    expect(Object.keys(entries)).toHaveLength(160);
    expect(state.pulled).toBe(160);
    expect(state.closed).toBe(true);
  });

  it('stops reading files when the client disconnects mid-download (through Koa, as the route serves it)', async () => {
    const files = Array.from({ length: 800 }, (_, i) => ({ path: `f${i}.txt`, content: text(25 * KiB) }));
    const { files: iterable, state, closed } = source(files);
    const app = new Koa();
    // Koa reports the client's leaving (ERR_STREAM_PREMATURE_CLOSE); expected here.
    app.silent = true;
    app.use((ctx) => {
      ctx.type = 'application/zip';
      ctx.body = zipStream(iterable, recordingLog());
    });
    server = app.listen(0);
    await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as { port: number };

    await new Promise<void>((resolve, reject) => {
      const req = request({ port, path: '/' }, (res) => {
        res.once('data', () => {
          // The first bytes arrived: leave.
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    await closed;
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(files.length / 2);
    // And nothing is read after that.
    const pulled = state.pulled;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(state.pulled).toBe(pulled);
  });
});
