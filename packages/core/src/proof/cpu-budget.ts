/**
 * A CPU budget over a sliding window, for a sandbox that lives long (a previewed server): the
 * cgroup's CPU quota keeps a busy loop to its share of a core, this stops it when it keeps that
 * share busy for a whole window.
 */
import { treeCpuMs } from './process-tree.js';
import type { SandboxGroup } from './sandbox-group.js';

/** CPU the sandbox used so far, in ms: its group's counter, else its live processes' from /proc. */
export function cpuNow(group: SandboxGroup, pid: number | undefined): number | undefined {
  const ns = group.usage().cpuNs;
  if (ns !== undefined) return ns / 1e6;
  return pid === undefined ? undefined : treeCpuMs(pid);
}

/** CPU use over a sliding window, sampled once a second. */
export class CpuBudget {
  private samples: { at: number; cpuMs: number }[] = [];

  private armed: boolean;
  private seen = '';

  constructor(
    private readonly budget: { percent: number; windowMs: number; from?: string },
    private readonly read: () => number | undefined,
  ) {
    this.armed = budget.from === undefined;
  }

  /** Output as it arrives: the budget counts from its `from` marker on. */
  watch(chunk: Buffer): void {
    const marker = this.budget.from;
    if (this.armed || marker === undefined) return;
    // A marker's worth of tail, so one split across two chunks is still found.
    this.seen = (this.seen + chunk.toString('latin1')).slice(-(marker.length + chunk.length));
    this.armed = this.seen.includes(marker);
  }

  /** Whether the last full window used more than the budget. */
  spent(): boolean {
    if (!this.armed) return false;
    const at = performance.now();
    const last = this.samples.at(-1);
    if (last !== undefined && at - last.at < 1000) return false;
    const cpuMs = this.read();
    if (cpuMs === undefined) return false;
    this.samples.push({ at, cpuMs });
    // Keep one sample at or before the window's start.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.budget.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const span = at - first.at;
    return span >= this.budget.windowMs && cpuMs - first.cpuMs > (this.budget.percent / 100) * span;
  }
}
