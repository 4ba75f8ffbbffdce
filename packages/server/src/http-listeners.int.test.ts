import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config/env.js';
import { DEFAULT_LISTENERS, listenHttp, type HttpListeners } from './http-listeners.js';

const open: HttpListeners[] = [];
afterEach(async () => {
  for (const one of open.splice(0)) {
    one.closeAllConnections();
    await one.close();
  }
});

const hello: RequestListener = (_req, res) => res.end('hello');
const listen = async (count: number, port = 0) => {
  const listeners = await listenHttp(hello, { port, host: '127.0.0.1', count, configure: () => {} });
  open.push(listeners);
  return listeners;
};
const get = (port: number) =>
  new Promise<string>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject).end();
  });

/**
 * Connections made by another process while this one's loop is blocked, so they all wait in the
 * kernel's accept queues at once (the client's `connect` completes without the server's accept),
 * then the turn of this process's loop in which each one was accepted.
 */
async function acceptTurns(count: number, connections: number): Promise<number[]> {
  const turns: number[] = [];
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  const listeners = await listenHttp(hello, {
    port: 0,
    host: '127.0.0.1',
    count,
    configure: (server: Server) => server.on('connection', () => turns.push(turn)),
  });
  open.push(listeners);
  const dir = mkdtempSync(join(tmpdir(), 'wolfpack-listeners-'));
  const ready = join(dir, 'connected');
  const client = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net'); let n = 0; const all = [];
       for (let i = 0; i < ${connections}; i++) all.push(net.connect(${listeners.port}, '127.0.0.1', () => { if (++n === ${connections}) require('node:fs').writeFileSync(${JSON.stringify(ready)}, ''); }));
       process.stdin.on('end', () => all.forEach((s) => s.destroy())).resume();`,
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  try {
    // Blocked: nothing is accepted until every connection is in a queue.
    const deadline = Date.now() + 30_000;
    while (!existsSync(ready)) {
      if (Date.now() > deadline) throw new Error('the client did not connect');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
    setImmediate(tick);
    while (turns.length < connections) await new Promise((resolve) => setTimeout(resolve, 10));
    return turns.map((at) => at - turns[0]!);
  } finally {
    counting = false;
    client.stdin!.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('listenHttp', () => {
  it('serves the same handler on every socket of one port, each server set up alike', async () => {
    const servers: Server[] = [];
    const listeners = await listenHttp(hello, { port: 0, host: '127.0.0.1', count: 16, configure: (server) => servers.push(server) });
    open.push(listeners);
    expect(servers).toHaveLength(16);
    expect(new Set(servers.map((server) => (server.address() as { port: number }).port))).toEqual(new Set([listeners.port]));
    const answers = await Promise.all(Array.from({ length: 40 }, () => get(listeners.port)));
    expect(answers).toEqual(Array(40).fill('hello'));
  });

  it('accepts a waiting crowd in fewer turns of the loop with several sockets than with one', async () => {
    // One socket: one connection a turn (libuv accepts one each time the socket is ready).
    const one = await acceptTurns(1, 48);
    expect(one.at(-1)).toBeGreaterThanOrEqual(40);
    // Sixteen: each turn takes one from every socket with one waiting.
    const sixteen = await acceptTurns(16, 48);
    expect(sixteen.filter((turn) => turn === 0).length).toBeGreaterThan(4);
    expect(sixteen.at(-1)).toBeLessThan(one.at(-1)! / 2);
  });

  it('says the port is in use when another server holds it, plain or shared', async () => {
    const plain = createServer();
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as { port: number };
    try {
      await expect(listen(16, port)).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use. Stop the other process or pass --port with a free port.`);
      await expect(listen(1, port)).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
    // Another Wolfpack server's shared sockets would let a second group join the port: the plain
    // socket taken first refuses it.
    const first = await listen(16, port);
    await expect(listen(16, port)).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
    expect(await get(port)).toBe('hello');
    // Closed, the port is free again for anyone.
    await first.close();
    open.splice(open.indexOf(first), 1);
    const again = createServer();
    await new Promise<void>((resolve) => again.listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => again.close(resolve));
  });

  it('closes once every connection has ended; closeAllConnections ends the ones held open', async () => {
    let held!: () => void;
    const heldOpen = new Promise<void>((resolve) => (held = resolve));
    const listeners = await listenHttp(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
        held();
      },
      { port: 0, host: '127.0.0.1', count: 4, configure: () => {} },
    );
    const ended = new Promise<void>((resolve) => request({ port: listeners.port, host: '127.0.0.1', agent: false }, (res) => res.on('close', resolve).resume()).end());
    await heldOpen;
    let closed = false;
    const closing = listeners.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    listeners.closeAllConnections();
    await ended;
    await closing;
    expect(closed).toBe(true);
    await expect(get(listeners.port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('WOLFPACK_LISTENERS', () => {
  it('is 16 sockets unless set', () => {
    expect(loadConfig({}, {}).listeners).toBe(DEFAULT_LISTENERS);
    expect(DEFAULT_LISTENERS).toBe(16);
    expect(loadConfig({}, { WOLFPACK_LISTENERS: '1' }).listeners).toBe(1);
  });

  it.each(['0', '2.5', 'many', '65'])('WOLFPACK_LISTENERS=%s is a sentence with the range', (value) => {
    expect(() => loadConfig({}, { WOLFPACK_LISTENERS: value })).toThrow('WOLFPACK_LISTENERS: WOLFPACK_LISTENERS must be a whole number of listening sockets from 1 to 64');
  });
});
