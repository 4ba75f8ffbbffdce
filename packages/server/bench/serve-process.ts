// A Wolfpack server as users run it, for the benches that measure what users see under load: the
// built CLI (`node packages/cli/dist/bin.js serve`) in its own process, from this tree or from
// another checkout (BENCH_BEFORE, a worktree of an earlier commit, built), so two builds can be
// measured side by side in one run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository this bench runs from. */
export const THIS_TREE = fileURLToPath(new URL('../../..', import.meta.url));

/** The space-separated words of one of the bench's environment variables (Node flags, NAME=VALUE pairs); none when unset. */
export function benchWords(name: string): string[] {
  return (process.env[name] ?? '').split(' ').filter(Boolean);
}

/** One of the bench's environment variables holding NAME=VALUE pairs, as an environment (a candidate's settings). */
export function benchEnv(name: string): Record<string, string> {
  return Object.fromEntries(benchWords(name).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/**
 * What `npm start` sets for the server unless the operator did (scripts/start.sh's
 * `export NAME="${NAME-default}"` lines: the allocator's setting), read from the script itself so
 * that the benches' servers run as users start them.
 */
export const START_ENV: Record<string, string> = (() => {
  const script = readFileSync(new URL('../../../scripts/start.sh', import.meta.url), 'utf8');
  const defaults = Object.fromEntries([...script.matchAll(/^export (\w+)="\$\{\1-([^}]*)\}"$/gm)].map((m) => [m[1]!, m[2]!]));
  if (Object.keys(defaults).length === 0) throw new Error('scripts/start.sh sets no default the benches can read (export NAME="${NAME-value}").');
  return Object.fromEntries(Object.entries(defaults).filter(([key]) => process.env[key] === undefined));
})();

export interface BenchServer {
  label: string;
  url: string;
  child: ChildProcess;
  /** Resident memory of the server's process and its children, in bytes. */
  rss(): number;
  /** CPU time each of the server's processes (it and its children) has used, in ms. */
  cpuMs(): Map<number, number>;
  stop(): Promise<void>;
}

/** The CLI's entry point in a checkout; a sentence that says what to do when it was not built. */
export function builtCli(tree: string): string {
  const bin = `${tree.replace(/\/$/, '')}/packages/cli/dist/bin.js`;
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build in ${tree} first.`);
  return bin;
}

/** `wolfpack serve --port 0 --json` from `tree`, as `npm start` runs it, with `env` on top of this process's environment. */
export async function serveBuilt(label: string, tree: string, dataDir: string, env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<BenchServer> {
  const child = spawn(process.execPath, [...nodeArgs, builtCli(tree), 'serve', '--port', '0', '--json', '--data-dir', dataDir], {
    env: { ...START_ENV, ...process.env, WOLFPACK_SANDBOX: 'off', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    exited.then(() => {
      throw new Error(`${label}: the server exited before it started:\n${stderr}`);
    }),
  ]);
  const { url } = JSON.parse(line) as { url: string };
  return {
    label,
    url,
    child,
    rss: () => processTree(child.pid!).reduce((sum, pid) => sum + rssOf(pid), 0),
    cpuMs: () => {
      const tree = new Set(processTree(child.pid!));
      return cpuMsOf((pid) => tree.has(pid));
    },
    stop: async () => {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killed);
    },
  };
}

/**
 * `pid` and its descendants (what its threads spawned), from /proc. Each
 * thread has its own list of children: what Proven Code's thread spawns (the sandbox, Chromium)
 * is not in the main thread's.
 */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue; // Gone meanwhile.
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // Ended meanwhile.
      }
    }
  }
  return pids;
}

/** A process's resident memory in bytes (0 when it is gone). */
export function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The system calls a process has made so far that read and that write (read, recv, write, writev,
 * send...), from /proc/PID/io: what a change in how a server writes to its sockets shows exactly,
 * whatever else keeps the machine busy. Zeros when the process is gone.
 */
export function syscallsOf(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return { reads: Number(/syscr:\s+(\d+)/.exec(io)?.[1] ?? 0), writes: Number(/syscw:\s+(\d+)/.exec(io)?.[1] ?? 0) };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

/**
 * CPU time (user + system, ms) a process's threads have used so far, summed by thread name
 * (MainThread, V8Worker: V8's helpers for collection and compiling, libuv-worker: the thread
 * pool, a worker thread's own name), from /proc/PID/task.
 */
export function threadCpuMsOf(pid: number): Map<string, number> {
  const used = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return used;
  }
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(name, (used.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // Ended meanwhile.
    }
  }
  return used;
}

/**
 * CPU time (user + system, ms) used so far by each process `which` picks (by pid and command
 * name), from /proc: a process's ticks, at the kernel's 100 a second.
 */
export function cpuMsOf(which: (pid: number, command: string) => boolean): Map<number, number> {
  const used = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!which(Number(entry), command)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // Gone meanwhile.
    }
  }
  return used;
}

/**
 * CPU used between two readings of {@link cpuMsOf}, by the processes alive at the second (a
 * process that ended in between takes its time with it; one that started counts from zero).
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += Math.max(0, used - (before.get(pid) ?? 0));
  return ms;
}

/**
 * The machine's CPU time so far, in the kernel's ticks, from /proc/stat: all of it (every core),
 * the part spent idle or waiting for I/O, and the part the host's hypervisor took from this
 * virtual machine for others (steal), which slows every process here alike however quiet the
 * machine looks from inside.
 */
export function machineTicks(): { total: number; idle: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is inside user.
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
}

/** Between two readings of {@link machineTicks}: the share of the machine's CPU that was busy, and stolen (%). */
export function machineShareBetween(before: ReturnType<typeof machineTicks>, after: ReturnType<typeof machineTicks>): { busy: number; steal: number } {
  const total = Math.max(1, after.total - before.total);
  const steal = after.steal - before.steal;
  return { busy: ((total - (after.idle - before.idle) - steal) / total) * 100, steal: (steal / total) * 100 };
}
