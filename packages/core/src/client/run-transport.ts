/**
 * How the run client reaches the server. The web page and the CLI each hand in their own: the page
 * a fetch with its cookies, the CLI its API client with the token and its own wording of refusals.
 * Browser-safe: nothing here needs Node.
 */
import type { ZodType } from 'zod';
import { AppError, codeForStatus } from '../errors.js';

export interface StreamCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sent as `Last-Event-ID` so the server replays only what came after it. */
  lastEventId?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface RunTransport {
  /** Where the server is, for sentences ("Lost the connection to …"). */
  readonly server: string;
  /**
   * Opens an event stream once its headers are in. A refusal rejects with an AppError whose code
   * matches the HTTP status; a network failure with any other error (or an AppError
   * SERVICE_UNAVAILABLE).
   */
  stream(call: StreamCall): Promise<ReadableStream<Uint8Array>>;
  /** GETs JSON and parses it with `reply`; failures as for {@link stream}. */
  getJson<T>(path: string, reply: ZodType<T>, signal?: AbortSignal): Promise<T>;
}

export interface FetchTransportOptions {
  /** Prefix of every path; '' for the page's own origin. */
  baseUrl?: string;
  /** Merged into every request (the page passes `credentials: 'include'`). */
  init?: RequestInit;
}

/** The sentence of a non-ok JSON reply `{error}`, else its text, else undefined. */
export async function errorSentence(res: Response): Promise<string | undefined> {
  let text = '';
  try {
    text = (await res.text()).trim();
  } catch {
    return undefined;
  }
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (typeof error === 'string' && error.trim()) return error;
    }
    return undefined;
  } catch {
    // An HTML error page from a proxy says nothing a person could use.
    return text.startsWith('<') ? undefined : text;
  }
}

/** The server refused with an error reply; `sentence` is its own words, when it gave any. */
export class ServerRefusal extends AppError {
  constructor(
    status: number,
    readonly sentence: string | undefined,
  ) {
    super(codeForStatus(status), sentence ?? `The server answered ${status}.`);
  }
}

/** A 200 reply without a body where an event stream was expected. */
export class EmptyStreamError extends AppError {
  constructor(server: string) {
    super('BAD_GATEWAY', `The server at ${server} sent an empty event stream.`);
  }
}

/** A transport over any fetch (the browser's, Node's, a test's). */
export function fetchTransport(fetchFn: typeof fetch, options: FetchTransportOptions = {}): RunTransport {
  const base = options.baseUrl ?? '';
  const server = base || 'the server';
  const send = async (path: string, init: RequestInit): Promise<Response> => {
    let res: Response;
    try {
      res = await fetchFn(`${base}${path}`, { ...options.init, ...init });
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new AppError('SERVICE_UNAVAILABLE', `Could not reach ${server}. Check your connection and try again.`, undefined, { cause: error });
    }
    if (res.ok) return res;
    throw new ServerRefusal(res.status, await errorSentence(res));
  };
  return {
    server,
    async stream({ method, path, body, lastEventId, signal }) {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (lastEventId !== undefined && lastEventId > 0) headers['Last-Event-ID'] = String(lastEventId);
      const res = await send(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(signal ? { signal } : {}) });
      if (!res.body) throw new EmptyStreamError(server);
      return res.body;
    },
    async getJson(path, reply, signal) {
      const res = await send(path, { method: 'GET', ...(signal ? { signal } : {}) });
      return reply.parse(await res.json());
    },
  };
}
