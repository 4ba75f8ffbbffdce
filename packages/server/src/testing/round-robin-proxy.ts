import { createServer, request, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** The servers behind it; change them at any time (a server restarting on another port). */
  targets: string[];
  /** How many requests each target answered. */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A small load balancer for tests: each request goes to the next target in turn; a target that
 * refuses the connection is skipped, and while none answers the request waits (up to `waitMs`)
 * as a balancer with retries would, instead of failing at once. Responses stream through
 * unbuffered, so Server-Sent Events flow as they are written. Loopback only.
 */
export async function startRoundRobinProxy(targets: string[], waitMs = 20_000): Promise<RoundRobinProxy> {
  let next = 0;
  const served = new Map<string, number>();
  const proxy: RoundRobinProxy = { url: '', targets, served, close: async () => {} };
  const open = new Set<ServerResponse>();
  // The request currently forwarded for each client response: the client leaving ends it.
  const upstreams = new Map<ServerResponse, ClientRequest>();

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, deadline: number): void => {
    const list = proxy.targets;
    if (list.length === 0) return retryLater();
    const target = new URL(list[next++ % list.length]!);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (reply) => {
        served.set(target.origin, (served.get(target.origin) ?? 0) + 1);
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        res.flushHeaders();
        reply.pipe(res);
        // The server died mid-response: the client sees its connection break, as behind a real balancer.
        reply.once('error', () => res.destroy());
        reply.once('aborted', () => res.destroy());
      },
    );
    upstream.once('error', () => {
      if (res.headersSent) res.destroy();
      else retryLater();
    });
    upstreams.set(res, upstream);
    upstream.end(body);

    function retryLater() {
      if (Date.now() > deadline) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'No server behind the test proxy answered.' }));
        return;
      }
      setTimeout(() => forward(req, body, res, deadline), 100);
    }
  };

  const server: Server = createServer((req, res) => {
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      upstreams.get(res)?.destroy();
      upstreams.delete(res);
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, Date.now() + waitMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const res of open) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
