/**
 * The one way the web app talks HTTP (spec core §7): every request carries the session cookie,
 * bodies are JSON, and any non-ok answer becomes an Error reading `${status}: ${body}`.
 */
import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** What a query does with a 401 answer: treat it as "no data" or as an error. */
export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * Throws when `res` is not ok. The message is the status code, a colon and a space, then the body
 * text, or the status text when the body is empty.
 */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = await res.text();
  } catch {
    // A body that cannot be read is reported like an empty one.
  }
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/**
 * Sends one request. `data`, when given, is sent as JSON. Resolves with the Response when it is ok,
 * throws (see {@link throwIfResNotOk}) otherwise.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  if (data !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(data);
  }
  const res = await fetch(url, init);
  await throwIfResNotOk(res);
  return res;
}

/** Options of {@link getQueryFn}. */
export interface QueryFnOptions {
  /**
   * What a 401 answer yields.
   * @default 'throw'
   */
  on401?: UnauthorizedBehavior;
}

/**
 * The default query function: the query key's parts joined with '/' form the URL, which is read
 * with GET and parsed as JSON.
 */
export function getQueryFn<T>({ on401 = 'throw' }: QueryFnOptions = {}): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.map(String).join('/'), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The status and body carried by an Error from {@link throwIfResNotOk}, if it is one. */
export interface HttpErrorParts {
  status: number;
  body: string;
}

/** Splits a `${status}: ${body}` message back into its parts; undefined for any other error. */
export function httpErrorParts(error: unknown): HttpErrorParts | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return undefined;
  return { status: Number(match[1]), body: match[2] ?? '' };
}

/**
 * The sentence a person should read for a failed request. The server answers errors as JSON
 * `{ error, code }`, so the `error` field is taken from the body; a plain-text body is used as it
 * is. Undefined when the error is not an HTTP error or the body holds nothing readable (an HTML
 * error page, an empty JSON object), so the caller can fall back to its own wording.
 */
export function serverErrorText(error: unknown): string | undefined {
  const parts = httpErrorParts(error);
  if (!parts) return undefined;
  const body = parts.body.trim();
  if (!body) return undefined;
  if (body.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && 'error' in parsed) {
        const text = (parsed as { error: unknown }).error;
        if (typeof text === 'string' && text.trim()) return text;
      }
    } catch {
      // Not JSON after all: fall through to the plain-text rule.
    }
    return undefined;
  }
  if (body.startsWith('<')) return undefined;
  return body;
}

/** Builds the app's QueryClient: data never goes stale, nothing refetches or retries on its own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** Fallback wordings of {@link describeRequestFailure}. */
export interface FailureWording {
  /** For a non-ok answer without a readable server sentence, e.g. 'Login failed'. */
  failed: string;
  /** For an exception without a message, e.g. 'An error occurred during login'. */
  exception: string;
}

/**
 * The toast text for a failed request: the server's sentence for a non-ok answer, else the
 * exception's own message (a network failure, an unexpected reply), else the given fallbacks.
 */
export function describeRequestFailure(error: unknown, wording: FailureWording): string {
  const serverText = serverErrorText(error);
  if (serverText !== undefined) return serverText;
  if (httpErrorParts(error)) return wording.failed;
  return (error instanceof Error && error.message) || wording.exception;
}
