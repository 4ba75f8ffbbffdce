// A child process for sse-writer.test.ts: serves one event stream (openSse) that sends the
// `retry:` hint and EVENTS events in one tick, as a replay does, and prints how many write system
// calls the process made for it (from /proc/self/io: nothing else in this process writes then).
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { openSse } from '../sse/sse-writer.js';

const EVENTS = Number(process.argv[2] ?? 50);
const writes = () => Number(/syscw:\s+(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

const app = new Koa();
app.use(async (ctx) => {
  const before = writes();
  const sse = await openSse(ctx);
  for (let i = 1; i <= EVENTS; i++) sse.send(i, { type: 'stage', role: 'Planning', step: i });
  // After the tick's flush (and whatever else the socket was given), before anything is printed.
  await new Promise((resolve) => setImmediate(resolve));
  const made = writes() - before;
  sse.end();
  process.stdout.write(`${JSON.stringify({ writes: made })}\n`);
});
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.stdin.on('end', () => server.close());
process.stdin.resume();
