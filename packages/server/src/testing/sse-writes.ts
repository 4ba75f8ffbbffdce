// A child process for sse-writer.test.ts: serves one event stream (openSse) that sends the
// `retry:` hint and EVENTS events in one tick, as a replay does, and prints how many write system
// calls were made on its socket (each call into the socket's handle is one: other threads of the
// process, libuv's wake-ups and a loaded machine's noise are not counted, as /proc/self/io would).
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { openSse } from '../sse/sse-writer.js';

const EVENTS = Number(process.argv[2] ?? 50);
const WRITES = ['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String'];

/** Counts the calls into the socket's handle that write to it, from now on. */
function countWrites(socket: object): () => number {
  const handle = (socket as { _handle: Record<string, (...args: unknown[]) => unknown> })._handle;
  let count = 0;
  for (const name of WRITES) {
    const write = handle[name];
    if (typeof write !== 'function') continue;
    handle[name] = function (this: unknown, ...args: unknown[]) {
      count += 1;
      return write.apply(this, args);
    };
  }
  return () => count;
}

const app = new Koa();
app.use(async (ctx) => {
  const writes = countWrites(ctx.req.socket);
  const sse = await openSse(ctx);
  for (let i = 1; i <= EVENTS; i++) sse.send(i, { type: 'stage', role: 'Planning', step: i });
  // After the tick's flush (and whatever else the socket was given), before anything is printed.
  await new Promise((resolve) => setImmediate(resolve));
  const made = writes();
  sse.end();
  process.stdout.write(`${JSON.stringify({ writes: made })}\n`);
});
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.stdin.on('end', () => server.close());
process.stdin.resume();
