/**
 * Bounds one sandbox as a whole: every process of it, whatever it forks, in one control group of
 * its own with a memory limit (its tmpfs pages included), a process limit and a CPU share. At the
 * deadline or at the first limit it hits the whole group is killed, and the verdict is read from
 * the group's own counters (an OOM kill, a refused fork), never from what the program printed.
 *
 * cgroup v2 where the kernel offers its controllers there, else v1 (memory, pids, cpu, cpuacct,
 * freezer). Where neither can be written (not root, no delegated subtree), a watchdog samples the
 * sandbox's process tree in /proc and kills it past the same memory (RSS, and its tmpfs by statfs)
 * and process limits (sandbox-watchdog.ts): coarser, a sample every {@link WATCHDOG_SAMPLE_MS}, but bounded.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { KILL_WAIT_MS, killAll } from './process-tree.js';
import { Watchdog } from './sandbox-watchdog.js';
import { WATCHDOG_SAMPLE_MS, type GroupHit, type GroupLimits, type GroupMode, type GroupUsage, type SandboxGroup, type V1Controller } from './sandbox-group-types.js';

export {
  V1_CONTROLLERS,
  WATCHDOG_SAMPLE_MS,
  type GroupHit,
  type GroupLimits,
  type GroupMode,
  type GroupUsage,
  type SandboxGroup,
  type V1Controller,
} from './sandbox-group-types.js';

const CPU_PERIOD_US = 100_000;

/** A control file's text, or undefined when it cannot be read. */
export const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** `key value` lines (memory.events, pids.events, cpu.stat, memory.oom_control) as numbers. */
export function keyedCounters(text: string | undefined): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const line of (text ?? '').split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined && /^\d+$/.test(value)) counters[key] = Number(value);
  }
  return counters;
}

const numberIn = (path: string): number | undefined => {
  const text = read(path)?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
};


interface Setting {
  /** The v1 controller whose folder holds the file ('' for v2's single folder). */
  controller: V1Controller | '';
  file: string;
  value: string;
  /** Missing on some kernels (no swap accounting, no cpu controller): the other limits still hold. */
  optional?: boolean;
}

/** The files a group's limits are written to, in order. */
function settings(kind: 'cgroup1' | 'cgroup2', limits: GroupLimits): Setting[] {
  const quota = String(Math.max(1000, Math.round((limits.cpuPercent / 100) * CPU_PERIOD_US)));
  if (kind === 'cgroup2') {
    return [
      { controller: '', file: 'memory.max', value: String(limits.memoryBytes) },
      { controller: '', file: 'memory.swap.max', value: '0', optional: true },
      // At an OOM the kernel kills the whole group, not one process of it.
      { controller: '', file: 'memory.oom.group', value: '1', optional: true },
      { controller: '', file: 'pids.max', value: String(limits.processes) },
      { controller: '', file: 'cpu.max', value: `${quota} ${CPU_PERIOD_US}`, optional: true },
    ];
  }
  return [
    { controller: 'memory', file: 'memory.limit_in_bytes', value: String(limits.memoryBytes) },
    // With swap accounting, memory + swap gets the same bound (no swapping past the limit).
    { controller: 'memory', file: 'memory.memsw.limit_in_bytes', value: String(limits.memoryBytes), optional: true },
    { controller: 'pids', file: 'pids.max', value: String(limits.processes) },
    { controller: 'cpu', file: 'cpu.cfs_period_us', value: String(CPU_PERIOD_US), optional: true },
    { controller: 'cpu', file: 'cpu.cfs_quota_us', value: quota, optional: true },
  ];
}

function writeSettings(kind: 'cgroup1' | 'cgroup2', limits: GroupLimits, dirOf: (controller: V1Controller | '') => string | undefined): void {
  for (const setting of settings(kind, limits)) {
    const dir = dirOf(setting.controller);
    if (dir === undefined) continue;
    try {
      writeFileSync(join(dir, setting.file), setting.value);
    } catch (error) {
      if (!setting.optional) throw error;
    }
  }
}

const LAUNCH_PREFIX = 'launch-';

/**
 * Shell lines that put the running shell (`$$`) into a new group of its own with `limits`, for a
 * launcher script another program starts (Playwright's browser): the group is made by the script
 * itself, so whatever it execs is inside from its first instruction. Empty for the watchdog.
 * Groups left empty are removed by {@link sweepLaunchGroups}.
 *
 * The name is not the pid alone: pids are reused (pid_max is 32768 on Debian), and a group named
 * after a browser whose last processes are still being killed, or one not swept yet, would make
 * `mkdir` fail and the next browser with that pid not start. The time it starts (in ns) is added
 * by the shell, not written into the script: the launcher's folder is named after its content
 * (content-dir.ts), and a script of its own for each browser would leave one behind each time.
 */
export function launchGroupScript(mode: GroupMode, limits: GroupLimits, failStatus: number): string {
  if (mode.kind === 'watchdog') return '';
  const controllers = new Map<string, (V1Controller | '')[]>();
  for (const [controller, parent] of mode.kind === 'cgroup2' ? ([['', mode.dir]] as const) : (Object.entries(mode.dirs) as [V1Controller, string][])) {
    controllers.set(parent, [...(controllers.get(parent) ?? []), controller]);
  }
  const q = (path: string) => `'${path}'`;
  const lines: string[] = ['launch_id="$$-$(date +%s%N)"'];
  for (const [parent, served] of controllers) {
    const dir = `${q(parent)}/${LAUNCH_PREFIX}"$launch_id"`;
    lines.push(`mkdir ${dir} || exit ${failStatus}`);
    for (const setting of settings(mode.kind, limits).filter((s) => served.includes(s.controller))) {
      const value = setting.value.replace(' ', '\\ ');
      lines.push(setting.optional ? `echo ${value} 2>/dev/null > ${dir}/${setting.file}` : `echo ${value} > ${dir}/${setting.file} || exit ${failStatus}`);
    }
    lines.push(`echo $$ > ${dir}/cgroup.procs || exit ${failStatus}`);
  }
  return lines.join('\n');
}

/** Removes the launch groups no process is in any more (a group with one is busy, and stays). */
export function sweepLaunchGroups(mode: GroupMode): void {
  if (mode.kind === 'watchdog') return;
  for (const parent of mode.kind === 'cgroup2' ? [mode.dir] : new Set(Object.values(mode.dirs))) {
    let names: string[] = [];
    try {
      names = readdirSync(parent).filter((name) => name.startsWith(LAUNCH_PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        rmdirSync(join(parent, name));
      } catch {
        // still in use
      }
    }
  }
}

// Per thread: the server's Proven Code thread and its main thread (previews) count apart, so the
// thread id keeps two groups made in the same millisecond from sharing a name.
let sequence = 0;

/** A new, empty group with `limits`, in `mode`. Throws when the group cannot be made (the run then does not start). */
export function createGroup(mode: GroupMode, limits: GroupLimits): SandboxGroup {
  const name = `run-${process.pid}-${threadId}-${++sequence}-${Date.now().toString(36)}`;
  switch (mode.kind) {
    case 'cgroup2':
      return new CgroupV2(join(mode.dir, name), limits);
    case 'cgroup1':
      return new CgroupV1(mode.dirs, name, limits);
    case 'watchdog':
      return new Watchdog(limits);
    default: {
      const unreachable: never = mode;
      return unreachable;
    }
  }
}

/** pids of `procs` files until all are empty, or the wait is over. */
async function waitEmpty(procsFiles: string[], kill: (pids: number[]) => void): Promise<void> {
  const until = performance.now() + KILL_WAIT_MS;
  for (;;) {
    const pids = procsFiles.flatMap((file) => (read(file) ?? '').split('\n').filter(Boolean).map(Number));
    if (pids.length === 0) return;
    if (performance.now() > until) throw new Error(`the sandbox's processes ${pids.slice(0, 5).join(', ')} survived its kill`);
    kill(pids);
    await sleep(10);
  }
}


const removeDir = async (dir: string) => {
  // A group whose last process just exited may still be busy for a moment.
  for (let i = 0; i < 50; i++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await sleep(20);
    }
  }
};

class CgroupV2 implements SandboxGroup {
  readonly mode = 'cgroup2' as const;
  readonly procsFiles: string[];
  private peakPids = 0;

  constructor(
    private readonly dir: string,
    limits: GroupLimits,
  ) {
    mkdirSync(dir);
    this.procsFiles = [join(dir, 'cgroup.procs')];
    writeSettings('cgroup2', limits, () => dir);
  }

  attach(): void {}

  check(): GroupHit | undefined {
    this.peakPids = Math.max(this.peakPids, numberIn(join(this.dir, 'pids.current')) ?? 0);
    const memory = keyedCounters(read(join(this.dir, 'memory.events')));
    if ((memory.oom_kill ?? 0) > 0 || (memory.oom_group_kill ?? 0) > 0) return 'memory';
    if ((keyedCounters(read(join(this.dir, 'pids.events'))).max ?? 0) > 0) return 'processes';
    return undefined;
  }

  usage(): GroupUsage {
    const usec = keyedCounters(read(join(this.dir, 'cpu.stat'))).usage_usec;
    return {
      memoryPeakBytes: numberIn(join(this.dir, 'memory.peak')),
      processesPeak: Math.max(this.peakPids, numberIn(join(this.dir, 'pids.peak')) ?? 0),
      ...(usec !== undefined ? { cpuNs: usec * 1000 } : {}),
    };
  }

  async kill(): Promise<void> {
    try {
      writeFileSync(join(this.dir, 'cgroup.kill'), '1');
    } catch {
      // before 5.14: kill what cgroup.procs lists, below
    }
    await waitEmpty(this.procsFiles, killAll);
  }

  async close(): Promise<void> {
    await this.kill();
    await removeDir(this.dir);
  }
}

class CgroupV1 implements SandboxGroup {
  readonly mode = 'cgroup1' as const;
  readonly procsFiles: string[];
  private readonly dirs: Partial<Record<V1Controller, string>> = {};
  private peakPids = 0;

  constructor(parents: Partial<Record<V1Controller, string>>, name: string, limits: GroupLimits) {
    for (const [controller, parent] of Object.entries(parents) as [V1Controller, string][]) {
      const dir = join(parent, name);
      if (!Object.values(this.dirs).includes(dir)) mkdirSync(dir);
      this.dirs[controller] = dir;
    }
    this.procsFiles = [...new Set(Object.values(this.dirs))].map((dir) => join(dir, 'cgroup.procs'));
    writeSettings('cgroup1', limits, (controller) => (controller === '' ? undefined : this.dirs[controller]));
  }

  attach(): void {}

  check(): GroupHit | undefined {
    this.peakPids = Math.max(this.peakPids, numberIn(join(this.dirs.pids!, 'pids.current')) ?? 0);
    if ((keyedCounters(read(join(this.dirs.memory!, 'memory.oom_control'))).oom_kill ?? 0) > 0) return 'memory';
    if ((keyedCounters(read(join(this.dirs.pids!, 'pids.events'))).max ?? 0) > 0) return 'processes';
    return undefined;
  }

  usage(): GroupUsage {
    const cpuNs = this.dirs.cpuacct !== undefined ? numberIn(join(this.dirs.cpuacct, 'cpuacct.usage')) : undefined;
    return {
      memoryPeakBytes: numberIn(join(this.dirs.memory!, 'memory.max_usage_in_bytes')),
      processesPeak: Math.max(this.peakPids, numberIn(join(this.dirs.pids!, 'pids.peak')) ?? 0),
      ...(cpuNs !== undefined ? { cpuNs } : {}),
    };
  }

  async kill(): Promise<void> {
    // Frozen, no process can fork while the list is read and killed; SIGKILL ends frozen tasks once thawed.
    const freezer = this.dirs.freezer;
    const procs = [join(this.dirs.pids!, 'cgroup.procs')];
    if (freezer !== undefined) {
      try {
        writeFileSync(join(freezer, 'freezer.state'), 'FROZEN');
        const until = performance.now() + 1000;
        while (read(join(freezer, 'freezer.state'))?.trim() === 'FREEZING' && performance.now() < until) await sleep(5);
        killAll((read(procs[0]!) ?? '').split('\n').filter(Boolean).map(Number));
      } finally {
        writeFileSync(join(freezer, 'freezer.state'), 'THAWED');
      }
    }
    await waitEmpty(procs, killAll);
  }

  async close(): Promise<void> {
    await this.kill();
    for (const dir of Object.values(this.dirs)) await removeDir(dir);
  }
}
