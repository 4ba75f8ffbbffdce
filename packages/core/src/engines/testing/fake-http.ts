/**
 * The HTTP side shared by the fake OpenAI and Anthropic servers: a node:http server on
 * 127.0.0.1 with a queue of scripted behaviours, one per request, that streams server-sent events
 * the way real providers do, including their bad days (stalls, cut sockets, errors after a 200).
 * Each frame goes out in two writes split at an awkward byte, sometimes inside a UTF-8 character,
 * because real networks do that too.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** True when the client went away before the answer was complete (abort, watchdog). */
  clientClosedEarly: boolean;
}

/** How a streamed answer goes wrong after it started with 200. */
export type FakeInterrupt<TErrorBody> =
  /** Stop sending and keep the connection open: only a watchdog gets out of this. */
  | 'stall'
  /** Destroy the socket abruptly (reset mid-stream). */
  | 'close'
  /** End the response cleanly but without the provider's end markers. */
  | 'end'
  /** Send the provider's in-stream error event, then end. */
  | { error: TErrorBody }
  /**
   * Keep sending frames that carry no text (an empty delta) every
   * `everyMs`, forever: the watchdog sees a live stream, only an overall deadline ends it.
   */
  | { trickle: { everyMs: number } }
  /** Send these bytes as they are (a broken JSON chunk, a truncated frame), then end or cut. */
  | { raw: string; then?: 'end' | 'close' | 'stall' };

export interface FakeStreamBehaviour<TErrorBody = unknown> {
  kind: 'stream';
  /** Text deltas, streamed in order. */
  deltas: string[];
  /** Wait before sending the status line and headers. */
  headersDelayMs?: number;
  /** Also wait for this before the status line: a test holds the answer until it lets it go. */
  headersAfter?: PromiseLike<unknown>;
  /** Wait before each delta. */
  delayMs?: number;
  /** Provider's finish/stop reason; defaults to the provider's normal one ('stop' / 'end_turn'). */
  finishReason?: string;
  /** Reported token usage; 'none' sends none (as some compatible servers do). Default: chars/4. */
  usage?: { inputTokens: unknown; outputTokens: unknown } | 'none';
  /** After this many deltas have been sent, `interrupt` happens instead of the rest. */
  interruptAfter?: number;
  interrupt?: FakeInterrupt<TErrorBody>;
}

export interface FakeErrorBehaviour {
  kind: 'error';
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type FakeBehaviour<TErrorBody = unknown> =
  | FakeStreamBehaviour<TErrorBody>
  | FakeErrorBehaviour
  /** Accept the request and never answer: no headers, ever. */
  | { kind: 'hang' }
  /** Destroy the socket before any answer. */
  | { kind: 'destroy' };

/** How a provider frames its stream: frames are complete SSE records ending in a blank line. */
export interface StreamEncoder<TErrorBody> {
  /** Frames before the first delta. */
  start(behaviour: FakeStreamBehaviour<TErrorBody>, request: RecordedRequest): string[];
  delta(text: string, index: number, request: RecordedRequest): string;
  /** Frames after the last delta (finish, usage, end marker). */
  finish(behaviour: FakeStreamBehaviour<TErrorBody>, request: RecordedRequest, text: string): string[];
  error(body: TErrorBody): string;
  /** A frame without text that the SDK still hands over as a chunk (for `trickle`). */
  empty(request: RecordedRequest): string;
}

export interface FakeServerOptions<TErrorBody> {
  /** Behaviours for the next requests, in order. */
  script?: Array<FakeBehaviour<TErrorBody>>;
  /** What to do once the script has run out. Default: a short successful stream. */
  fallback?: (request: RecordedRequest) => FakeBehaviour<TErrorBody>;
}

export interface FakeServer<TErrorBody> {
  /** The base URL to give the SDK. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Appends behaviours for the next requests. */
  enqueue(...behaviours: Array<FakeBehaviour<TErrorBody>>): void;
  close(): Promise<void>;
}

interface ProviderSpec<TErrorBody> {
  /** The path the SDK posts to, e.g. /v1/chat/completions. */
  path: string;
  /** Appended to http://127.0.0.1:port to make the SDK's base URL. */
  basePath: string;
  encoder: StreamEncoder<TErrorBody>;
  /** Checks headers and body first (key, model); an error behaviour to answer instead, if any. */
  precheck?: (request: RecordedRequest) => FakeErrorBehaviour | undefined;
  notFound: FakeErrorBehaviour;
  streamHeaders: Record<string, string>;
}

export const DEFAULT_FAKE_DELTAS = ['Hello', ' from', ' the fake', ' engine.'];

let splitCounter = 0;

export async function startFakeHttpServer<TErrorBody>(
  spec: ProviderSpec<TErrorBody>,
  options: FakeServerOptions<TErrorBody> = {},
): Promise<FakeServer<TErrorBody>> {
  const queue: Array<FakeBehaviour<TErrorBody>> = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closing = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return setImmediate(resolve);
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function writeFrame(res: ServerResponse, frame: string): Promise<boolean> {
    if (res.destroyed || closing) return false;
    const bytes = Buffer.from(frame, 'utf8');
    // Split each frame at a varying, often unkind, byte (possibly inside a multi-byte character).
    const at = 1 + (splitCounter++ * 7919) % Math.max(1, bytes.length - 1);
    res.write(bytes.subarray(0, at));
    await wait(0);
    if (res.destroyed || closing) return false;
    res.write(bytes.subarray(at));
    return true;
  }

  async function stream(res: ServerResponse, behaviour: FakeStreamBehaviour<TErrorBody>, request: RecordedRequest) {
    res.writeHead(200, spec.streamHeaders);
    res.flushHeaders();
    for (const frame of spec.encoder.start(behaviour, request)) if (!(await writeFrame(res, frame))) return;
    let text = '';
    for (const [index, delta] of behaviour.deltas.entries()) {
      if (behaviour.interruptAfter === index) return interrupt(res, behaviour, request);
      await wait(behaviour.delayMs ?? 0);
      if (!(await writeFrame(res, spec.encoder.delta(delta, index, request)))) return;
      text += delta;
    }
    if (behaviour.interruptAfter !== undefined && behaviour.interruptAfter >= behaviour.deltas.length) {
      return interrupt(res, behaviour, request);
    }
    await wait(behaviour.delayMs ?? 0);
    for (const frame of spec.encoder.finish(behaviour, request, text)) if (!(await writeFrame(res, frame))) return;
    res.end();
  }

  async function interrupt(res: ServerResponse, behaviour: FakeStreamBehaviour<TErrorBody>, request: RecordedRequest) {
    const what = behaviour.interrupt ?? 'stall';
    if (what === 'stall') return; // the connection stays open, silent
    if (what === 'close') return void res.socket?.destroy();
    if (what === 'end') return void res.end();
    if ('trickle' in what) {
      // Until the client gives up (or the fake closes): writeFrame is false once either happens.
      for (;;) {
        await wait(what.trickle.everyMs);
        if (!(await writeFrame(res, spec.encoder.empty(request)))) return;
      }
    }
    if ('raw' in what) {
      if (!(await writeFrame(res, what.raw))) return;
      if (what.then === 'stall') return;
      if (what.then === 'close') return void res.socket?.destroy();
      return void res.end();
    }
    await writeFrame(res, spec.encoder.error(what.error));
    res.end();
  }

  function answerError(res: ServerResponse, behaviour: FakeErrorBehaviour) {
    res.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
    res.end(JSON.stringify(behaviour.body));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        clientClosedEarly: false,
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.clientClosedEarly = true;
      });
      res.socket?.setNoDelay(true);
      void handle(request, res).catch(() => res.destroy());
    });
  });

  async function handle(request: RecordedRequest, res: ServerResponse) {
    if (request.method !== 'POST' || request.path.split('?')[0] !== spec.path) return answerError(res, spec.notFound);
    const rejected = spec.precheck?.(request);
    // A rejection by key or model does not use up a scripted behaviour.
    const behaviour = rejected ?? queue.shift() ?? options.fallback?.(request) ?? { kind: 'stream', deltas: DEFAULT_FAKE_DELTAS };
    if (behaviour.kind === 'hang') return;
    if (behaviour.kind === 'destroy') return void res.socket?.destroy();
    if (behaviour.kind !== 'stream') return answerError(res, behaviour);
    await wait(behaviour.headersDelayMs ?? 0);
    await behaviour.headersAfter;
    if (!res.destroyed) await stream(res, behaviour, request);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}${spec.basePath}`,
    port,
    requests,
    enqueue: (...behaviours) => void queue.push(...behaviours),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        // Stalled and hanging streams would keep close() waiting forever.
        server.closeAllConnections();
      }),
  };
}

/** Output tokens the fakes report by default: the same chars/4 rule the adapters estimate with. */
export function fakeUsage(behaviour: FakeStreamBehaviour<unknown>, request: RecordedRequest, text: string) {
  if (behaviour.usage === 'none') return undefined;
  if (behaviour.usage) return behaviour.usage;
  const inputChars = JSON.stringify((request.body as { messages?: unknown } | undefined)?.messages ?? '').length;
  return { inputTokens: Math.ceil(inputChars / 4), outputTokens: Math.max(1, Math.ceil(text.length / 4)) };
}

/** One SSE record; `event` only for providers that name their events. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
