/**
 * A process and everything below it, read from /proc (readable by anyone): what the sandbox knows
 * of a run where no control group counts for it, and its CPU time at a deadline.
 */
import { readdirSync, readFileSync } from 'node:fs';

// /proc/<pid>/stat counts CPU in clock ticks of USER_HZ, which the kernel's ABI fixes at 100 a second.
const MS_PER_TICK = 10;

/** Bytes per page, from this process's own RSS in kB (status) and in pages (statm); 4 KiB if unreadable. */
const PAGE_BYTES = (() => {
  try {
    const kb = Number(/^VmRSS:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    const pages = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]);
    const size = (kb * 1024) / pages;
    return [4096, 16384, 65536].reduce((best, p) => (Math.abs(p - size) < Math.abs(best - size) ? p : best), 4096);
  } catch {
    return 4096;
  }
})();

export interface TreeProcess {
  pid: number;
  /** Resident memory in bytes. */
  rssBytes: number;
  /** Its threads (tasks), itself included. */
  threads: number;
  /** User + system CPU time in ms, all its threads. */
  cpuMs: number;
}

/** `root` and every process below it (empty when `root` is gone or /proc cannot be read). */
export function processTree(root: number): TreeProcess[] {
  const children = new Map<number, number[]>();
  const info = new Map<number, TreeProcess>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    // From there (field n at n - 3): ppid (4), utime (14), stime (15), num_threads (20), rss in pages (24).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    const ppid = Number(fields[1]);
    info.set(pid, { pid, cpuMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK, threads: Number(fields[17]), rssBytes: Number(fields[21]) * PAGE_BYTES });
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: TreeProcess[] = [];
  const queue = info.has(root) ? [root] : [];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    tree.push(info.get(pid)!);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * CPU time of `root` and every process below it; undefined when `root` is gone or /proc cannot be
 * read. Only live processes count: a build that ran and exited before the start does not (its time
 * sits in its parent's cutime, left out on purpose).
 */
export function treeCpuMs(root: number): number | undefined {
  const tree = processTree(root);
  return tree.length === 0 ? undefined : tree.reduce((sum, p) => sum + p.cpuMs, 0);
}

/**
 * The topmost process below `parent` whose command line holds `arg` (a launch's own mark), if one
 * is running: the tree lists a process before anything below it.
 */
export function descendantWithArg(parent: number, arg: string): number | undefined {
  for (const { pid } of processTree(parent)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg)) return pid;
    } catch {
      // gone since the listing
    }
  }
  return undefined;
}

/**
 * How long the threads of a process tree waited for a CPU while runnable (the second field of
 * /proc/<pid>/task/<tid>/schedstat, in ns): time a busy machine took from them, not time they spent
 * waiting on something of their own. Every thread counts (a bundler does its work on worker
 * threads, its main one mostly waits on them), and a thread's last figure is kept after it exits
 * (a build script's `tsc` ends before its bundler starts): sample while the tree runs.
 */
export class RunQueueWait {
  private readonly byThread = new Map<string, number>();

  /**
   * Reads the tree below `root` now; the wait of every thread seen so far, in ms. 0 when nothing
   * was ever read (`root` gone, or a kernel that keeps no such figure).
   */
  sample(root: number): number {
    for (const { pid } of processTree(root)) {
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue; // gone since the listing
      }
      for (const tid of tids) {
        try {
          const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
          // Keyed by process too: a thread id the kernel hands out again is another thread.
          if (Number.isFinite(ns)) this.byThread.set(`${pid}/${tid}`, ns);
        } catch {
          // exited since the listing, or no schedstat in this kernel
        }
      }
    }
    let ns = 0;
    for (const value of this.byThread.values()) ns += value;
    return ns / 1e6;
  }
}

/** How long a kill may take to empty a sandbox (its group, or its process tree) before it is reported as stuck. */
export const KILL_WAIT_MS = 5000;

/** SIGKILL to each of `pids`, those already gone left out. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}
