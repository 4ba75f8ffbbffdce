import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { encodeComment, encodeJsonEvent } from '@wolfpack/core';
import { commitSessionNow } from '../middleware/commit-session.js';

/** Heartbeat interval: keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** How long a browser's EventSource waits before reconnecting (the `retry:` field). */
export const RETRY_MS = 3_000;

/**
 * Each live event as it goes on the wire, encoded once for all the streams that follow its run
 * (1,000 streams on one run would otherwise serialise it 1,000 times), as bytes: a string written
 * to a socket is encoded again for each one. Keyed by the event object the hub hands every
 * follower; gone with the event.
 */
const encoded = new WeakMap<object, { id: number; bytes: Buffer }>();

function encodeOnce(id: number, data: unknown): Buffer {
  if (typeof data !== 'object' || data === null) return Buffer.from(encodeJsonEvent(data, { id: String(id) }));
  const known = encoded.get(data);
  if (known?.id === id) return known.bytes;
  const bytes = Buffer.from(encodeJsonEvent(data, { id: String(id) }));
  encoded.set(data, { id, bytes });
  return bytes;
}

/**
 * One heartbeat timer per interval for all the open streams, not one per stream: each writes the
 * same comment, and a thousand timers firing on their own wake the process a thousand times.
 */
const beats = new Map<number, { timer: NodeJS.Timeout; streams: Set<() => void> }>();

function onHeartbeat(everyMs: number, beat: () => void): () => void {
  let group = beats.get(everyMs);
  if (!group) {
    const streams = new Set<() => void>();
    const timer = setInterval(() => {
      for (const write of streams) write();
    }, everyMs);
    beats.set(everyMs, (group = { timer, streams }));
  }
  const { streams, timer } = group;
  streams.add(beat);
  return () => {
    streams.delete(beat);
    if (streams.size > 0) return;
    clearInterval(timer);
    if (beats.get(everyMs)?.timer === timer) beats.delete(everyMs);
  };
}

const HEARTBEAT = Buffer.from(encodeComment('heartbeat'));
const RETRY = Buffer.from(`retry: ${RETRY_MS}\n\n`);

/**
 * Node keeps the header block it wrote (`_header`) for the response's whole life, as V8 built it:
 * a tree of some forty concatenations, 1.3 KB a stream, for a string of 300 bytes. Reading a
 * character makes V8 flatten it in place, and its next collection drops the tree.
 */
function keepHeaderFlat(res: ServerResponse): void {
  const header = (res as unknown as { _header?: unknown })._header;
  if (typeof header === 'string') header.charCodeAt(0);
}

/** The event streams each app has open, so that a shutdown can end them (see {@link endEventStreams}). */
const openStreams = new WeakMap<object, Set<() => Promise<void>>>();

/**
 * Ends every event stream the app has open, as a finished response (the last chunk written),
 * not a dropped socket: a proxy in front (nginx) then logs no "upstream prematurely closed", and
 * clients read a stream that ended before its run did, which they follow again by Last-Event-ID
 * (through another replica, or this one started again).
 */
export async function endEventStreams(app: object, waitMs = 1000): Promise<void> {
  const ending = [...(openStreams.get(app) ?? [])].map((end) => end());
  // A client that stopped reading must not hold the shutdown up: its socket is dropped after this.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(ending), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
}

export interface SseStream {
  send(id: number, data: unknown): boolean;
  /** Resolves when the client has gone (closed tab, dropped connection). */
  readonly closed: Promise<void>;
  readonly isClosed: boolean;
  end(): void;
}

/**
 * Takes over the response as a server-sent event stream: no compression, no proxy buffering,
 * a `retry:` hint, a comment line as heartbeat. The caller owns the stream's lifetime. The
 * session is saved first, while its cookie can still go out with the headers.
 */
export async function openSse(ctx: Context, heartbeatMs = HEARTBEAT_MS): Promise<SseStream> {
  await commitSessionNow(ctx);
  ctx.respond = false;
  return openEventStream(ctx.res, ctx.app, heartbeatMs);
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The stream itself, for {@link openSse}: the route's other headers (the security headers, a
 * session's cookie) are set on the response already. `app`: whose shutdown ends it.
 */
function openEventStream(res: ServerResponse, app: object, heartbeatMs: number): SseStream {
  res.writeHead(200, SSE_HEADERS);
  keepHeaderFlat(res);
  res.socket?.setNoDelay(true);
  res.socket?.setTimeout(0);
  // What is written in one tick (the headers and the `retry:` hint with the replay that follows
  // them, a burst of live events) leaves as one chunk in one system call. Not with res.cork():
  // Node 24's OutgoingMessage.uncork uncorks the socket first and then sends the chunk's size,
  // a CRLF, each piece and a CRLF as writes of their own, four system calls or more where one
  // was meant (on loopback each costs the server the receiver's TCP work too: a third of its CPU
  // while a crowd opens streams, in a profile).
  let pending: Buffer[] = [];
  const flush = () => {
    const parts = pending;
    pending = [];
    if (parts.length > 0 && !isClosed) res.write(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  };
  const queue = (bytes: Buffer) => {
    if (pending.length === 0) process.nextTick(flush);
    pending.push(bytes);
  };
  let isClosed = false;
  queue(RETRY);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const stopHeartbeat = onHeartbeat(heartbeatMs, () => {
    if (!isClosed) queue(HEARTBEAT);
  });
  const streams = openStreams.get(app) ?? new Set();
  openStreams.set(app, streams);
  const finish = () => {
    if (isClosed) return;
    isClosed = true;
    stopHeartbeat();
    streams.delete(endForShutdown);
    resolveClosed();
  };
  res.on('close', finish);
  res.on('error', finish);
  const stream: SseStream = {
    send(id, data) {
      if (isClosed) return false;
      queue(encodeOnce(id, data));
      return res.writableLength < res.writableHighWaterMark;
    },
    closed,
    get isClosed() {
      return isClosed;
    },
    end() {
      // What was sent in this tick goes first.
      flush();
      if (!isClosed) res.end();
      finish();
    },
  };
  // Resolves once the last chunk is handed to the socket (or the client is gone).
  const endForShutdown = () => new Promise<void>((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
    stream.end();
  });
  streams.add(endForShutdown);
  return stream;
}
