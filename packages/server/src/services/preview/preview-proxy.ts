/**
 * One HTTP exchange between a preview link and the previewed server's socket: the request streamed
 * in (without Wolfpack's credentials, see core's preview-headers.ts), the answer streamed back,
 * both bounded in size and time so a server that hangs or floods cannot hold the Wolfpack server.
 */
import { request as httpRequest, type Agent, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { pipeline, Transform, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { headersForApp, headersFromApp, type PreviewMount } from '@wolfpack/core/proof';

export interface ProxyLimits {
  /** Largest request body sent on. */
  requestBytes: number;
  /** Largest answer passed back. */
  responseBytes: number;
  /** How long the app may take to start answering. */
  headersMs: number;
  /** How long one exchange may take in all, the answer's body included. */
  totalMs: number;
}

export const PROXY_LIMITS: Readonly<ProxyLimits> = Object.freeze({
  requestBytes: 16 * 1024 * 1024,
  responseBytes: 64 * 1024 * 1024,
  headersMs: 30_000,
  totalMs: 5 * 60_000,
});

export interface ProxyRequest {
  method: string;
  /** Path and query, from the preview origin's root. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  mount: PreviewMount;
}

export type ProxyReply =
  | { kind: 'response'; status: number; headers: Record<string, string | string[]>; body: Readable }
  | { kind: 'failed'; why: 'request-too-large' | 'response-too-large' | 'timeout' | 'connection'; message: string };

/** An exchange cut short by a bound (the stream's error, so the browser sees a broken answer, not a short one). */
class ProxyCut extends Error {
  constructor(readonly why: 'request-too-large' | 'response-too-large' | 'timeout') {
    super(`the preview ${why.replaceAll('-', ' ')}`);
  }
}

/** Passes bytes through until `max`, then fails with the bound's error (after telling `onCut`). */
function counter(max: number, why: 'request-too-large' | 'response-too-large', onCut: (cut: ProxyCut) => void = () => undefined): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes <= max) return done(null, chunk);
      const cut = new ProxyCut(why);
      onCut(cut);
      done(cut);
    },
  });
}

const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

/** A GET or HEAD with no body: nothing of it is consumed in sending it, so it can be sent again. */
export function isBodyless(request: ProxyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;
}

/** Request bodies up to this size are sent in one write with their headers. */
const ONE_WRITE_BYTES = 64 * 1024;

/** The `declared` bytes of a body; fails when it brings more or fewer. */
async function readWhole(body: Readable, declared: number): Promise<Buffer> {
  const bytes = await buffer(body);
  if (bytes.length !== declared) throw new Error(`the request body is ${bytes.length} bytes, not the ${declared} its Content-Length says`);
  return bytes;
}

/**
 * Sends `request` to the server at `socketPath`. `onDone` is called once when the exchange is
 * over, however it ends (answered, cut, failed, or the browser gone).
 */
export function forwardRequest(socketPath: string, agent: Agent, request: ProxyRequest, limits: ProxyLimits, onDone: () => void): Promise<ProxyReply> {
  return new Promise((resolve) => {
    let over = false;
    const timers: NodeJS.Timeout[] = [];
    const done = () => {
      if (over) return;
      over = true;
      for (const timer of timers) clearTimeout(timer);
      onDone();
    };
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limits.requestBytes) {
      request.body.resume(); // read and dropped, so the connection can answer
      done();
      resolve({ kind: 'failed', why: 'request-too-large', message: `The request is larger than the ${mib(limits.requestBytes)} a preview passes on.` });
      return;
    }
    let outgoing: ClientRequest;
    try {
      outgoing = httpRequest({ socketPath, agent, method: request.method, path: request.path, headers: headersForApp(request.headers, request.mount) });
    } catch (error) {
      // A path or header Node will not send (it checks them before anything goes out).
      request.body.resume();
      done();
      resolve({ kind: 'failed', why: 'connection', message: `The request could not be passed on (${(error as Error).message}).` });
      return;
    }
    const firstByte = setTimeout(() => outgoing.destroy(new ProxyCut('timeout')), limits.headersMs);
    timers.push(setTimeout(() => outgoing.destroy(new ProxyCut('timeout')), limits.totalMs), firstByte);
    outgoing.on('response', (incoming) => {
      clearTimeout(firstByte);
      if (Number(incoming.headers['content-length'] ?? 0) > limits.responseBytes) {
        incoming.destroy();
        done();
        resolve({ kind: 'failed', why: 'response-too-large', message: `The app answered with more than the ${mib(limits.responseBytes)} a preview passes on.` });
        return;
      }
      const body = counter(limits.responseBytes, 'response-too-large');
      // The whole exchange's deadline also ends an answer still streaming.
      outgoing.once('close', () => {
        if (!incoming.complete) body.destroy(new ProxyCut('timeout'));
      });
      pipeline(incoming, body, () => done());
      resolve({ kind: 'response', status: incoming.statusCode ?? 502, headers: headersFromApp(incoming.headers), body });
    });
    // A bound the request body met: the request is then torn down with an error of its own.
    let requestCut: ProxyCut | undefined;
    outgoing.on('error', (error) => {
      done();
      const cause = requestCut ?? error;
      const why = cause instanceof ProxyCut ? cause.why : 'connection';
      const message =
        why === 'timeout'
          ? `The app did not answer within ${Math.round(limits.headersMs / 1000)} s.`
          : why === 'request-too-large'
            ? `The request is larger than the ${mib(limits.requestBytes)} a preview passes on.`
            : `The app did not answer (${error.message}).`;
      resolve({ kind: 'failed', why, message });
    });
    if (isBodyless(request)) outgoing.end();
    else if (declared > 0 && declared <= ONE_WRITE_BYTES && request.headers['transfer-encoding'] === undefined) {
      // A small body goes with its headers in one write, read whole first. Streamed, its end could
      // be written after an app that answers and closes at once (Python's http.server) had done so:
      // write EPIPE, and the answer it sent was lost (seen under load).
      readWhole(request.body, declared).then(
        (body) => outgoing.end(body),
        (error: Error) => outgoing.destroy(error),
      );
    } else
      pipeline(
        request.body,
        counter(limits.requestBytes, 'request-too-large', (cut) => (requestCut = cut)),
        outgoing,
        (error) => {
          if (error) outgoing.destroy(error);
        },
      );
  });
}
