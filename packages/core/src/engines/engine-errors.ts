import { hostOf } from './message-parts.js';
/**
 * Turns whatever an SDK threw into an EngineError whose message says which engine failed, why,
 * and what to do. Both adapters reduce their SDK's error to a ProviderFailure first, so the rules
 * (what counts as quota, what is retried) live in one place.
 */
import { EngineError, type EngineErrorKind } from './engine.js';

/** A provider's error reduced to what both SDKs tell us. */
export interface ProviderFailure {
  /** HTTP status; undefined when the error arrived inside a stream that had started with 200. */
  status?: number | undefined;
  /** OpenAI's `code`, Anthropic's `details.error_code`. */
  code?: string | number | null | undefined;
  /** OpenAI's `type`, Anthropic's `error.type`. */
  type?: string | null | undefined;
  /** The provider's own words; only shown redacted and shortened. */
  detail?: string | null | undefined;
  headers?: { get(name: string): string | null } | undefined;
}

export interface ErrorContext {
  engineKey: string;
  /** host[:port] of the endpoint, named in connection errors (never the path or query). */
  host: string;
  /** Strings that must never appear in a message (the API key). */
  secrets: readonly string[];
  now: () => number;
}

/** "60 s", "1.5 s", "200 ms": the units a person reads in an error. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))} s`;
}

/**
 * Milliseconds a provider asked us to wait: `retry-after-ms` (OpenAI), else `retry-after` as
 * seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMsFromHeaders(
  headers: { get(name: string): string | null } | undefined,
  now: () => number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

const SECRET_PATTERNS = [/\bsk-[A-Za-z0-9_*.-]{6,}/g, /\bBearer\s+\S+/gi, /\b(?:api[_-]?key|x-api-key)\s*[=:]\s*\S+/gi];

/** Removes keys (configured and key-shaped) from provider text and keeps it short. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, '[redacted]');
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > 240 ? `${out.slice(0, 239)}…` : out;
}

// Narrow on purpose: free-tier rate-limit texts mention billing pages and "quota exceeded per
// minute", and those must stay retryable rate limits.
const QUOTA = /insufficient[_ ]quota|credit balance|exceeded your current quota|out of credits?/i;
const CONTEXT = /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|reduce the (input|length)|context_length_exceeded/i;
const OVERLOADED = /overloaded/i;

/** Classifies an HTTP or in-stream error answer from a provider. */
export function classifyFailure(ctx: ErrorContext, failure: ProviderFailure, cause: unknown): EngineError {
  const k = ctx.engineKey;
  // Some OpenAI-compatible servers put an HTTP status into `code` of an in-stream error.
  const numericCode = typeof failure.code === 'number' ? failure.code : undefined;
  const status = failure.status ?? numericCode;
  const code = typeof failure.code === 'string' ? failure.code : '';
  const type = failure.type ?? '';
  const detail = failure.detail ? redact(failure.detail, ctx.secrets) : '';
  const signature = `${code} ${type} ${detail}`;
  const label = status !== undefined ? String(status) : type || code || 'error in stream';
  const retryAfterMs = retryAfterMsFromHeaders(failure.headers, ctx.now);
  const make = (kind: EngineErrorKind, message: string) =>
    new EngineError(k, kind, message, { cause, status: failure.status, retryAfterMs });

  // Quota first: OpenAI sends it as 429 and Anthropic as 400/402, and retrying cannot help.
  if (status === 402 || type === 'billing_error' || type === 'insufficient_quota' || QUOTA.test(signature)) {
    return make(
      'quota',
      `Engine ${k} is out of credit or quota (${label}). Add credit to the account behind its API key, or use another engine.`,
    );
  }
  if (status === 401 || type === 'authentication_error' || code === 'invalid_api_key') {
    return make('auth', `Engine ${k} rejected its API key (${status ?? 401}). Check the key configured for it.`);
  }
  if (status === 403 || type === 'permission_error') {
    return make(
      'auth',
      `Engine ${k} refused access with its API key (${status ?? 403}). Check that the key configured for it may use its model.`,
    );
  }
  if (status === 404 || code === 'model_not_found' || type === 'not_found_error') {
    return make(
      'model_not_found',
      `Engine ${k} does not know the model configured for it (${status ?? 404}${code ? ` ${code}` : ''}). Check its model name and base URL.`,
    );
  }
  if (status === 429 || type === 'rate_limit_error' || code === 'rate_limit_exceeded') {
    const wait = retryAfterMs !== undefined ? `; it asked to wait ${formatDuration(retryAfterMs)}` : '';
    return make('rate_limit', `Engine ${k} is rate-limited (429)${wait}. Wait a little, or spread the work over other engines.`);
  }
  // Before the 5xx rule: local servers report a full context window as a 500 or in-stream error.
  if (status === 413 || CONTEXT.test(signature)) {
    return make(
      'bad_request',
      `Engine ${k} could not take the input: it is longer than the engine's context window (${label}). Shorten the input or use an engine with a larger context.`,
    );
  }
  if (status === 408 || type === 'timeout_error') {
    return make('timeout', `Engine ${k} timed out while answering (${label}). Try again, or use another engine.`);
  }
  if (status === 529 || type === 'overloaded_error' || OVERLOADED.test(signature)) {
    return make('server', `Engine ${k} is overloaded (${label}). Try again shortly, or use another engine.`);
  }
  if ((status !== undefined && status >= 500) || type === 'api_error' || type === 'server_error') {
    return make(
      'server',
      `Engine ${k} had a server error (${label}${detail ? `: ${detail}` : ''}). This is usually temporary; try again shortly, or use another engine.`,
    );
  }
  if (status !== undefined && status >= 400) {
    return make(
      'bad_request',
      `Engine ${k} refused the request as invalid (${status}${detail ? `: ${detail}` : ''}). Check its model and settings.`,
    );
  }
  // An unknown error inside a stream that had started fine: the provider broke, not our request.
  return make(
    'server',
    `Engine ${k} reported an error while answering (${label}${detail ? `: ${detail}` : ''}). Try again, or use another engine.`,
  );
}

function causeChain(err: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  while (current !== null && typeof current === 'object' && chain.length < 8) {
    const record = current as Record<string, unknown>;
    chain.push(record);
    current = record['cause'];
  }
  return chain;
}

const CONNECTION_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection broken',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'response body stalled',
};

/** Classifies errors that carry no provider answer: sockets, DNS, timeouts, broken streams. */
export function classifyTransportError(ctx: ErrorContext, err: unknown, options: { timedOut?: boolean } = {}): EngineError {
  const k = ctx.engineKey;
  const chain = causeChain(err);
  const codes = chain.map((e) => (typeof e['code'] === 'string' ? e['code'] : undefined)).filter((c) => c !== undefined);
  const names = chain.map((e) => e['name']);
  const code = codes.find((c) => c in CONNECTION_TEXT);

  if (options.timedOut || names.includes('TimeoutError') || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new EngineError(
      k,
      'timeout',
      `Engine ${k} did not answer in time (${ctx.host}). Check that it is running and not overloaded, or raise its timeout.`,
      { cause: err },
    );
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new EngineError(
      k,
      'connection',
      `Engine ${k} could not connect to ${ctx.host} (${CONNECTION_TEXT[code]}). Check that the server is running and that the base URL configured for the engine is right.`,
      { cause: err },
    );
  }
  const messages = chain.map((e) => (typeof e['message'] === 'string' ? e['message'] : '')).join(' ');
  if (code !== undefined || /terminated|other side closed|socket hang up|fetch failed|network/i.test(messages)) {
    const why = code !== undefined ? CONNECTION_TEXT[code] : 'connection closed';
    return new EngineError(
      k,
      'connection',
      `Engine ${k} lost its connection to ${ctx.host} (${why}). This is usually temporary; try again shortly.`,
      { cause: err },
    );
  }
  if (names.includes('SyntaxError')) {
    return new EngineError(k, 'server', `Engine ${k} sent a malformed stream that could not be read. Try again, or use another engine.`, {
      cause: err,
    });
  }
  const text = redact(err instanceof Error ? err.message : String(err), ctx.secrets);
  return new EngineError(k, 'server', `Engine ${k} failed unexpectedly (${text || 'no details'}). Try again, or use another engine.`, {
    cause: err,
  });
}

/** The stream ended cleanly but without the provider's end marker: the answer is incomplete. */
export function incompleteStreamError(engineKey: string, host: string): EngineError {
  return new EngineError(
    engineKey,
    'connection',
    `Engine ${engineKey} closed its stream (${host}) before finishing the answer. This is usually temporary; try again shortly.`,
  );
}

export function abortedError(engineKey: string, cause?: unknown): EngineError {
  return new EngineError(engineKey, 'aborted', `Engine ${engineKey} call was cancelled.`, { cause });
}

export function emptyAnswerError(engineKey: string, truncated: boolean): EngineError {
  return new EngineError(
    engineKey,
    'empty',
    truncated
      ? `Engine ${engineKey} used up its output tokens without writing any answer. Allow it more output tokens, or use another engine.`
      : `Engine ${engineKey} answered with nothing. Try again, or use another engine.`,
  );
}

/** The error context of an adapter's engine: its key, the host it calls, and the key to redact. */
export function errorContextFor(config: { key: string; apiKey?: string | undefined }, baseURL: string, now: () => number): ErrorContext {
  return { engineKey: config.key, host: hostOf(baseURL), secrets: config.apiKey ? [config.apiKey] : [], now };
}
