import { AppError, codeForStatus, errorReply } from '@wolfpack/core';
import type { z } from 'zod';

/** How long one request may take before the CLI gives up on the server. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ApiClientOptions {
  /** Normalised server URL, as from {@link normalizeServerUrl}. */
  server: string;
  /** API token sent as `Authorization: Bearer`. */
  token?: string | undefined;
  /** Where the token came from, named in the sentence when the server refuses it (`WOLFPACK_TOKEN`). */
  tokenSource?: string | undefined;
  /** @default DEFAULT_TIMEOUT_MS */
  timeoutMs?: number | undefined;
}

export interface StreamOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** More request headers, such as `X-GitHub-Token`. */
  headers?: Record<string, string> | undefined;
  /** Sent as the `Last-Event-ID` header: the server replays the events after this one. */
  lastEventId?: number | undefined;
  /** Ends the request and the stream. */
  signal?: AbortSignal | undefined;
}

export interface RequestOptions<T> {
  /** Sent as JSON; bytes (a Uint8Array) are sent as they are, with `contentType`. */
  body?: unknown;
  /** The Content-Type of a body of bytes. @default 'application/octet-stream' */
  contentType?: string | undefined;
  /** Schema of the success reply; without one the body is not read. */
  reply?: z.ZodType<T> | undefined;
  /** Gives up early (Ctrl+C); the request then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** More request headers, such as `X-GitHub-Token`. */
  headers?: Record<string, string> | undefined;
  /** This request's time limit, for calls the server needs long for (publishing). @default the client's */
  timeoutMs?: number | undefined;
}

export interface DownloadOptions {
  /** Ends the request and the body. */
  signal?: AbortSignal | undefined;
}

/**
 * The server refused a token the person gave us directly (WOLFPACK_TOKEN): its sentence says
 * whether the token is unknown, revoked or expired, and no "log in again" rewording replaces it.
 */
export class TokenRefused extends AppError {
  constructor(message: string) {
    super('UNAUTHORIZED', message);
  }
}

/** The sentence every command shows when nothing answers at the server URL. */
export function unreachableMessage(server: string): string {
  return `Cannot reach the Wolfpack server at ${server}. Is it running? Start one with \`wolfpack serve\`.`;
}

/**
 * The CLI's one way to call the Wolfpack HTTP API. Every failure comes out as an AppError whose
 * message is a sentence for a person: the server's own `{ error }` for API errors, and ours for a
 * server that is down, slow, or not a Wolfpack server.
 */
export class ApiClient {
  readonly server: string;
  readonly #token: string | undefined;
  readonly #tokenSource: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: ApiClientOptions) {
    this.server = options.server;
    this.#token = options.token;
    this.#tokenSource = options.tokenSource;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('GET', path, options);
  }

  post<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('POST', path, options);
  }

  put<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('PUT', path, options);
  }

  delete<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers = options.contentType === undefined ? (options.headers ?? {}) : { ...options.headers, 'content-type': options.contentType };
    const response = await this.#send(method, path, options.body, headers, signal, timeoutMs);
    if (options.reply === undefined) {
      await response.body?.cancel();
      return undefined as T;
    }
    const data = await this.#readJson(response);
    const parsed = options.reply.safeParse(data);
    if (!parsed.success) throw this.#notWolfpack(response);
    return parsed.data;
  }

  /**
   * Opens a server-sent event stream and returns the response once its headers are in. The
   * timeout covers only the wait for the headers: a stream that is open may be quiet for long, and
   * spotting a stalled one is the reader's job. `signal` ends the stream at any time.
   */
  async stream(method: string, path: string, options: StreamOptions = {}): Promise<Response & { body: ReadableStream<Uint8Array> }> {
    const headers: Record<string, string> = { ...options.headers, accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
    const response = await this.#open(method, path, options.body, headers, options.signal);
    if (response.body === null) throw new AppError('BAD_GATEWAY', `The server at ${this.server} sent an empty event stream. Is it a Wolfpack server?`);
    return response as Response & { body: ReadableStream<Uint8Array> };
  }

  /**
   * GETs a file (a zip export) and returns the response once its headers are in, with the body
   * unread, so the caller can stream it to disk. As with {@link stream}, the timeout covers the
   * headers only.
   */
  async download(path: string, options: DownloadOptions = {}): Promise<Response & { body: ReadableStream<Uint8Array> }> {
    const response = await this.#open('GET', path, undefined, { accept: '*/*' }, options.signal);
    if (response.body === null) throw new AppError('BAD_GATEWAY', `The server at ${this.server} sent an empty reply for ${path}. Try again.`);
    return response as Response & { body: ReadableStream<Uint8Array> };
  }

  /** Sends a request whose body is read later: only the wait for the headers is timed. */
  async #open(method: string, path: string, body: unknown, headers: Record<string, string>, callerSignal: AbortSignal | undefined): Promise<Response> {
    const headersTimeout = new AbortController();
    const timer = setTimeout(() => headersTimeout.abort(new DOMException('The server did not answer in time.', 'TimeoutError')), this.#timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, headersTimeout.signal]) : headersTimeout.signal;
    try {
      return await this.#send(method, path, body, headers, signal, this.#timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends one request; every failure (no answer, redirect, error reply) comes out as an AppError. */
  async #send(method: string, path: string, body: unknown, extraHeaders: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.#token !== undefined) headers['authorization'] = `Bearer ${this.#token}`;
    const bytes = body instanceof Uint8Array;
    if (body !== undefined) headers['content-type'] = bytes ? (extraHeaders['content-type'] ?? 'application/octet-stream') : 'application/json';

    let response: Response;
    try {
      response = await fetch(`${this.server}${path}`, {
        method,
        headers,
        body: body === undefined ? null : bytes ? body : JSON.stringify(body),
        signal,
        // Never follow: a 307 would carry the password to wherever the redirect points.
        redirect: 'manual',
      });
    } catch (error) {
      // The caller's own abort (Ctrl+C) is not the server's fault: pass it on as it is.
      if (signal.aborted && !isTimeout(signal.reason)) throw signal.reason;
      throw this.#networkError(error, timeoutMs);
    }

    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      throw new AppError(
        'BAD_REQUEST',
        location
          ? `The server at ${this.server} redirects to ${originOf(location, this.server)}. Use that address with --server.`
          : `The server at ${this.server} answered ${response.status} without saying where to go. Is it a Wolfpack server?`,
      );
    }

    if (!response.ok) throw await this.#replyError(response);
    return response;
  }

  #networkError(error: unknown, timeoutMs: number): AppError {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      const seconds = Math.max(1, Math.round(timeoutMs / 1000));
      return new AppError(
        'SERVICE_UNAVAILABLE',
        `The Wolfpack server at ${this.server} did not answer within ${seconds} second${seconds === 1 ? '' : 's'}. Try again later.`,
        undefined,
        { cause: error },
      );
    }
    // undici reports refused connections, unknown hosts and resets all as "fetch failed".
    return new AppError('SERVICE_UNAVAILABLE', unreachableMessage(this.server), undefined, { cause: error });
  }

  async #replyError(response: Response): Promise<AppError> {
    const data = await this.#readJson(response).catch(() => undefined);
    const parsed = errorReply.safeParse(data);
    const code = codeForStatus(response.status);
    if (!parsed.success) {
      const status = [response.status, response.statusText].filter(Boolean).join(' ');
      return new AppError(code, `The server at ${this.server} answered ${status}. Is it a Wolfpack server?`);
    }
    const { error, issues, retryAfterSeconds } = parsed.data;
    const details = {
      ...(issues === undefined ? {} : { issues }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
    if (code === 'UNAUTHORIZED' && this.#token !== undefined && this.#tokenSource !== undefined) {
      return new TokenRefused(`${this.#tokenSource} was refused by ${this.server}: ${error}`);
    }
    return new AppError(code, error, details);
  }

  async #readJson(response: Response): Promise<unknown> {
    const text = await response.text().catch((error: unknown) => {
      throw new AppError('BAD_GATEWAY', `The connection to ${this.server} broke while reading the reply. Try again.`, undefined, { cause: error });
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.#notWolfpack(response);
    }
  }

  #notWolfpack(response: Response): AppError {
    return new AppError(
      'BAD_GATEWAY',
      `The server at ${this.server} sent a reply this CLI does not understand (${response.status} on ${new URL(response.url || this.server).pathname}). Is it a Wolfpack server of the same version?`,
    );
  }
}

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

function originOf(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return location;
  }
}
