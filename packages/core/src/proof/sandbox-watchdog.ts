/**
 * The fallback where no control group can be written: samples the sandbox's process tree in /proc
 * and calls a limit hit when a sample is past it (the sum of RSS, tmpfs not counted; threads). Coarser
 * than a group's counters (a look every {@link WATCHDOG_SAMPLE_MS}), but it bounds the whole sandbox.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { killAll, processTree } from './process-tree.js';
import { KILL_WAIT_MS, type GroupHit, type GroupLimits, type GroupUsage, type SandboxGroup, type WATCHDOG_SAMPLE_MS } from './sandbox-group.js';

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
    const memory = tree.reduce((sum, p) => sum + p.rssBytes, 0);
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
