import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  apiRequest,
  createQueryClient,
  describeRequestFailure,
  getQueryFn,
  serverErrorText,
  throwIfResNotOk,
} from './client';

const wording = { failed: 'Login failed', exception: 'An error occurred during login' };

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('throwIfResNotOk', () => {
  it('passes an ok response', async () => {
    await expect(throwIfResNotOk(new Response('{}', { status: 200 }))).resolves.toBeUndefined();
  });

  it('reports status, colon and body text', async () => {
    const res = new Response('{"error":"Invalid username or password.","code":"UNAUTHORIZED"}', { status: 401 });
    await expect(throwIfResNotOk(res)).rejects.toThrow(
      '401: {"error":"Invalid username or password.","code":"UNAUTHORIZED"}',
    );
  });

  it('falls back to the status text when the body is empty', async () => {
    const res = new Response(null, { status: 503, statusText: 'Service Unavailable' });
    await expect(throwIfResNotOk(res)).rejects.toThrow(/^503: Service Unavailable$/);
  });
});

describe('apiRequest', () => {
  it('sends credentials and a JSON body with a JSON content type', async () => {
    const fetchMock = stubFetch(new Response('{"success":true,"error":""}'));
    await apiRequest('POST', '/api/auth/login', { username: 'wolf', password: 'secret123' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":"wolf","password":"secret123"}',
    });
  });

  it('sends no body and no content type without data', async () => {
    const fetchMock = stubFetch(new Response('{}'));
    await apiRequest('POST', '/api/auth/logout');
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).toBeUndefined();
    expect(init.credentials).toBe('include');
  });

  it('throws on a non-ok answer', async () => {
    stubFetch(new Response('{"error":"Username is taken.","code":"CONFLICT"}', { status: 409 }));
    await expect(apiRequest('POST', '/api/auth/register', {})).rejects.toThrow(/^409: \{"error"/);
  });
});

describe('getQueryFn', () => {
  const context = (queryKey: readonly unknown[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined }) as never;

  it('joins the key parts with a slash and parses JSON', async () => {
    const fetchMock = stubFetch(new Response('{"project":{"id":"p1"}}'));
    const data = await getQueryFn()(context(['/api/projects', 'p1']));
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/projects/p1');
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ credentials: 'include' });
    expect(data).toEqual({ project: { id: 'p1' } });
  });

  it('yields null for a 401 with on401 returnNull', async () => {
    stubFetch(new Response('{"error":"Sign in first.","code":"UNAUTHORIZED"}', { status: 401 }));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/me']))).resolves.toBeNull();
  });

  it('throws for a 401 with on401 throw', async () => {
    stubFetch(new Response('Unauthorized', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/me']))).rejects.toThrow('401: Unauthorized');
  });
});

describe('serverErrorText and describeRequestFailure', () => {
  it("takes the JSON body's error sentence", () => {
    const error = new Error('401: {"error":"Invalid username or password.","code":"UNAUTHORIZED"}');
    expect(serverErrorText(error)).toBe('Invalid username or password.');
    expect(describeRequestFailure(error, wording)).toBe('Invalid username or password.');
  });

  it('uses a plain-text body as it is', () => {
    expect(describeRequestFailure(new Error('502: Bad Gateway'), wording)).toBe('Bad Gateway');
  });

  it('falls back to the failure wording for unreadable bodies', () => {
    expect(describeRequestFailure(new Error('500: <html><body>oops</body></html>'), wording)).toBe('Login failed');
    expect(describeRequestFailure(new Error('400: {"code":"BAD_REQUEST"}'), wording)).toBe('Login failed');
    expect(describeRequestFailure(new Error('400: {not json'), wording)).toBe('Login failed');
  });

  it("uses an exception's own message, else the exception wording", () => {
    expect(describeRequestFailure(new TypeError('Failed to fetch'), wording)).toBe('Failed to fetch');
    expect(describeRequestFailure(new Error(''), wording)).toBe('An error occurred during login');
    expect(describeRequestFailure('boom', wording)).toBe('An error occurred during login');
  });
});

describe('createQueryClient', () => {
  it('never refetches or retries on its own', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      staleTime: Infinity,
      refetchInterval: false,
      refetchOnWindowFocus: false,
      retry: false,
    });
    expect(mutations).toMatchObject({ retry: false });
  });
});
