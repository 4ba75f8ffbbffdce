// How `pnpm bench sse` opens an event stream: a new connection a stream, read over a plain socket
// by default, as a load generator does (autocannon too), or with Node's HTTP client
// (BENCH_SSE_CLIENT=http). Node's client took 0.45-0.74 ms of the bench's CPU a stream opened,
// on the two cores the server needs; the plain socket about half.
import http from 'node:http';
import net from 'node:net';

/** An open stream as the bench holds it, to drop at the end. */
export type Held = { destroy(): unknown };

export const HTTP_CLIENT = process.env.BENCH_SSE_CLIENT === 'http';
const OK_STATUS = Buffer.from('HTTP/1.1 200');
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

export interface StreamHandlers {
  /** Each chunk of the response's body (with the plain socket: of the response, headers first). */
  onChunk(chunk: Buffer): void;
  /** The server ended the stream. */
  onEnd(): void;
  /** The stream could not open: a refused connection, a status other than 200. */
  onError(error: Error): void;
}

/** Opens `path` on the server at `url` as `cookie`'s user; the stream is held until destroyed. */
export function openEventStream(url: string, path: string, cookie: string, handlers: StreamHandlers): Held {
  if (HTTP_CLIENT) {
    const req = http.get(`${url}${path}`, { agent, headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return handlers.onError(new Error(`${path}: HTTP ${res.statusCode}`));
      res.on('data', handlers.onChunk);
      res.on('end', handlers.onEnd);
      res.on('error', () => {});
    });
    req.on('error', handlers.onError);
    return req;
  }
  // As Node's client with keep-alive off: the request written once connected, the status line
  // checked, then the bytes handed on (the chunked framing's size lines hold no "data:"). The
  // server closes the connection when the stream ends (Connection: close), as it does for Node's.
  const { hostname: host, port } = new URL(url);
  const socket = net.connect(Number(port), host, () =>
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`),
  );
  let status = true;
  socket.on('data', (chunk: Buffer) => {
    if (status) {
      status = false;
      if (!chunk.subarray(0, OK_STATUS.length).equals(OK_STATUS)) return handlers.onError(new Error(`${path}: ${chunk.subarray(0, chunk.indexOf('\r\n')).toString()}`));
    }
    handlers.onChunk(chunk);
  });
  socket.on('end', handlers.onEnd);
  socket.on('error', handlers.onError);
  return socket;
}
