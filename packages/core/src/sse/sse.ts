/**
 * Server-sent events, both ends in one place: the server encodes with {@link encodeEvent} /
 * {@link encodeJsonEvent} / {@link encodeComment}; web and CLI decode with
 * {@link decodeEventStream} and the zod union of the stream (pipelineEvent, enhancementEvent).
 *
 * Wire format: https://html.spec.whatwg.org/multipage/server-sent-events.html
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { z } from 'zod';
import { AppError } from '../errors.js';

/** One event to write. */
export interface SseMessage {
  /** The payload. Line breaks (CRLF, CR or LF) are written as several `data:` lines. */
  data: string;
  /** Sets the client's last event id; used to resume a run. Must not contain CR, LF or NUL. */
  id?: string | undefined;
  /** Event name; absent means the default `message`. Must not contain CR or LF. */
  event?: string | undefined;
  /** Reconnection delay the client should use, in whole milliseconds. */
  retry?: number | undefined;
}

const LINE_BREAK = /\r\n|\r|\n/;

function assertSingleLine(field: 'id' | 'event', value: string): void {
  if (/[\r\n]/.test(value) || (field === 'id' && value.includes('\0'))) {
    throw new TypeError(
      `SSE ${field} must be a single line without CR, LF${field === 'id' ? ' or NUL' : ''}: ${JSON.stringify(value)}`,
    );
  }
}

/**
 * Encodes one event as SSE text, ending with the blank line that dispatches it.
 *
 * @throws TypeError when `id` or `event` contains a line break (or `id` a NUL), or `retry` is not a
 *   whole number of at least zero: writing them would corrupt the stream.
 */
export function encodeEvent(message: SseMessage): string {
  let out = '';
  if (message.event !== undefined) {
    assertSingleLine('event', message.event);
    out += `event: ${message.event}\n`;
  }
  if (message.id !== undefined) {
    assertSingleLine('id', message.id);
    out += `id: ${message.id}\n`;
  }
  if (message.retry !== undefined) {
    if (!Number.isSafeInteger(message.retry) || message.retry < 0) {
      throw new TypeError(`SSE retry must be a whole number of milliseconds, got ${message.retry}`);
    }
    out += `retry: ${message.retry}\n`;
  }
  for (const line of message.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Encodes a JSON-serialisable value (a pipeline or enhancement event) as one event.
 *
 * @throws TypeError when the value has no JSON form (undefined, a function, a symbol).
 */
export function encodeJsonEvent(value: unknown, options: Omit<SseMessage, 'data'> = {}): string {
  const data: string | undefined = JSON.stringify(value);
  if (data === undefined) throw new TypeError('SSE data must be a JSON-serialisable value');
  return encodeEvent({ ...options, data });
}

/**
 * Encodes a comment, which clients ignore: a heartbeat that keeps proxies from closing an idle
 * stream. Each line of `text` becomes its own comment line.
 */
export function encodeComment(text = ''): string {
  return `${text
    .split(LINE_BREAK)
    .map((line) => `: ${line}`)
    .join('\n')}\n\n`;
}

/** One decoded event. */
export interface DecodedEvent<T> {
  /** The event's `id` field, when it had one. */
  id?: string;
  /** The event's `event` field, when it had one. */
  event?: string;
  data: T;
}

export interface DecodeEventStreamOptions {
  /**
   * Most characters one event may hold before the stream is rejected, so a broken server cannot
   * make a client buffer without end.
   * @default 16 * 1024 * 1024
   */
  maxEventSize?: number;
}

/** A fetch body (web, CLI) or any async iterable of bytes (a Node stream). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Reads chunks with a reader rather than `for await`: not every browser makes ReadableStream
 * async-iterable. Cancels the stream when the consumer stops early.
 */
async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array, void, undefined> {
  if (!('getReader' in source)) {
    yield* source;
    return;
  }
  const reader = source.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function parseData<S extends z.ZodType>(message: EventSourceMessage, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch (cause) {
    throw new AppError(
      'BAD_GATEWAY',
      `The server sent an event that is not JSON (${truncate(message.data)}). Check that the server URL points at a Wolfpack server.`,
      undefined,
      { cause },
    );
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
    throw new AppError(
      'BAD_GATEWAY',
      `The server sent an event this client does not understand (${summary}). Update the client and the server to the same version.`,
      { issues },
      { cause: result.error },
    );
  }
  return result.data;
}

/**
 * Decodes a server-sent event stream: splits it into events (at any chunk boundary, including
 * inside a UTF-8 character or a CRLF), JSON-parses each event's data and validates it with
 * `schema`. Comments (heartbeats) are skipped; an unfinished last event is dropped, as the SSE
 * standard says. Stopping the iteration early cancels the stream.
 *
 * @throws AppError BAD_GATEWAY when an event is not JSON, does not match `schema`, or exceeds
 *   `maxEventSize`.
 */
export async function* decodeEventStream<S extends z.ZodType>(
  source: ByteSource,
  schema: S,
  options: DecodeEventStreamOptions = {},
): AsyncGenerator<DecodedEvent<z.output<S>>, void, undefined> {
  const maxEventSize = options.maxEventSize ?? 16 * 1024 * 1024;
  const pending: EventSourceMessage[] = [];
  let failure: ParseError | undefined;
  const parser = createParser({
    onEvent: (message) => pending.push(message),
    // Unknown fields and bad retry values are ignored, as the standard says; only overflow is fatal.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error;
    },
    maxBufferSize: maxEventSize,
  });
  const decoder = new TextDecoder('utf-8');

  function* drain(): Generator<DecodedEvent<z.output<S>>, void, undefined> {
    if (failure) {
      throw new AppError(
        'BAD_GATEWAY',
        `The server sent an event larger than ${maxEventSize} characters; the stream was stopped.`,
        undefined,
        { cause: failure },
      );
    }
    while (pending.length > 0) {
      const message = pending.shift() as EventSourceMessage;
      const event: DecodedEvent<z.output<S>> = { data: parseData(message, schema) };
      if (message.id !== undefined) event.id = message.id;
      if (message.event !== undefined) event.event = message.event;
      yield event;
    }
  }

  for await (const chunk of chunksOf(source)) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* drain();
  }
  const rest = decoder.decode();
  if (rest) parser.feed(rest);
  yield* drain();
}
