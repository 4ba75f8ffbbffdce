import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * Listening sockets on the port by default (WOLFPACK_LISTENERS). Measured with a loop whose turns
 * took 10 ms, 100 connections opened at once were all answered in 1,158 ms on one socket, 441 on
 * 4, 276 on 8, 195 on 16, 179 on 32: past 16 the kernel's uneven spread over the sockets and the
 * turn that reads each request decide, not the accepts.
 */
export const DEFAULT_LISTENERS = 16;

export interface HttpListeners {
  /** The port they listen on (the one chosen, when 0 was asked for). */
  port: number;
  /** Stops accepting; resolves once every connection has ended. */
  close(): Promise<void>;
  /** Ends every connection at once, streams and idle keep-alives alike. */
  closeAllConnections(): void;
}

export interface ListenOptions {
  port: number;
  host: string;
  /** Sockets on the port: more than one shares it by SO_REUSEPORT (Linux only; elsewhere one); 1 is one plain socket. */
  count: number;
  /** Sets each HTTP server up before it listens (its timeouts). */
  configure(server: Server): void;
}

/**
 * Serves `handler` on `port`: one HTTP server per listening socket, every one with the same
 * handler, so each connection is answered the same whichever socket the kernel gave it to.
 *
 * Why several: libuv accepts one connection each time a listening socket is ready (since 1.45,
 * libuv#3696), that is one a turn of the event loop. A busy server's turns are long (runs fanning
 * their events out to their streams, database replies): at 20 ms a turn it takes 50 connections
 * a second, and a crowd of clients coming back after a restart waits in the kernel's accept queue.
 * Measured in `pnpm bench sse` (tcpdump and strace): the request acknowledged by the kernel 0.3 ms
 * after its SYN, the server's `connection` event 400 ms later, one accept4 between each two
 * epoll_pwait. With several sockets the kernel spreads new connections over them, and each turn
 * accepts one from every socket that has one waiting.
 *
 * SO_REUSEPORT lets any process of the same user join the port, another Wolfpack server too,
 * which would then silently take half its connections. So a fixed port is first taken by a plain
 * socket, which fails as before ("already in use") when anything listens there, and only then
 * handed to the shared ones; what could still slip in is a process starting on the same port in
 * the instant between the two.
 */
export async function listenHttp(handler: RequestListener, { port, host, count, configure }: ListenOptions): Promise<HttpListeners> {
  // Elsewhere than Linux a shared port is not spread over its sockets: one does as well.
  const shared = count > 1 && process.platform === 'linux';
  const servers: Server[] = [];
  try {
    if (shared && port !== 0) await closeAll([await listenOne(createServer(), port, host, false)]);
    let at = port;
    for (let i = 0; i < (shared ? count : 1); i++) {
      const one = createServer(handler);
      configure(one);
      servers.push(await listenOne(one, at, host, shared));
      at = portOf(one);
    }
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  return {
    port: portOf(servers[0]!),
    close: () => closeAll(servers),
    closeAllConnections: () => {
      for (const one of servers) one.closeAllConnections();
    },
  };
}

/** Resolves once every one of `servers` has closed, their connections ended. */
function closeAll(servers: readonly Server[]): Promise<void> {
  return Promise.all(servers.map((one) => new Promise((resolve) => one.close(resolve)))).then(() => undefined);
}

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the server is not listening');
  return address.port;
}

function listenOne(server: Server, port: number, host: string, reusePort: boolean): Promise<Server> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is already in use. Stop the other process or pass --port with a free port.`) : error);
    };
    server.once('error', onError);
    server.listen({ port, host, reusePort }, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}
