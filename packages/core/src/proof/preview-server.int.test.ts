// Previewed HTTP servers in the real sandbox: reached through the host's socket only, with no
// network, no host path they could write and nothing of the server's environment; an app that
// ignores PORT is found on its real port; a crash and a server that never listens say so.
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { startPreviewServer, type PreviewServer } from './preview-server.js';
import { planServer } from './server-plan.js';

const sandboxed = needTool(await sandboxCheck(), 'the preview servers (run in the sandbox)');

function get(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ socketPath, path, headers: { host: 'wolfpack.test' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

// What the app finds when it looks for a way out: every write and connection it tries, and what came of it.
const PROBE = `
const fs = require('node:fs');
const net = require('node:net');
const http = require('node:http');
const tryWrite = (dir) => { try { fs.writeFileSync(dir + '/escape.txt', 'x'); return 'written'; } catch (e) { return e.code; } };
const tryConnect = (port, host) => new Promise((done) => {
  const socket = net.connect(port, host, () => { socket.destroy(); done('connected'); });
  socket.on('error', (e) => done(e.code));
});
http.createServer(async (req, res) => {
  const found = {
    env: process.env,
    writes: Object.fromEntries(['/', '/run', '/opt/wolfpack-relay', '/opt/node/bin', '/usr', '/etc'].map((d) => [d, tryWrite(d)])),
    run: fs.readdirSync('/run').sort(),
    sockets: fs.readdirSync('/proc/self/fd').map((fd) => { try { return fs.readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } }).filter((l) => l.startsWith('socket:')).length,
    network: await tryConnect(80, '1.1.1.1'),
    dns: await tryConnect(443, 'registry.npmjs.org'),
  };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(found));
}).listen(process.env.PORT, '127.0.0.1');
`;

describe.skipIf(!sandboxed)('a previewed HTTP server', () => {
  const running: PreviewServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });
  const start = async (files: Record<string, string>, options: { startMs?: number } = {}) => {
    const plan = planServer(files);
    if (!plan) throw new Error('not a server');
    return startPreviewServer(files, plan, { env: {}, ...options });
  };

  it('answers through the socket, and has no way out: no network, no writable host path, an environment of its own', { timeout: 30_000 }, async () => {
    const started = await start({ 'server.js': PROBE });
    if (!started.ok) throw new Error(JSON.stringify(started));
    running.push(started.server);
    expect(started.server.port).toBe(3000);
    const answer = await get(started.server.socketPath, '/');
    expect(answer.status).toBe(200);
    const found = JSON.parse(answer.body) as { env: Record<string, string>; writes: Record<string, string>; run: string[]; network: string; dns: string };
    expect(Object.keys(found.env).sort()).toEqual(['HOME', 'HOST', 'LANG', 'LOGNAME', 'NODE_ENV', 'NODE_OPTIONS', 'NO_COLOR', 'OLDPWD', 'PATH', 'PORT', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'SHLVL', 'TMPDIR', 'USER']);
    expect(found.env['PORT']).toBe('3000');
    for (const [dir, outcome] of Object.entries(found.writes)) expect(outcome, dir).toMatch(/^(EROFS|EACCES|EPERM)$/);
    // No host folder is bound for the socket: the sandbox holds it as a descriptor of the relay's only.
    expect(found.run).not.toContain('sock');
    expect(found.network).toBe('ENETUNREACH');
    expect(found.dns).toBe('ENOTFOUND');
    // The socket's folder is the host's own and private.
    expect(existsSync(started.server.socketPath)).toBe(true);
  });

  it('finds the port an app listens on when it ignores PORT, and is gone once stopped', { timeout: 30_000 }, async () => {
    const started = await start({ 'server.js': "require('node:http').createServer((q, s) => s.end('on 4321 ' + q.url)).listen(4321);" });
    if (!started.ok) throw new Error(JSON.stringify(started));
    expect(started.server.port).toBe(4321);
    expect(await get(started.server.socketPath, '/a?b=1')).toEqual({ status: 200, body: 'on 4321 /a?b=1' });
    expect(await started.server.stop()).toEqual({ reason: 'stopped' });
    expect(existsSync(started.server.socketPath)).toBe(false);
  });

  it('says where a server crashed before it listened, with its output', { timeout: 30_000 }, async () => {
    const started = await start({
      'server.js': "const http = require('node:http');\nconsole.log('starting');\nconst config = undefined;\nhttp.createServer(() => {}).listen(config.port);\n",
    });
    expect(started).toMatchObject({ ok: false, command: 'node server.js', problem: { path: 'server.js', line: 4 } });
    if (started.ok || !('problem' in started)) throw new Error('expected a problem');
    expect(started.problem.message).toMatch(/^the server stopped before it listened on a port: TypeError: Cannot read properties of undefined/);
    expect(started.problem.output).toContain('starting');
    expect(started.problem.output).not.toContain('@@wolfpack-relay@@');
  });

  it('says so when a server never listens within its start window', { timeout: 30_000 }, async () => {
    const started = await start({ 'server.js': "const http = require('node:http');\nhttp.createServer(() => {});\nconsole.log('forgot to listen');\nsetInterval(() => {}, 1000);\n" }, { startMs: 1500 });
    expect(started).toMatchObject({ ok: false, problem: { message: 'the server did not listen on a port within 1.5 s of starting', output: 'forgot to listen' } });
  });

  it('reports a crash after it listened, with its output', { timeout: 30_000 }, async () => {
    const started = await start({ 'server.js': "require('node:http').createServer((q, s) => { if (q.url === '/boom') throw new Error('boom at ' + q.url); s.end('ok'); }).listen(process.env.PORT);" });
    if (!started.ok) throw new Error(JSON.stringify(started));
    await expect(get(started.server.socketPath, '/boom')).rejects.toThrow();
    const exit = await started.server.exited;
    expect(exit).toMatchObject({ reason: 'crashed', problem: { path: 'server.js', line: 1, message: expect.stringMatching(/^the server stopped while the preview was open: Error: boom at \/boom/) } });
  });
});
