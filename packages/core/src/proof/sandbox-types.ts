/** What a sandbox run is given and what it gives back (sandbox.ts runs it). */
import type { ReadOnlyBind } from './bwrap-args.js';
import type { GroupMode, GroupUsage } from './sandbox-group.js';
import type { ProofEnv, SandboxLimits, StopReason } from './sandbox-limits.js';

export interface SandboxRun {
  /** The command, as inside the sandbox (`node`, `python3` and `node_modules/.bin` are on PATH). */
  argv: string[];
  /** Working directory relative to the project root. @default the root */
  cwd?: string;
  /** Environment added to the sandbox's minimal one (PATH, HOME, LANG, ...). */
  env?: Record<string, string>;
  limits?: Partial<SandboxLimits>;
  /** Host paths to show read-only inside. */
  readOnlyBinds?: ReadOnlyBind[];
  /** Installed packages (a host node_modules), seen read-only at /project/node_modules. */
  nodeModules?: string;
  /** Give the program a stdin that stays open (a CLI waiting for input is running, not failing). @default false: /dev/null */
  keepStdinOpen?: boolean;
  /**
   * Restart the wall clock when the program prints `marker` (on either stream): the rest of the run
   * then gets `wallMs`. For a build that must finish before a start is given its few seconds.
   */
  clockFrom?: { marker: string; wallMs: number };
  /**
   * The deadline moves back by the time the program's processes and threads (those that ended
   * before it too) waited for a CPU while runnable, up to twice its window more: on a busy machine
   * a window (a start's few seconds, the tests' command time, a build's 30 s) would otherwise end
   * a correct program that was only starved, and fail it. Said in the result as `givenBackMs`.
   */
  extendWhenStarved?: boolean;
  /** End the run as soon as any process in it listens on a TCP port (`stopped: 'listening'`). */
  stopWhenListening?: boolean;
  /**
   * Host file descriptors the program inherits, as 4, 5, … inside: a listening socket the host
   * made, so the program can be reached without any host path being writable in the sandbox.
   */
  passFds?: number[];
  /**
   * Stop the run (`stopped: 'cpu-budget'`) once the whole sandbox used more than `percent` of one
   * core over the last `windowMs`: for a long-lived preview server, which a busy loop must not
   * keep on a core for its whole lifetime.
   */
  cpuBudget?: {
    percent: number;
    windowMs: number;
    /** Count only from when the program prints this (a server's start, its build included, has a window of its own). */
    from?: string;
  };
  /** Sees the output as it arrives (it is collected as well, within the output limit). */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  signal?: AbortSignal;
}

export interface SandboxResult {
  /** bwrap's exit status: the program's, or 128 + signal number when a signal ended it inside. */
  exitCode: number | null;
  /** The signal that ended it, when known (from the status above, or the one we sent). */
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Which limit (or event) ended the run; absent when the program ended by itself within every limit. */
  stopped?: StopReason;
  outputTruncated: boolean;
  /** The command as a person would type it, for reports. */
  command: string;
  /**
   * CPU time (user + system, all threads, in ms) used by the processes still running in the
   * sandbox when its wall-time deadline stopped it: with a stdin that stays open, what tells a
   * program blocked waiting (near 0) from one busy in a loop (near the whole window). Set only for
   * a run stopped by the deadline, when /proc could be read.
   */
  cpuMs?: number;
  /** For a run stopped by its deadline with `extendWhenStarved`: the ms of run-queue wait its deadline was moved by. */
  givenBackMs?: number;
  /** What the sandbox as a whole used, from its control group's counters (sampled by the watchdog where there is none). */
  usage?: GroupUsage & { mode: GroupMode['kind'] };
  /** For a run the sandbox stopped (a limit, its deadline, a cancel): ms from that stop until no process of it was left. */
  stopMs?: number;
  /**
   * Set when the sandbox itself could not start (a bind source it cannot read, a bad working
   * folder): nothing of the project ran, and the output is bwrap's, not the program's.
   */
  setupError?: string;
}

export interface Sandbox {
  kind: 'bubblewrap';
  /** What bounds each sandbox as a whole: its own control group (v2 or v1), or the /proc watchdog. */
  limitMode: GroupMode['kind'];
  /** What this sandbox does not contain on this machine, in sentences (empty when everything is enforced). */
  notes: string[];
  /** The Python interpreter inside the sandbox, or null when the machine has none. */
  python: string | null;
  run(projectDir: string, command: SandboxRun): Promise<SandboxResult>;
  /**
   * Writes an executable that runs `program` in the sandbox with the caller's arguments, for tools
   * that spawn a program themselves (Playwright's browser). No project is mounted; the file
   * descriptors in `keepFds` pass through.
   */
  launcher(program: string, options: { keepFds?: number[]; limits?: Partial<SandboxLimits>; addressSpaceUnlimited?: boolean; binds?: ReadOnlyBind[] }): string;
}

export interface FindSandboxOptions {
  /** @default `/usr/bin/bwrap`, else `bwrap` on PATH */
  bwrapPath?: string;
  /** Defaults for every run of this sandbox (each run may narrow them further). */
  limits?: Partial<SandboxLimits>;
  /** Proven Code's settings and the tools' PATH; `WOLFPACK_SANDBOX=off` makes the sandbox unavailable (for tests and for servers that must not run code). @default {} */
  env?: ProofEnv;
}
