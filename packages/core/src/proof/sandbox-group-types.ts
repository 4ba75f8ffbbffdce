/** What a sandbox's group is and reports, shared by the control groups (sandbox-group.ts) and the watchdog that stands in for them (sandbox-watchdog.ts). */
/** What the group is limited to; see SandboxLimits' sandbox* fields. */
export interface GroupLimits {
  memoryBytes: number;
  processes: number;
  /** CPU time per wall time, in percent of one core (100: one core's worth). */
  cpuPercent: number;
}

export type GroupMode =
  | { kind: 'cgroup2'; dir: string }
  | { kind: 'cgroup1'; dirs: V1Dirs }
  | { kind: 'watchdog'; why: string };

export type V1Controller = 'memory' | 'pids' | 'cpu' | 'cpuacct' | 'freezer';
export const V1_CONTROLLERS: readonly V1Controller[] = ['memory', 'pids', 'cpu', 'cpuacct', 'freezer'];
/** Where groups are made, per v1 controller: memory and pids always, the others when mounted. */
export type V1Dirs = Partial<Record<V1Controller, string>> & Record<'memory' | 'pids', string>;

/** The limit a group's counters say it hit. */
export type GroupHit = 'memory' | 'processes';

export interface GroupUsage {
  /** Most memory the group held at once (its processes and its tmpfs pages; RSS only for the watchdog). */
  memoryPeakBytes?: number;
  /** Most processes (tasks: threads count) it had at once. */
  processesPeak?: number;
  /** CPU time used so far, all its processes together, in ns (absent for the watchdog). */
  cpuNs?: number;
}

export interface SandboxGroup {
  readonly mode: GroupMode['kind'];
  /** cgroup.procs files the launcher writes its own pid into before it execs bwrap (empty for the watchdog). */
  readonly procsFiles: string[];
  /** For the watchdog: the first process of the sandbox, whose tree it samples. */
  attach(pid: number): void;
  /** Reads the counters (the watchdog samples /proc): the limit hit, if any. */
  check(): GroupHit | undefined;
  usage(): GroupUsage;
  /** Kills every process of the group and waits until none is left. */
  kill(): Promise<void>;
  /** Kills what is left, then removes the group. */
  close(): Promise<void>;
}

/** How often the watchdog (and the sandbox's limit poll) looks. */
export const WATCHDOG_SAMPLE_MS = 100;
