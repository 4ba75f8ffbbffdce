import type { Context } from 'koa';
import { encodeComment, encodeJsonEvent } from '@wolfpack/core';
import { commitSessionNow } from '../middleware/commit-session.js';

/** Heartbeat interval: keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** How long a browser's EventSource waits before reconnecting (the `retry:` field). */
export const RETRY_MS = 3_000;

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
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Content-Type-Options': 'nosniff',
  });
  ctx.req.socket.setNoDelay(true);
  ctx.req.socket.setTimeout(0);
  res.write(`retry: ${RETRY_MS}\n\n`);
  let isClosed = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const heartbeat = setInterval(() => {
    if (!isClosed) res.write(encodeComment('heartbeat'));
  }, heartbeatMs);
  const finish = () => {
    if (isClosed) return;
    isClosed = true;
    clearInterval(heartbeat);
    resolveClosed();
  };
  res.on('close', finish);
  res.on('error', finish);
  return {
    send(id, data) {
      if (isClosed) return false;
      return res.write(encodeJsonEvent(data, { id: String(id) }));
    },
    closed,
    get isClosed() {
      return isClosed;
    },
    end() {
      if (!isClosed) res.end();
      finish();
    },
  };
}
