/**
 * With several server processes on one port (WOLFPACK_WORKERS), connections go to the processes in
 * turn, but a preview's server runs in one process: a server project that keeps data in memory
 * must see every request of its preview, or each process would start a copy of it that knows only
 * its share. So each preview belongs to one worker (by its project id), and a worker that gets a
 * request of another's preview passes it on, as it came, to that worker's private Unix socket.
 *
 * The sockets live in a folder of the primary's (mode 0700), named by the worker's index, which a
 * replacement worker keeps: a preview stays with its worker's index when the process behind it is
 * replaced.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { previewProjectOf } from '@wolfpack/core/proof';

export interface PreviewHandoffOptions {
  /** This worker's index, 1 to `count` (WOLFPACK_WORKER_INDEX). */
  index: number;
  /** How many workers share the port (WOLFPACK_WORKER_COUNT). */
  count: number;
  /** The folder of the workers' sockets, one per cluster. @default <tmp>/wolfpack-workers-<primary's pid> */
  dir?: string;
  /** The configured preview domain. */
  previewHost: string | undefined;
}

/** Which worker (1 to `count`) a preview's requests go to. */
export function previewOwner(projectId: string, count: number): number {
  return (createHash('sha256').update(projectId).digest().readUInt32BE(0) % count) + 1;
}

export interface PreviewHandoff {
  /** The worker's request listener: its own previews and everything else as `handler` answers them, others' previews passed on. */
  handler: RequestListener;
  close(): Promise<void>;
}

/** Listens on this worker's socket (for the previews others pass on) and routes the port's requests. */
export async function startPreviewHandoff(handler: RequestListener, options: PreviewHandoffOptions): Promise<PreviewHandoff> {
  const dir = options.dir ?? join(tmpdir(), `wolfpack-workers-${process.ppid}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const socketOf = (index: number) => join(dir, `${index}.sock`);
  const own = socketOf(options.index);
  // What a worker with this index left behind when it died.
  await rm(own, { force: true });
  const server: Server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Exclusive: this worker's own socket, not one the cluster's primary holds and hands out.
    server.listen({ path: own, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    handler: (req, res) => {
      const projectId = previewProjectOf(req.headers.host, options.previewHost);
      const owner = projectId === undefined ? options.index : previewOwner(projectId, options.count);
      if (owner === options.index) return handler(req, res);
      passOn(req, res, socketOf(owner));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The request as it came, to the worker at `socketPath`; its answer back as it comes. */
function passOn(req: IncomingMessage, res: ServerResponse, socketPath: string): void {
  const headers = { ...req.headers };
  delete headers['connection'];
  delete headers['keep-alive'];
  const outgoing = request({ socketPath, method: req.method, path: req.url, headers }, (incoming) => {
    const answer = { ...incoming.headers };
    delete answer['connection'];
    delete answer['keep-alive'];
    res.writeHead(incoming.statusCode ?? 502, answer);
    pipeline(incoming, res, () => undefined);
  });
  outgoing.on('error', () => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' });
    res.end('The server process that runs this preview is restarting. Reload the page in a moment.');
  });
  pipeline(req, outgoing, () => undefined);
}
