import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { pipelineEvent, type PipelineEvent } from '../schemas/events.js';
import { decodeEventStream, encodeComment, encodeEvent, encodeJsonEvent, type DecodedEvent } from './sse.js';

const encoder = new TextEncoder();

/** Splits bytes at the given offsets, as a network would. */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

function readableOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of chunks) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function* iterableOf(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const piece of chunks) yield piece;
}

async function collect<T>(events: AsyncIterable<DecodedEvent<T>>): Promise<Array<DecodedEvent<T>>> {
  const out: Array<DecodedEvent<T>> = [];
  for await (const event of events) out.push(event);
  return out;
}

const decodeText = (text: string, schema: z.ZodType = z.unknown()) =>
  collect(decodeEventStream(readableOf([encoder.encode(text)]), schema));

async function decodeError(text: string, schema: z.ZodType = z.unknown()): Promise<AppError> {
  try {
    await decodeText(text, schema);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected decoding to fail');
}

describe('encodeEvent', () => {
  it('writes fields then data and a blank line', () => {
    expect(encodeEvent({ data: '{"type":"run"}' })).toBe('data: {"type":"run"}\n\n');
    expect(encodeEvent({ data: 'x', id: '7', event: 'update', retry: 3000 })).toBe(
      'event: update\nid: 7\nretry: 3000\ndata: x\n\n',
    );
  });

  it('splits multi-line data at LF, CRLF and CR', () => {
    expect(encodeEvent({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(encodeEvent({ data: 'line\n' })).toBe('data: line\ndata: \n\n');
    expect(encodeEvent({ data: '' })).toBe('data: \n\n');
  });

  it('rejects CR, LF (and NUL in ids) in id and event', () => {
    for (const id of ['a\nb', 'a\rb', 'a\r\n', 'a\0b']) expect(() => encodeEvent({ data: 'x', id })).toThrow(TypeError);
    for (const event of ['a\nb', '\r']) expect(() => encodeEvent({ data: 'x', event })).toThrow(/single line/);
  });

  it('rejects a retry that is not a whole number of milliseconds', () => {
    for (const retry of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => encodeEvent({ data: 'x', retry })).toThrow(TypeError);
    }
  });

  it('encodes JSON values and refuses values without a JSON form', () => {
    expect(encodeJsonEvent({ type: 'complete', projectId: 'p1', filesGenerated: 2 }, { id: 'r1:5' })).toBe(
      'id: r1:5\ndata: {"type":"complete","projectId":"p1","filesGenerated":2}\n\n',
    );
    expect(() => encodeJsonEvent(undefined)).toThrow(TypeError);
  });

  it('encodes comments line by line', () => {
    expect(encodeComment('ping')).toBe(': ping\n\n');
    expect(encodeComment()).toBe(': \n\n');
    expect(encodeComment('a\nb')).toBe(': a\n: b\n\n');
  });
});

describe('decodeEventStream', () => {
  it('decodes and validates pipeline events, skipping comments', async () => {
    const events: PipelineEvent[] = [
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'log', id: 'l1', level: 'info', message: 'Planning started…', timestamp: '2026-11-01T10:00:00Z' },
      { type: 'complete', projectId: 'p1', filesGenerated: 3 },
    ];
    const text =
      encodeComment('connected') +
      encodeJsonEvent(events[0], { id: 'r1:0' }) +
      encodeComment('heartbeat') +
      encodeJsonEvent(events[1]) +
      encodeJsonEvent(events[2], { id: 'r1:2', event: 'message' });
    const decoded = await decodeText(text, pipelineEvent);
    expect(decoded).toEqual([
      { id: 'r1:0', data: events[0] },
      { data: events[1] },
      { id: 'r1:2', event: 'message', data: events[2] },
    ]);
  });

  it('joins multi-line data before parsing it', async () => {
    const value = { type: 'log', lines: ['a', 'b'], nested: { deep: true } };
    const text = encodeEvent({ data: JSON.stringify(value, null, 2) });
    expect(text.split('\n').filter((line) => line.startsWith('data: ')).length).toBeGreaterThan(5);
    expect(await decodeText(text)).toEqual([{ data: value }]);
  });

  it('drops an unfinished last event, as the standard says', async () => {
    expect(await decodeText('data: 1\n\ndata: 2\n')).toEqual([{ data: 1 }]);
  });

  it('reads plain async iterables of bytes too', async () => {
    const bytes = encoder.encode(encodeJsonEvent({ ok: true }) + encodeJsonEvent([1, 2]));
    expect(await collect(decodeEventStream(iterableOf(chunk(bytes, [1, 5, 9])), z.unknown()))).toEqual([
      { data: { ok: true } },
      { data: [1, 2] },
    ]);
  });

  it('throws BAD_GATEWAY for data that is not JSON', async () => {
    const error = await decodeError('data: {"type":\n\n');
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^The server sent an event that is not JSON \(\{"type":\)/);
  });

  it('throws BAD_GATEWAY with the issues for an event the schema rejects', async () => {
    const error = await decodeError(encodeJsonEvent({ type: 'stage', role: 'Coding' }), pipelineEvent);
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.message).toMatch(/^The server sent an event this client does not understand \(/);
    expect(error.message).toMatch(/Update the client and the server to the same version\.$/);
    expect(error.details?.issues?.map((issue) => issue.path)).toContain('role');
  });

  it('yields the events before a bad one', async () => {
    const seen: unknown[] = [];
    const stream = decodeEventStream(
      readableOf([encoder.encode(encodeJsonEvent({ type: 'complete', projectId: 'p', filesGenerated: 1 }) + 'data: nope\n\n')]),
      pipelineEvent,
    );
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.data);
      })(),
    ).rejects.toThrow(AppError);
    expect(seen).toEqual([{ type: 'complete', projectId: 'p', filesGenerated: 1 }]);
  });

  it('rejects an event larger than maxEventSize', async () => {
    const big = encodeJsonEvent({ text: 'x'.repeat(200) });
    await expect(
      collect(decodeEventStream(readableOf(chunk(encoder.encode(big), [50, 100, 150])), z.unknown(), { maxEventSize: 100 })),
    ).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/larger than 100 characters/) });
  });

  it('cancels the stream when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(encodeJsonEvent(1) + encodeJsonEvent(2)));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of decodeEventStream(stream, z.number())) {
      expect(event.data).toBe(1);
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('round-trips any JSON values, ids and names, cut at any byte', async () => {
    // Strings full of the characters that break naive SSE code: line breaks, colons, spaces,
    // NUL, multi-byte UTF-8 and astral characters (split across chunks by the cuts below).
    const unit = fc.oneof(
      fc.constantFrom('\n', '\r', '\r\n', ' ', ':', 'data: ', '\0', '\u2028', 'é', '€', '🐺', '\uFEFF'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    const singleLine = fc.string({ unit, maxLength: 12 }).filter((s) => !/[\r\n\0]/.test(s));
    const message = fc.record(
      {
        value: fc.jsonValue({ stringUnit: unit, maxDepth: 3 }),
        id: singleLine,
        event: singleLine.filter((s) => s.length > 0),
        // Pretty-printed JSON spans several data lines; its line breaks are JSON whitespace, so
        // any of LF, CR and CRLF still parses after the decoder turned them into LF.
        lineBreak: fc.constantFrom('\n', '\r', '\r\n'),
      },
      { requiredKeys: ['value'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        async (messages, cuts, asReadable) => {
          const text = messages
            .map(({ value, id, event, lineBreak }) => {
              const data =
                lineBreak === undefined ? JSON.stringify(value) : JSON.stringify(value, null, 2).replaceAll('\n', lineBreak);
              return encodeEvent({ data, id, event });
            })
            .join(encodeComment('keep-alive'));
          const chunks = chunk(encoder.encode(text), cuts);
          const decoded = await collect(
            decodeEventStream(asReadable ? readableOf(chunks) : iterableOf(chunks), z.unknown()),
          );
          expect(decoded).toEqual(
            messages.map(({ value, id, event }) => ({
              data: JSON.parse(JSON.stringify(value)) as unknown,
              ...(id === undefined ? {} : { id }),
              ...(event === undefined ? {} : { event }),
            })),
          );
        },
      ),
      { numRuns: 300 },
    );
    // 300 generated streams, each cut at every byte: seconds of CPU, more on a machine running other suites.
  }, 60_000);
});
