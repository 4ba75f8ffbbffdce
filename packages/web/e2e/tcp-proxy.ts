/**
 * A TCP proxy between the browser and a server, for tests that need the network to fail: it can
 * cut every open connection (a dropped stream, as a flaky network or a proxy timeout would) and
 * forward to another server (the same app restarted on another port).
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:PORT of the proxy. */
  readonly url: string;
  /** Closes every open connection in both directions; new connections work as before. */
  dropAll(): void;
  /** Refuses new connections (closes them at once) until {@link TcpProxy.resume}. */
  pause(): void;
  resume(): void;
  /** Forwards new connections to this server from now on. */
  retarget(targetUrl: string): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  let target = new URL(targetUrl);
  let paused = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    const cleanup = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', cleanup).on('close', cleanup);
    upstream.on('error', cleanup).on('close', cleanup);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropAll() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
    retarget(next) {
      target = new URL(next);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
