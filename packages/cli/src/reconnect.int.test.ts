/**
 * A server that dies mid-run (SIGKILL, as in a crash) and comes back on the same port and data
 * dir: the server continues the run by itself, `wolfpack build` reconnects on its own (nobody
 * resumes anything), and the run completes: with `--json`, event numbers that continue without
 * gaps or repeats; in a terminal (tmux), the live view says it is reconnecting, then follows the
 * run to its end.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, hasTmux, loginCli, startServeChild, tmuxServer, type ServeChild } from './testing/cli-harness.js';

let dataDir: string;
let home: string;
let server: ServeChild | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-reconnect-'));
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-reconnect-home-'));
});

afterAll(async () => {
  // Even when a test timed out, no server may outlive the run.
  await server?.kill();
  await rm(dataDir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

it('reconnects after the server is killed mid-run and follows the run the restarted server continues', async () => {
  // Every engine call takes a second, so the run is still going when the server dies.
  const slow = { WOLFPACK_DEMO_DELAY_MS: '1000' };
  server = await startServeChild({ dataDir, env: slow });
  const { url, port } = server;
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, WOLFPACK_CONFIG: join(home, 'config.json'), WOLFPACK_URL: url };
  await loginCli(url, 'survivor', 'correct-horse-battery', env);

  const cli = spawn(process.execPath, [BIN, 'build', 'a chess clock', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
  let stdout = '';
  let stderr = '';
  cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = once(cli, 'close') as Promise<[number | null]>;
  await new Promise<void>((resolve, reject) => {
    cli.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"role":"Building"')) resolve();
    });
    void closed.then(() => reject(new Error(`build ended before Building started:\n${stdout}${stderr}`)));
  });

  await server.kill();
  // Back on the same port and data dir: the embedded database's runs are its own, so it takes them over at start.
  server = await startServeChild({ dataDir, port, env: slow });

  const [code] = await closed;
  expect(code, stderr).toBe(0);
  const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { eventId: number; type: string; message?: string });
  expect(lines.map((line) => line.eventId)).toEqual(lines.map((_, i) => i + 1));
  expect(lines[0]?.type).toBe('run');
  expect(lines.at(-1)?.type).toBe('complete');
  expect(lines.some((line) => line.type === 'log' && line.message?.startsWith('The server restarted; continuing'))).toBe(true);
  expect(stderr).toMatch(/Reconnecting… \(attempt 1 of \d+\)/);
  // The server continued the run by itself: the CLI did not have to resume it.
  expect(stderr).not.toContain('resuming it from its last finished stage');
});

it.skipIf(!hasTmux())('in a terminal (tmux): the live view says it is reconnecting while the server is down, then follows the continued run to its end', async () => {
  const term = tmuxServer('wolfpack-cli-reconnect');
  try {
    const slow = { WOLFPACK_DEMO_DELAY_MS: '1000' };
    await server?.kill();
    server = await startServeChild({ dataDir, env: slow });
    const { url, port } = server;
    const config = join(home, 'terminal.json');
    await loginCli(url, 'watcher', 'correct-horse-battery', { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, WOLFPACK_CONFIG: config, WOLFPACK_URL: url });
    // CI unset: under CI=true Ink draws only the final frame, and a person at a terminal sees frames.
    const command = `env -u CI WOLFPACK_CONFIG='${config}' WOLFPACK_URL='${url}' HOME='${home}' '${process.execPath}' '${BIN}' build 'a metronome'; echo "EXIT=$?"; sleep 600`;
    term.start('build', command);
    await term.waitFor('build', /Building with engine/, 60_000);

    await server.kill();
    const down = await term.waitFor('build', /Reconnecting… \(attempt \d+ of \d+\)/, 30_000);
    expect(down).not.toContain('EXIT=');
    server = await startServeChild({ dataDir, port, env: slow });
    // The activity feed shows its latest lines: the restarted server's word is there while the run goes on.
    const continued = await term.waitFor('build', /The server restarted; continuing/, 60_000);
    expect(continued).not.toContain('Reconnecting…');

    const after = await term.waitFor('build', /EXIT=\d+/, 90_000);
    expect(after, after).toContain('EXIT=0');
    expect(after).toMatch(/Proven Code verdict: \w+/);
    for (const stage of ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']) expect(after).toContain(stage);
    // The server continued the run by itself: the CLI did not have to resume it.
    expect(after).not.toContain('resuming it from its last finished stage');
  } finally {
    term.close();
  }
}, 180_000);
