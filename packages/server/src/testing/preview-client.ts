import { request, type IncomingHttpHeaders } from 'node:http';

export interface PreviewReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A browser's view of preview origins (`http://p-<id>.localhost:PORT`) for tests: Node's resolver
 * does not know `*.localhost` names (browsers do), so every request goes to 127.0.0.1, whatever
 * the URL's host, which is sent as its Host. Cookies are kept per host, as a browser keeps host-only cookies.
 */
export class PreviewClient {
  private readonly jar = new Map<string, Map<string, string>>();

  /** One request, no redirect followed; the answer's cookies are kept for its host. */
  async request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<PreviewReply> {
    const target = new URL(url);
    const cookie = this.cookieHeader(target.host);
    const reply = await new Promise<PreviewReply>((resolve, reject) => {
      // Always this machine: the URL's host is only what the Host header says.
      const req = request(
        {
          host: '127.0.0.1',
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: init.method ?? 'GET',
          headers: { host: target.host, ...(cookie ? { cookie } : {}), ...init.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
    this.keep(target.host, reply.headers['set-cookie'] ?? []);
    return reply;
  }

  /** Opens a signed link: the preview's cookie is set and the link's redirect followed once. */
  async open(link: string): Promise<PreviewReply> {
    const entered = await this.request(link);
    if (entered.status !== 302 || !entered.headers.location) return entered;
    return this.request(new URL(entered.headers.location, link).toString());
  }

  /** The cookies kept for a host, `name=value; …`. */
  cookieHeader(host: string): string {
    return [...(this.jar.get(host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(host: string, setCookies: string[]): void {
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(host, cookies);
  }
}
