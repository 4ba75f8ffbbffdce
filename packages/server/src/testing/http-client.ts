/**
 * A tiny HTTP client for integration tests that keeps cookies like a browser would (one jar per
 * client), so session behaviour is tested through real Set-Cookie / Cookie headers.
 */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    const h: Record<string, string> = { ...this.defaultHeaders, ...headers };
    if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
    const cookie = this.cookieHeader();
    if (cookie) h.cookie = cookie;
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookieHeader(header: string): void {
    this.cookies.clear();
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0) this.cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
  }
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}
