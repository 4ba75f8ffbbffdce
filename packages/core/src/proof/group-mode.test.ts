// Which mode a machine offers, and a group's counters read as the kernel writes them, on folders
// shaped like /sys/fs/cgroup (the real hierarchies are exercised in sandbox-group.int.test.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findGroupMode, groupModeLine } from './group-mode.js';
import { createGroup, keyedCounters } from './sandbox-group.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fake hierarchy root: `files` relative to it. */
function hierarchy(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wolfpack-cgroup-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const limits = { memoryBytes: 256 << 20, processes: 32, cpuPercent: 50 };

describe('findGroupMode', () => {
  it('takes cgroup v2 when it offers memory and pids, handing them down to the groups', () => {
    const root = hierarchy({ 'cgroup.controllers': 'cpuset cpu io memory pids', 'cgroup.procs': '1\n', 'cgroup.subtree_control': '' });
    const mode = findGroupMode({}, root);
    expect(mode).toEqual({ kind: 'cgroup2', dir: join(root, 'wolfpack-sandbox') });
    expect(readFileSync(join(root, 'wolfpack-sandbox', 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids +cpu');
  });

  it('takes v1 when the unified hierarchy has no memory controller (this machine kind), one folder for co-mounted controllers', () => {
    const root = hierarchy({
      'unified/cgroup.controllers': 'hugetlb',
      'memory/cgroup.procs': '',
      'pids/cgroup.procs': '',
      'cpu,cpuacct/cgroup.procs': '',
      'freezer/cgroup.procs': '',
    });
    symlinkSync('cpu,cpuacct', join(root, 'cpu'));
    symlinkSync('cpu,cpuacct', join(root, 'cpuacct'));
    const mode = findGroupMode({ WOLFPACK_PROOF_CGROUP_PARENT: 'ours/sandboxes' }, root);
    expect(mode).toEqual({
      kind: 'cgroup1',
      dirs: {
        memory: join(root, 'memory/ours/sandboxes'),
        pids: join(root, 'pids/ours/sandboxes'),
        cpu: join(root, 'cpu,cpuacct/ours/sandboxes'),
        cpuacct: join(root, 'cpu,cpuacct/ours/sandboxes'),
        freezer: join(root, 'freezer/ours/sandboxes'),
      },
    });
  });

  it('falls back to the watchdog without memory and pids, or when turned off', () => {
    const root = hierarchy({ 'memory/cgroup.procs': '' });
    expect(findGroupMode({}, root)).toMatchObject({ kind: 'watchdog' });
    expect(findGroupMode({ WOLFPACK_PROOF_CGROUP: 'off' }, root)).toEqual({ kind: 'watchdog', why: 'turned off with WOLFPACK_PROOF_CGROUP=off' });
  });
});

describe('a v2 group', () => {
  it('is made with its limits, and names the limit its counters say was hit', async () => {
    const root = hierarchy({ 'cgroup.controllers': 'cpu memory pids', 'cgroup.subtree_control': '' });
    const mode = findGroupMode({}, root);
    const group = createGroup(mode, limits);
    const dir = group.procsFiles[0]!.replace(/\/cgroup\.procs$/, '');
    expect(readFileSync(join(dir, 'memory.max'), 'utf8')).toBe(String(256 << 20));
    expect(readFileSync(join(dir, 'pids.max'), 'utf8')).toBe('32');
    expect(readFileSync(join(dir, 'cpu.max'), 'utf8')).toBe('50000 100000');
    expect(readFileSync(join(dir, 'memory.oom.group'), 'utf8')).toBe('1');
    writeFileSync(join(dir, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 0\noom_kill 0\n');
    writeFileSync(join(dir, 'pids.events'), 'max 0\n');
    // Reclaim at the limit (max 12) is not a hit; a refused fork is.
    expect(group.check()).toBeUndefined();
    writeFileSync(join(dir, 'pids.events'), 'max 3\n');
    expect(group.check()).toBe('processes');
    writeFileSync(join(dir, 'memory.events'), 'max 40\noom 1\noom_kill 1\n');
    expect(group.check()).toBe('memory');
    writeFileSync(join(dir, 'memory.peak'), '268435456\n');
    writeFileSync(join(dir, 'pids.peak'), '31\n');
    writeFileSync(join(dir, 'cpu.stat'), 'usage_usec 1500\nuser_usec 1000\n');
    expect(group.usage()).toEqual({ memoryPeakBytes: 268435456, processesPeak: 31, cpuNs: 1_500_000 });
  });
});

describe('the start-up line', () => {
  it('says the mode and the limits in one line', () => {
    expect(groupModeLine({ kind: 'cgroup2', dir: '/x' }, limits, { memoryBytes: 512 << 20, addressSpaceBytes: 2048 << 20, processes: 256 })).toBe(
      'Sandbox limits: each sandbox runs in a control group of its own (cgroup v2) with 256 MiB of memory (tmpfs included), 32 processes, 0.5 CPU cores, killed whole at its time limit or any of these.',
    );
    expect(keyedCounters('oom_kill 2\nbad line\n')).toEqual({ oom_kill: 2 });
  });
});
