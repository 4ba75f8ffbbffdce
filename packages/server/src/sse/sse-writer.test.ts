import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { decodeEventStream } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Opens the child's one stream (testing/sse-writes.ts): what it received, and the writes the child made for it. */
async function streamFromChild(events: number): Promise<{ writes: number; received: Array<{ id?: string; data: unknown }> }> {
  const child = spawn(process.execPath, ['--conditions=@wolfpack/source', '--import', 'tsx', fileURLToPath(new URL('../testing/sse-writes.ts', import.meta.url)), String(events)], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const { port } = JSON.parse((await lines.next()).value as string) as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/event-stream' } });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const received: Array<{ id?: string; data: unknown }> = [];
    const text = await res.clone().text();
    expect(text.startsWith('retry: 3000\n\n')).toBe(true);
    for await (const message of decodeEventStream(res.body!, z.unknown())) received.push({ ...(message.id === undefined ? {} : { id: message.id }), data: message.data });
    const { writes } = JSON.parse((await lines.next()).value as string) as { writes: number };
    return { writes, received };
  } finally {
    child.stdin!.end();
    child.kill();
  }
}

describe('openSse', () => {
  it('sends the headers, the retry hint and what was sent in the same tick in one write system call, in order', async () => {
    const { writes, received } = await streamFromChild(50);
    expect(received.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    expect(received[49]!.data).toEqual({ type: 'stage', role: 'Planning', step: 50 });
    // One for the chunk; res.cork() made four or more for each piece (a size, CRLFs, the piece).
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(2);
  });
});
