/**
 * The fallback where no control group can be written: samples the sandbox's process tree in /proc
 * and calls a limit hit when a sample is past it: memory as the sum of its processes' RSS and what
 * its tmpfs mounts hold, processes as their threads. Coarser than a group's counters (a look every
 * {@link WATCHDOG_SAMPLE_MS}), but it bounds the whole sandbox.
 */
import { statfsSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import { KILL_WAIT_MS, killAll, processTree } from './process-tree.js';
import type { GroupHit, GroupLimits, GroupUsage, SandboxGroup, WATCHDOG_SAMPLE_MS } from './sandbox-group-types.js';

const TMPFS_MAGIC = 0x01021994;
const TMPFS_MOUNTS = [SANDBOX_PROJECT_DIR, '/tmp', '/dev/shm'];

/**
 * Bytes the sandbox's tmpfs mounts hold, seen through the root of `pid`, one of its processes;
 * 0 while that root is still the host's (bwrap has not yet moved into its own).
 */
function tmpfsBytes(pid: number): number {
  let total = 0;
  try {
    if (statSync(`/proc/${pid}/root/`).dev === statSync('/').dev) return 0;
    for (const mount of TMPFS_MOUNTS) {
      const fs = statfsSync(`/proc/${pid}/root${mount}`);
      if (fs.type === TMPFS_MAGIC) total += (fs.blocks - fs.bfree) * fs.bsize;
    }
  } catch {
    // gone, or not ours to look into: its RSS still counts
  }
  return total;
}

export class Watchdog implements SandboxGroup {
  readonly mode = 'watchdog' as const;
  readonly procsFiles: string[] = [];
  private root: number | undefined;
  private peak = { memory: 0, processes: 0 };
  private hit: GroupHit | undefined;
  private last: number[] = [];

  constructor(private readonly limits: GroupLimits) {}

  attach(pid: number): void {
    this.root = pid;
  }

  check(): GroupHit | undefined {
    if (this.root === undefined || this.hit !== undefined) return this.hit;
    const tree = processTree(this.root);
    if (tree.length === 0) return undefined;
    this.last = tree.map((p) => p.pid);
    // The last process found is the deepest of the tree: inside the sandbox's own root.
    const memory = tree.reduce((sum, p) => sum + p.rssBytes, 0) + tmpfsBytes(tree.at(-1)!.pid);
    // Threads count, as they do for the pids controller and RLIMIT_NPROC.
    const processes = tree.reduce((sum, p) => sum + p.threads, 0);
    this.peak = { memory: Math.max(this.peak.memory, memory), processes: Math.max(this.peak.processes, processes) };
    if (memory > this.limits.memoryBytes) this.hit = 'memory';
    else if (processes > this.limits.processes) this.hit = 'processes';
    return this.hit;
  }

  usage(): GroupUsage {
    return { memoryPeakBytes: this.peak.memory, processesPeak: this.peak.processes };
  }

  async kill(): Promise<void> {
    // No freezer here: kill what the last look found and look again until the tree is gone.
    const until = performance.now() + KILL_WAIT_MS;
    let pids = this.root === undefined ? [] : [...new Set([...this.last, ...processTree(this.root).map((p) => p.pid)])];
    while (pids.length > 0 && performance.now() < until) {
      killAll(pids);
      await sleep(10);
      pids = this.root === undefined ? [] : processTree(this.root).map((p) => p.pid);
    }
  }

  async close(): Promise<void> {
    await this.kill();
  }
}
