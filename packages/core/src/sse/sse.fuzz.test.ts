/**
 * Hostile and broken event streams for the decoder the web app and the CLI share: any bytes (not
 * UTF-8, half events, NULs, endless lines), cut into any chunks. Whatever arrives, the decoder
 * yields validated events or throws an AppError with a sentence: never another error, never a
 * hang, and the way the bytes were chunked never changes the outcome.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { pipelineEvent } from '../schemas/events.js';
import { decodeEventStream, encodeComment, encodeEvent, encodeJsonEvent } from './sse.js';

const RUNS = Number(process.env.WOLFPACK_FUZZ_RUNS ?? 300);
const utf8 = new TextEncoder();

/** Cuts `bytes` at the given offsets (taken modulo the length), in order. */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % (bytes.length + 1))))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    out.push(bytes.slice(start, p));
    start = p;
  }
  out.push(bytes.slice(start));
  return out;
}

async function* bytesOf(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

/** What decoding gave: the events, then how it ended (done, or the AppError's code and message). */
async function outcome(chunks: Uint8Array[], schema: z.ZodType, maxEventSize?: number): Promise<{ events: unknown[]; end: string }> {
  const events: unknown[] = [];
  try {
    for await (const e of decodeEventStream(bytesOf(chunks), schema, maxEventSize === undefined ? {} : { maxEventSize })) events.push(e);
    return { events, end: 'done' };
  } catch (error) {
    // Anything but an AppError is a bug: a TypeError, a RangeError or a zod error escaping.
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    expect(e.code).toBe('BAD_GATEWAY');
    expect(e.message).toMatch(/^The server sent an event .+\.$/s);
    return { events, end: `${e.code}: ${e.message}` };
  }
}

/** Bytes a broken or hostile server could send: SSE syntax soup, invalid UTF-8, and raw noise. */
const hostileBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom('data: ', 'data:', 'event: ', 'id: ', 'retry: ', ': ', '\n', '\r', '\r\n', '\n\n', '{', '}', '"', '[', ']', 'null', '{"type":"log"', '\u0000', '\uFEFF', 'é', '🐺', 'data: {"type":"complete","projectId":"p","filesGenerated":1}\n\n').map((s) => utf8.encode(s)),
      fc.uint8Array({ maxLength: 12 }),
      fc.constantFrom(new Uint8Array([0xc3]), new Uint8Array([0xf0, 0x9f]), new Uint8Array([0xff, 0xfe]), new Uint8Array([0xed, 0xa0, 0x80])),
    ),
    { maxLength: 40 },
  )
  .map((parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  });

describe('decodeEventStream under hostile input', () => {
  it('throws nothing but an AppError for any bytes, and chunking never changes what comes out', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBytes, fc.array(fc.nat(), { maxLength: 12 }), fc.constantFrom<z.ZodType>(z.unknown(), pipelineEvent), async (bytes, cuts, schema) => {
        const whole = await outcome([bytes], schema);
        const cut = await outcome(chunk(bytes, cuts), schema);
        expect(cut).toEqual(whole);
        // One byte at a time, the worst case a slow network produces.
        expect(await outcome(chunk(bytes, Array.from({ length: bytes.length }, (_, i) => i)), schema)).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('decodes valid pipeline events identically however they are cut, with comments and unknown fields between them', async () => {
    const event = fc.oneof(
      fc.record({ type: fc.constant('log' as const), id: fc.uuid(), level: fc.constantFrom('info', 'success', 'warning', 'error'), message: fc.string({ unit: 'binary', maxLength: 40 }), timestamp: fc.constant('2026-11-01T10:00:00.000Z') }),
      fc.record({ type: fc.constant('error' as const), error: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }) }),
      fc.record({ type: fc.constant('complete' as const), projectId: fc.uuid(), filesGenerated: fc.nat({ max: 500 }) }),
    );
    const noise = fc.constantFrom(encodeComment('heartbeat'), 'foo: bar\n', 'retry: nope\n', ':\n', 'id\n');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(event, fc.nat(), fc.option(noise, { nil: undefined })), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 16 }), async (items, cuts) => {
        const text = items.map(([e, id, n]) => `${n ?? ''}${encodeJsonEvent(e, { id: String(id) })}`).join('');
        const whole = await outcome([utf8.encode(text)], pipelineEvent);
        expect(whole.end).toBe('done');
        expect(whole.events).toHaveLength(items.length);
        expect(await outcome(chunk(utf8.encode(text), cuts), pipelineEvent)).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('stops an event that never ends at maxEventSize instead of buffering without end, and reads no further', async () => {
    // 4 MB of one unterminated data line, as a broken proxy might send, in 64 KB chunks.
    const limit = 1024 * 1024;
    const chunks = chunk(utf8.encode(`data: "${'x'.repeat(4 * 1024 * 1024)}`), Array.from({ length: 64 }, (_, i) => i * 65_536));
    let read = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (const c of chunks) {
        read++;
        yield c;
      }
    }
    const events: unknown[] = [];
    const stopped = await (async () => {
      for await (const e of decodeEventStream(counted(), z.unknown(), { maxEventSize: limit })) events.push(e);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(AppError);
    expect((stopped as AppError).message).toBe('The server sent an event larger than 1048576 characters; the stream was stopped.');
    expect(events).toEqual([]);
    // The work done, counted: the source was read up to the chunk that took the event past the
    // limit and not one chunk further, so the rest was neither buffered nor scanned.
    let total = 0;
    const crossing = chunks.findIndex((c) => (total += c.length) > limit) + 1;
    expect(read).toBe(crossing);
    expect(crossing).toBeLessThan(chunks.length / 3);
  }, 60_000);

  // No clock: the test's timeout is the bound. The lines arrive in 64 KB chunks with a turn of
  // the event loop between them, so a decoder that chokes (work growing with every line or chunk
  // already seen) is stopped by the timeout instead of running on; a linear one takes ~0.3 s idle.
  it('skips millions of heartbeat comments and empty lines without choking', { timeout: 10_000 }, async () => {
    // A million heartbeats: three million lines, 14 MB.
    const noise = utf8.encode(`${encodeComment('heartbeat')}\n\r\n`.repeat(1_000_000));
    const tail = utf8.encode(encodeEvent({ data: JSON.stringify({ type: 'error', error: 'Stopped.' }) }));
    const chunks = [...chunk(noise, Array.from({ length: Math.ceil(noise.length / 65_536) }, (_, i) => i * 65_536)), tail];
    async function* arriving(): AsyncGenerator<Uint8Array> {
      for (const c of chunks) {
        await new Promise((resolve) => setImmediate(resolve));
        yield c;
      }
    }
    const events: unknown[] = [];
    for await (const e of decodeEventStream(arriving(), pipelineEvent)) events.push(e);
    expect(events).toEqual([{ data: { type: 'error', error: 'Stopped.' } }]);
  });
});
