/**
 * scripts/system-packages.sh, which `npm start` and `npm test` source: what each
 * installs with apt-get and when it does not, on a PATH of its own where `id` and `apt-get` are
 * fakes that record what they were asked. Run under `set -euo pipefail`, as the scripts run it.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/system-packages.sh', import.meta.url));

let dir: string;
let chromium: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wolfpack-system-packages-'));
  chromium = join(dir, 'chromium');
  await writeFile(chromium, '#!/bin/sh\n');
  await chmod(chromium, 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Machine {
  /** What `id -u` answers. @default 0 */
  uid?: number;
  /** Whether apt-get exists, and how it ends. @default 'works' */
  apt?: 'works' | 'fails' | 'absent';
  /** Programs already installed. @default none */
  installed?: Array<'bwrap' | 'chromium' | 'chromium-headless-shell' | 'tmux' | 'unzip'>;
  env?: Record<string, string>;
}

let machines = 0;

/** Runs `fn` of the script on a made-up machine: its exit code, stderr, and every apt-get call. */
async function run(fn: 'wolfpack_start_packages' | 'wolfpack_test_packages', machine: Machine = {}) {
  const bin = join(dir, `bin-${++machines}`);
  const aptLog = join(dir, `apt-${machines}.log`);
  await writeFile(aptLog, '');
  await mkdir(bin);
  // Only what the script uses from the system, so nothing else of this machine shows.
  for (const tool of ['mktemp', 'grep', 'tail', 'rm']) await symlink(`/usr/bin/${tool}`, join(bin, tool));
  const fake = async (name: string, body: string) => {
    await writeFile(join(bin, name), `#!/bin/sh\n${body}\n`);
    await chmod(join(bin, name), 0o755);
  };
  await fake('id', `echo ${machine.uid ?? 0}`);
  const apt = machine.apt ?? 'works';
  if (apt !== 'absent') {
    await fake('apt-get', `echo "$*" >> '${aptLog}'\n${apt === 'fails' ? 'case "$*" in *install*) echo "E: Unable to locate package chromium" >&2; exit 100;; esac\n' : ''}exit 0`);
  }
  for (const tool of machine.installed ?? []) if (tool !== 'chromium') await fake(tool, 'exit 0');
  // --norc: bash reads ~/.bashrc when its stdin looks like a remote shell's (a socket, as Node's pipes are).
  const result = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', `set -euo pipefail; source "$1"; ${fn}; echo "after: $?"`, 'bash', SCRIPT], {
    env: { PATH: bin, wolfpack_chromium: machine.installed?.includes('chromium') ? chromium : join(dir, 'no-chromium'), ...machine.env },
    encoding: 'utf8',
  });
  const calls = (await readFile(aptLog, 'utf8')).split('\n').filter(Boolean);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, calls };
}

describe('npm start (wolfpack_start_packages)', () => {
  it('as root with apt-get: installs bubblewrap and Chromium, saying so in one line', async () => {
    const result = await run('wolfpack_start_packages');
    expect(result).toEqual({
      code: 0,
      stdout: 'after: 0\n',
      stderr: 'wolfpack: installing bubblewrap chromium with apt-get (for Proven Code)\n',
      calls: ['update -qq', 'install -y -qq bubblewrap chromium'],
    });
  });

  it('installs only what is missing, and nothing when both are there', async () => {
    expect((await run('wolfpack_start_packages', { installed: ['bwrap'] })).calls).toEqual(['update -qq', 'install -y -qq chromium']);
    expect(await run('wolfpack_start_packages', { installed: ['bwrap', 'chromium'] })).toEqual({ code: 0, stdout: 'after: 0\n', stderr: '', calls: [] });
  });

  it('WOLFPACK_SANDBOX=off or WOLFPACK_INSTALL_SYSTEM_PACKAGES=0: installs nothing', async () => {
    for (const env of [{ WOLFPACK_SANDBOX: 'off' }, { WOLFPACK_INSTALL_SYSTEM_PACKAGES: '0' }] as Array<Record<string, string>>) {
      expect(await run('wolfpack_start_packages', { env })).toEqual({ code: 0, stdout: 'after: 0\n', stderr: '', calls: [] });
    }
  });

  it('not root, or no apt-get: installs nothing, says nothing (the server says it, with the fix), and the start goes on', async () => {
    expect(await run('wolfpack_start_packages', { uid: 1000 })).toEqual({ code: 0, stdout: 'after: 0\n', stderr: '', calls: [] });
    expect(await run('wolfpack_start_packages', { apt: 'absent' })).toEqual({ code: 0, stdout: 'after: 0\n', stderr: '', calls: [] });
  });

  it('apt-get fails: says so with its error, and the start goes on without them', async () => {
    const result = await run('wolfpack_start_packages', { apt: 'fails' });
    expect(result).toEqual({
      code: 0,
      stdout: 'after: 0\n',
      stderr:
        'wolfpack: installing bubblewrap chromium with apt-get (for Proven Code)\n' +
        'wolfpack: could not install bubblewrap chromium (E: Unable to locate package chromium); starting without them, so Proven Code\'s verdicts will be "not proven"\n',
      calls: ['update -qq', 'install -y -qq bubblewrap chromium'],
    });
  });
});

describe('npm test (wolfpack_test_packages)', () => {
  it('as root with apt-get: installs Chromium, its headless shell, tmux, bubblewrap and unzip when missing', async () => {
    const result = await run('wolfpack_test_packages', { installed: ['unzip'] });
    expect(result).toEqual({
      code: 0,
      stdout: 'after: 0\n',
      stderr: 'wolfpack: installing chromium chromium-headless-shell tmux bubblewrap with apt-get (for the tests)\n',
      calls: ['update -qq', 'install -y -qq chromium chromium-headless-shell tmux bubblewrap'],
    });
    // Only the shell missing: only it.
    const shell = await run('wolfpack_test_packages', { installed: ['bwrap', 'chromium', 'tmux', 'unzip'] });
    expect(shell.calls).toEqual(['update -qq', 'install -y -qq chromium-headless-shell']);
  });

  it('cannot install (not root) or the install fails: says what to install and fails', async () => {
    const notRoot = await run('wolfpack_test_packages', { uid: 1000, installed: ['bwrap', 'chromium', 'chromium-headless-shell', 'unzip'] });
    expect(notRoot.code).toBe(1);
    expect(notRoot.stderr).toBe('wolfpack: the tests need tmux (not root); install them (Debian: sudo apt-get install tmux)\n');
    expect(notRoot.calls).toEqual([]);
    const failed = await run('wolfpack_test_packages', { apt: 'fails', installed: ['bwrap', 'chromium-headless-shell', 'tmux', 'unzip'] });
    expect(failed.code).toBe(1);
    expect(failed.stderr.split('\n').at(-2)).toBe('wolfpack: the tests need chromium (E: Unable to locate package chromium); install them (Debian: sudo apt-get install chromium)');
  });

  it('WOLFPACK_SANDBOX=off does not spare the tests their sandbox', async () => {
    expect((await run('wolfpack_test_packages', { installed: ['chromium', 'chromium-headless-shell', 'tmux', 'unzip'], env: { WOLFPACK_SANDBOX: 'off' } })).calls).toEqual(['update -qq', 'install -y -qq bubblewrap']);
  });
});
