/**
 * The relay that runs beside a previewed HTTP server in its sandbox (see preview-server.ts). The
 * sandbox has no network, so the host cannot reach the app's port; instead the host makes a
 * listening Unix socket, hands it to the sandbox as descriptor 4, and this relay accepts on it and
 * forwards each connection to the port the app listens on, over the sandbox's own loopback.
 *
 * It is also the app's supervisor: it starts the app (a shell command), finds the port it really
 * listens on in /proc/self/net/tcp* (PORT first, then any), says so with a marker line on stderr,
 * and passes the app's output on, up to a bound (a chatty server would otherwise meet the
 * sandbox's output limit and be stopped), keeping the tail for when it ends. Nothing here is
 * trusted by the host beyond "the app listens": the app could forge a marker, and gain nothing.
 */
import type { ReadOnlyBind } from './bwrap-args.js';
import { contentDir } from './content-dir.js';

/** Where the relay is inside the sandbox (read-only). */
export const RELAY_DIR = '/opt/wolfpack-relay';
/** Starts the relay's lines on stderr: `<mark> ready <port>`, `<mark> exit <status>`. */
export const RELAY_MARK = '@@wolfpack-relay@@';

// Plain JavaScript run by the sandbox's Node: argv is [wanted port, shell command].
const RELAY = String.raw`import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { constants } from 'node:os';

const MARK = ${JSON.stringify(RELAY_MARK)};
const SHOWN_BYTES = 256 * 1024;
const TAIL_BYTES = 16 * 1024;
const [wanted, command] = process.argv.slice(2);
const wantedPort = Number(wanted);

let lastErrByte = 10;
const say = (line) => process.stderr.write((lastErrByte === 10 ? '' : '\n') + MARK + ' ' + line + '\n', () => {});

// The app: its output passed on until SHOWN_BYTES, then only its tail kept, printed when it ends.
// Descriptor 4 (the host's socket) is closed for it: only the relay accepts on it.
const app = spawn('/bin/sh', ['-c', 'exec 4<&-\n' + command], { stdio: ['pipe', 'pipe', 'pipe'] });
let shown = 0;
let hidden = 0;
let tail = Buffer.alloc(0);
const pass = (to) => (chunk) => {
  if (shown < SHOWN_BYTES) {
    const part = chunk.subarray(0, SHOWN_BYTES - shown);
    shown += part.length;
    if (to === process.stderr && part.length) lastErrByte = part[part.length - 1];
    to.write(part);
    chunk = chunk.subarray(part.length);
  }
  if (chunk.length) {
    hidden += chunk.length;
    tail = Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
  }
};
app.stdout.on('data', pass(process.stdout));
app.stderr.on('data', pass(process.stderr));
app.stdin.on('error', () => {});
app.on('error', (error) => {
  process.stderr.write(String(error.message) + '\n');
});
app.on('close', (code, signal) => {
  if (hidden > 0) {
    const cut = hidden - Math.min(hidden, tail.length);
    process.stderr.write('\n[' + (cut > 0 ? cut + ' bytes of output not shown; ' : '') + 'the last output:]\n');
    process.stderr.write(tail);
    lastErrByte = tail.length ? tail[tail.length - 1] : 10;
  }
  say('exit ' + (signal ?? code));
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 1);
  // Whatever still runs in here goes with the sandbox once the relay is gone.
  setImmediate(() => process.exit());
});

function hostOf(hex) {
  if (hex.length === 8) {
    const ip = hex.match(/../g).map((b) => parseInt(b, 16)).reverse().join('.');
    return ip === '0.0.0.0' ? '127.0.0.1' : ip;
  }
  // Four little-endian 32-bit words.
  const words = hex.match(/.{8}/g).map((w) => w.match(/../g).reverse().join(''));
  const groups = words.join('').match(/.{4}/g).map((g) => parseInt(g, 16).toString(16));
  const ip = groups.join(':');
  if (/^0:0:0:0:0:ffff:/.test(ip)) return '127.0.0.1';
  return /^(0:){7}0$/.test(ip) ? '::1' : ip;
}

function listeners() {
  const found = [];
  for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let rows = [];
    try {
      rows = readFileSync(file, 'utf8').split('\n').slice(1);
    } catch {}
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      if (cols[3] !== '0A') continue;
      const [addr, port] = cols[1].split(':');
      found.push({ host: hostOf(addr), port: parseInt(port, 16) });
    }
  }
  return found;
}

let target;
const waiting = [];
const poll = setInterval(() => {
  const all = listeners();
  const pick = all.find((l) => l.port === wantedPort) ?? all[0];
  if (!pick) return;
  clearInterval(poll);
  target = pick;
  say('ready ' + pick.port);
  for (const client of waiting.splice(0)) forward(client);
}, 100);

function forward(client) {
  const upstream = net.connect(target.port, target.host);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
  client.pipe(upstream);
  upstream.pipe(client);
  client.resume();
}

net
  .createServer({ pauseOnConnect: true }, (client) => {
    if (target) forward(client);
    else waiting.push(client);
  })
  .on('error', (error) => {
    process.stderr.write('the preview relay failed: ' + error.message + '\n');
    process.exit(70);
  })
  .listen({ fd: 4 });
`;

let bind: ReadOnlyBind | null = null;

/** The relay's folder, written on first use, as a read-only bind. */
export function relayBind(): ReadOnlyBind {
  bind ??= { source: contentDir('wolfpack-preview-relay', { 'relay.mjs': RELAY }), target: RELAY_DIR };
  return bind;
}
