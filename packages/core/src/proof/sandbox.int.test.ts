// The sandbox against generated projects that misbehave, with real processes: each is stopped or
// contained, the host stays as it was, and the result names what happened.
import { createServer, type Server } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { findSandbox, type Sandbox } from './sandbox.js';
import { PYTHON_RUNTIME_RESERVE_BYTES } from './sandbox-limits.js';
import { withProjectCopy } from './project-copy.js';
import * as hostile from './fixtures/hostile.js';
import { onBusyMachine } from './testing/busy-machine.js';

const bwrapInstalled = needTool({ tool: 'bubblewrap', available: existsSync('/usr/bin/bwrap') }, 'the sandbox tests');

let sandbox: Sandbox;
let outside: string;

beforeAll(async () => {
  if (!bwrapInstalled) return;
  const found = await findSandbox();
  if (!('sandbox' in found)) throw new Error(`bwrap is installed but unusable: ${found.unavailable}`);
  sandbox = found.sandbox;
  outside = mkdtempSync(join(tmpdir(), 'wolfpack-outside-'));
});
afterAll(() => {
  if (outside) rmSync(outside, { recursive: true, force: true });
});

const run = (files: Record<string, string>, argv: string[], limits = {}) =>
  withProjectCopy(files, (dir) => sandbox.run(dir, { argv, limits }));

/** The host's processes whose command line (arguments split) matches. */
function processes(matches: (argv: string[]) => boolean): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return matches(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      } catch {
        return false;
      }
    });
}

/**
 * Polls until `done` holds, on a clock of Node's own (node:timers/promises) that fake timers leave
 * alone; a condition that never holds ends in the test's timeout.
 */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(50);
}

describe.skipIf(!bwrapInstalled)('sandbox', () => {
  it('keeps the runtime and the project readable and the rest of the host hidden', async () => {
    const secret = join(outside, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENT');
    const result = await run(hostile.readsOutside(secret, process.cwd()), ['node', 'main.js']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('TOP-SECRET-CONTENT');
    expect(result.stdout).toContain(`DENIED ${secret} ENOENT`);
    expect(result.stdout).toContain('DENIED /etc/shadow ENOENT');
    expect(result.stdout).toContain('DENIED /root/.ssh/id_rsa ENOENT');
    expect(result.stdout).toContain(`DENIED ${process.cwd()} ENOENT`);
    expect(result.stdout).not.toContain('LISTED');
  });

  it('gives the program none of the server environment', async () => {
    process.env.WOLFPACK_FAKE_SECRET = 'sk_live_fake_should_never_leak';
    try {
      const result = await run(hostile.readsEnvironment, ['node', 'main.js']);
      const env = JSON.parse(result.stdout) as Record<string, string>;
      expect(result.stdout).not.toContain('sk_live_fake_should_never_leak');
      expect(Object.keys(env).sort()).toEqual(
        ['HOME', 'LANG', 'LOGNAME', 'NODE_OPTIONS', 'NO_COLOR', 'OLDPWD', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'SHLVL', 'TMPDIR', 'USER'].sort(),
      );
      expect(env.HOME).toBe('/tmp/home');
    } finally {
      delete process.env.WOLFPACK_FAKE_SECRET;
    }
  });

  it('has no network: not the host loopback, not the internet', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const result = await run(hostile.opensNetwork(port), ['node', 'main.js']);
      expect(result.stdout).toContain(`FAILED 127.0.0.1 ${port} ECONNREFUSED`);
      expect(result.stdout).toMatch(/FAILED 1\.1\.1\.1 80 (ENETUNREACH|EHOSTUNREACH)/);
      expect(result.stdout).toMatch(/FAILED registry\.npmjs\.org 443 (EAI_AGAIN|ENOTFOUND)/);
      expect(result.stdout).not.toContain('CONNECTED');
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('contains a fork bomb, leaves no process behind, and the host still spawns', { timeout: 20_000 }, async () => {
    const marker = `m${Date.now()}`;
    const result = await run(hostile.forkBomb(marker), ['sh', `bomb-${marker}.sh`], { wallMs: 3000, processes: 64, sandboxProcesses: 48 });
    // Named from what the sandbox counted: its group's refused forks (or, without control groups,
    // the watchdog's sample past the limit, with RLIMIT_NPROC bounding each program meanwhile).
    expect(result.stopped).toBe('processes');
    const peak = result.usage?.processesPeak ?? Infinity;
    if (sandbox.limitMode === 'watchdog') expect(peak).toBeLessThanOrEqual(64 + 4);
    else expect(peak).toBeLessThanOrEqual(48);
    // Stopped at the limit, well before its deadline, and gone as the run returns: no process of it is left to reap.
    expect(result.durationMs).toBeLessThan(3000);
    // Killed within a second of the sample that saw it; a bomb whose every fork was refused may
    // collapse by itself before a sample comes (dash gives up at once), and the counters name it.
    if (result.stopMs !== undefined) expect(result.stopMs).toBeLessThan(1000);
    expect(processes((argv) => argv.join(' ').includes(marker))).toEqual([]);
    const after = await run({ 'ok.js': 'console.log("alive")' }, ['node', 'ok.js']);
    expect(after.stdout.trim()).toBe('alive');
  });

  it('stops an endless loop at the wall-time limit, and by CPU time', { timeout: 20_000 }, async () => {
    // The deadline runs on a fake clock, so "at the limit" is exact whatever the machine's load:
    // no kill 1 ms before it, the kill of the whole sandbox at it.
    const marker = `loop-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const isLoop = (argv: string[]) => argv[0]?.split('/').at(-1) === 'node' && argv.includes('main.js') && argv.includes(marker);
    const kills = vi.spyOn(process, 'kill');
    const sigkills = () => kills.mock.calls.filter(([, signal]) => signal === 'SIGKILL');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const running = run(hostile.loopsForever, ['node', 'main.js', marker], { wallMs: 1500, cpuSeconds: 30 });
      await until(() => processes(isLoop).length > 0);
      vi.advanceTimersByTime(1499);
      expect(sigkills()).toEqual([]);
      expect(processes(isLoop)).not.toEqual([]);
      vi.advanceTimersByTime(1);
      // At the deadline: the sandbox's process group, and (frozen first, on cgroup v1) each process its control group holds.
      expect(sigkills().some(([pid]) => (pid as number) < 0)).toBe(true);
      const byTime = await running;
      expect(byTime.stopped).toBe('time');
      expect(byTime.signal).toBe('SIGKILL');
      await until(() => processes(isLoop).length === 0);
    } finally {
      vi.useRealTimers();
      kills.mockRestore();
    }
    const byCpu = await run(hostile.loopsForever, ['node', 'main.js'], { wallMs: 10_000, cpuSeconds: 1 });
    expect(byCpu.stopped).toBe('cpu');
    expect(byCpu.signal).toBe('SIGXCPU');
  });

  const windowMs = 2000;
  /** `node main.js` of `files` with a 2 s window, run plain and then with its wait given back, both on a machine kept busy. */
  const starved = (files: Record<string, string>) =>
    onBusyMachine(async () => {
      const plain = await withProjectCopy(files, (dir) => sandbox.run(dir, { argv: ['node', 'main.js'], limits: { wallMs: windowMs } }));
      const extended = await withProjectCopy(files, (dir) => sandbox.run(dir, { argv: ['node', 'main.js'], limits: { wallMs: windowMs }, extendWhenStarved: true }));
      return { plain, extended };
    });

  it("gives a program starved of CPU its run-queue wait back, up to twice its window more, when asked", { timeout: 60_000 }, async () => {
    // More CPU than its window has wall time: it never finishes within the window itself.
    const { plain, extended } = await starved({ 'main.js': 'const end = process.cpuUsage().user + 2_200_000;\nwhile (process.cpuUsage().user < end);\nconsole.log("done");\n' });
    expect(plain.stopped).toBe('time');
    // Given its wait back: it ran well past the plain run (the sandbox's own start and stop, slow on
    // a loaded machine, are in both), and finished or was stopped at three windows.
    expect(extended.durationMs).toBeGreaterThan(plain.durationMs + windowMs / 2);
    expect(extended.durationMs).toBeLessThan(3 * windowMs + 3000);
    if (extended.stopped === undefined) expect(extended.stdout).toBe('done\n');
    else expect(extended.stopped).toBe('time');
  });

  it("counts the wait of a program's worker threads and of a child that ended before its deadline", { timeout: 60_000 }, async () => {
    // A build script's shape: a child process (tsc) that runs and exits, then work on worker threads
    // (a bundler) while the main thread only waits on them. Neither shows in the main thread's figures.
    const { plain, extended } = await starved({
      'burn.js': "const ms = require('node:worker_threads').workerData ?? Number(process.argv[2]);\nconst end = process.cpuUsage().user + ms * 1000;\nwhile (process.cpuUsage().user < end);\n",
      'main.js': [
        "const { execFileSync } = require('node:child_process');",
        "const { Worker } = require('node:worker_threads');",
        "execFileSync(process.execPath, ['burn.js', '500']);",
        "console.log('child done');",
        "new Worker('./burn.js', { workerData: 1000 }).on('exit', () => console.log('worker done'));",
      ].join('\n'),
    });
    expect(plain.stopped).toBe('time');
    expect(plain.givenBackMs).toBeUndefined();
    // It finished, or its wait kept moving the deadline to the cap of three windows: with only the
    // live processes' main threads counted, the deadline stopped moving once the child had exited.
    if (extended.stopped === undefined) {
      expect(extended.stdout).toBe('child done\nworker done\n');
    } else {
      expect(extended.stopped).toBe('time');
      expect(extended.durationMs).toBeGreaterThanOrEqual(3 * windowMs);
      // Less than the two windows the cap allows by as much as its timers fired late on the busy machine.
      expect(extended.givenBackMs).toBeGreaterThan(0);
    }
  });

  it('stops a program printing gigabytes at the output cap, with little memory on the host', { timeout: 20_000 }, async () => {
    const before = process.memoryUsage().rss;
    const result = await run(hostile.printsGigabytes, ['node', 'main.js'], { outputBytes: 4 << 20 });
    expect(result.stopped).toBe('output');
    expect(result.outputTruncated).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(4 << 20);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
  });

  it('cannot write outside its copy, and its writes never reach the host copy', async () => {
    const hostFile = join(outside, 'host.txt');
    writeFileSync(hostFile, 'original');
    let copyAfter = '';
    const result = await withProjectCopy(hostile.writesOutside(hostFile), async (dir) => {
      const r = await sandbox.run(dir, { argv: ['node', 'main.js'] });
      copyAfter = readFileSync(join(dir, 'main.js'), 'utf8');
      return r;
    });
    expect(result.stdout).toContain('WROTE own copy');
    expect(result.stdout).toContain(`DENIED ${hostFile} ENOENT`);
    for (const path of ['/etc/passwd', '/usr/bin/node', '/opt/node/bin/node', '/run/project-seed/main.js', '/evil']) {
      expect(result.stdout).toMatch(new RegExp(`DENIED ${path} (EROFS|EACCES|ENOENT)`));
    }
    expect(readFileSync(hostFile, 'utf8')).toBe('original');
    expect(copyAfter).not.toBe('owned');
    expect(existsSync('/evil')).toBe(false);
  });

  it.each([
    ['node', 'main.js', {}],
    ['node', 'heap.js', {}],
    ['python3', 'main.py', { runtimeReserveBytes: PYTHON_RUNTIME_RESERVE_BYTES }],
  ])('stops unbounded memory: %s %s', { timeout: 15_000 }, async (runtime, file, reserve) => {
    const result = await run(hostile.allocatesMemory, [runtime, file], { memoryBytes: 256 << 20, ...reserve });
    // 'memory' is named only for a program that ended by itself, never for one killed at the
    // deadline ('time'): the limit stopped it, not the wall clock. Our kill would show as SIGKILL.
    expect(result.stopped).toBe('memory');
    expect(result.exitCode).not.toBe(0);
    expect(result.signal).not.toBe('SIGKILL');
  });

  it('stops a program that fills its disk or writes one huge file', { timeout: 20_000 }, async () => {
    const disk = await run(hostile.fillsDisk, ['node', 'main.js'], { diskBytes: 32 << 20 });
    expect(disk.stopped).toBe('disk');
    const file = await run(hostile.writesHugeFile, ['python3', 'main.py'], { fileBytes: 8 << 20 });
    expect(file.stopped).toBe('file-size');
  });

  it('is unavailable, with the reason, when turned off', async () => {
    const found = await findSandbox({ env: { WOLFPACK_SANDBOX: 'off' } });
    expect(found).toEqual({ unavailable: expect.stringContaining('WOLFPACK_SANDBOX=off') });
  });
});
