/**
 * What one sandboxed command may use, and how each limit is enforced. Every limit is measured on
 * this machine kind (Debian, bubblewrap 0.8, Node 24, Python 3.11); the comments say what bites.
 */

const MiB = 1024 * 1024;

export interface SandboxLimits {
  /** Wall-clock time of one command; at the deadline the whole sandbox (every process) is killed. @default 15_000 */
  wallMs: number;
  /** CPU seconds per process (RLIMIT_CPU: SIGXCPU at the limit, SIGKILL one second later). @default 10 */
  cpuSeconds: number;
  /**
   * Memory a program may use: Node's heap (`--max-old-space-size`) and, per process, an address
   * space of this plus {@link SandboxLimits.runtimeReserveBytes} (RLIMIT_AS).
   * @default 512 MiB
   */
  memoryBytes: number;
  /**
   * Address space a runtime reserves and never touches, added to the RLIMIT_AS of every process:
   * Node 24 does not start below ~1.2 GiB of address space (V8's code range and cages), so without
   * it no limit could be low enough to matter and high enough to run Node. Python thus may use up
   * to memoryBytes + this.
   * @default 1.5 GiB
   */
  runtimeReserveBytes: number;
  /** Processes and threads (RLIMIT_NPROC, counted per sandbox in its user namespace). A Node process has ~11 threads. @default 256 */
  processes: number;
  /** stdout + stderr together; past it the sandbox is killed and the output marked truncated. @default 1 MiB */
  outputBytes: number;
  /** Largest file the program may write (RLIMIT_FSIZE). @default 64 MiB */
  fileBytes: number;
  /** All files written under the project copy (a size-limited tmpfs). @default 256 MiB */
  diskBytes: number;
  /** Files written under /tmp (a size-limited tmpfs). @default 64 MiB */
  tmpBytes: number;
  /** Open file descriptors per process (RLIMIT_NOFILE). @default 512 */
  openFiles: number;
  /**
   * Memory of the whole sandbox: all its processes and its tmpfs (project copy, /tmp, /dev/shm)
   * together, in its control group (a sampled sum of RSS where there is none). @default 1 GiB
   */
  sandboxMemoryBytes: number;
  /** Processes and threads of the whole sandbox at once (its group's pids.max). @default 128 */
  sandboxProcesses: number;
  /** CPU of the whole sandbox, in percent of one core (its group's CPU quota; 100: one core). @default 100 */
  sandboxCpuPercent: number;
}

/**
 * The reserve for a command that runs Python only: CPython maps ~30 MiB before it runs a line, so
 * with Node's reserve a Python program could use 1.5 GiB more than `memoryBytes`.
 */
export const PYTHON_RUNTIME_RESERVE_BYTES = 128 * MiB;

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  wallMs: 15_000,
  cpuSeconds: 10,
  memoryBytes: 512 * MiB,
  runtimeReserveBytes: 1536 * MiB,
  processes: 256,
  outputBytes: 1 * MiB,
  fileBytes: 64 * MiB,
  diskBytes: 256 * MiB,
  tmpBytes: 64 * MiB,
  openFiles: 512,
  sandboxMemoryBytes: 1024 * MiB,
  sandboxProcesses: 128,
  sandboxCpuPercent: 100,
});

// WOLFPACK_PROOF_<NAME> overrides a default, e.g. WOLFPACK_PROOF_MEMORY_BYTES=268435456.
const ENV_NAMES: Record<keyof SandboxLimits, string> = {
  wallMs: 'WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS',
  cpuSeconds: 'WOLFPACK_PROOF_CPU_SECONDS',
  memoryBytes: 'WOLFPACK_PROOF_MEMORY_BYTES',
  runtimeReserveBytes: 'WOLFPACK_PROOF_RUNTIME_RESERVE_BYTES',
  processes: 'WOLFPACK_PROOF_PROCESSES',
  outputBytes: 'WOLFPACK_PROOF_OUTPUT_BYTES',
  fileBytes: 'WOLFPACK_PROOF_FILE_BYTES',
  diskBytes: 'WOLFPACK_PROOF_DISK_BYTES',
  tmpBytes: 'WOLFPACK_PROOF_TMP_BYTES',
  openFiles: 'WOLFPACK_PROOF_OPEN_FILES',
  sandboxMemoryBytes: 'WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES',
  sandboxProcesses: 'WOLFPACK_PROOF_SANDBOX_PROCESSES',
  sandboxCpuPercent: 'WOLFPACK_PROOF_SANDBOX_CPU_PERCENT',
};

/**
 * Proven Code's settings by variable name (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*, WOLFPACK_PREVIEW_*),
 * with the PATH its tools are found on and npm's network variables. The server reads and checks
 * them once at start and hands them down; empty means every default. Never the process's own
 * environment by default: an embedding program decides what Proven Code sees.
 */
export type ProofEnv = Readonly<Record<string, string | undefined>>;

/** Where tools are looked for when the settings give no PATH. */
export const DEFAULT_TOOL_PATH = '/usr/local/bin:/usr/bin:/bin';

/** A positive integer from the settings, or undefined when unset or not one. */
export function positiveIntFromEnv(env: ProofEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

/** The defaults, then WOLFPACK_PROOF_* from `env`, then `overrides`. */
export function resolveLimits(overrides: Partial<SandboxLimits> = {}, env: ProofEnv = {}): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of Object.keys(ENV_NAMES) as (keyof SandboxLimits)[]) {
    const fromEnv = positiveIntFromEnv(env, ENV_NAMES[key]);
    if (fromEnv !== undefined) limits[key] = fromEnv;
    const given = overrides[key];
    if (given !== undefined && Number.isFinite(given) && given > 0) limits[key] = Math.floor(given);
  }
  return limits;
}

/**
 * `prlimit` arguments for the limits that are rlimits. Soft and hard CPU differ by a second so a
 * program first gets SIGXCPU, which bwrap reports as exit 152 and we can name; the hard limit
 * (SIGKILL) catches one that ignores it.
 */
export function prlimitArgs(limits: SandboxLimits): string[] {
  const as = limits.memoryBytes + limits.runtimeReserveBytes;
  return [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${as}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileBytes}`,
    `--nofile=${limits.openFiles}`,
    `--core=0`,
  ];
}

/** Node's heap limit in MiB, so a runaway heap ends as "heap out of memory" before RLIMIT_AS crashes V8 elsewhere. */
export function nodeHeapOption(limits: SandboxLimits): string {
  return `--max-old-space-size=${Math.max(16, Math.floor(limits.memoryBytes / MiB))}`;
}

export type StopReason = 'time' | 'cpu' | 'cpu-budget' | 'memory' | 'output' | 'processes' | 'file-size' | 'disk' | 'listening' | 'aborted';

// What a per-program limit looks like from outside once it has bitten: bwrap exits 128 + the
// signal of a sandboxed process killed by one; the runtimes say the rest. The sandbox-wide limits
// are never read from output: their group's counters say when they were hit.
const SIGXCPU_EXIT = 128 + 24;
const SIGXFSZ_EXIT = 128 + 25;
const MEMORY_TEXT = /JavaScript heap out of memory|Failed to allocate memory|ERR_MEMORY_ALLOCATION_FAILED|Fatal process out of memory|MemoryError|Cannot allocate memory|std::bad_alloc|ENOMEM|Allocation failed|Out of memory/;
const PROCESS_TEXT = /Cannot fork|fork: retry|fork: Resource temporarily unavailable|spawn [^\n]*EAGAIN|BlockingIOError: \[Errno 11\]|pthread_create|Resource temporarily unavailable/;
const FILE_SIZE_TEXT = /EFBIG|File too large/;

/** What the sandbox measured of a run, beside its exit: its group's counters and its tmpfs. */
export interface Measured {
  /** The limit the group's counters (or the watchdog) say was hit. */
  hit?: 'memory' | 'processes';
  /** Most processes (threads included) the sandbox had at once, when known. */
  processesPeak?: number;
  /** Most memory the sandbox held at once, when known. */
  memoryPeakBytes?: number;
  /** The project copy or /tmp had (almost) no space left when the program ended (statfs inside). */
  diskFull: boolean;
}

/**
 * Names the limit that ended a run: the one `stopped` already says (the deadline, the output cap),
 * corrected by what the group measured (a deadline met after a refused fork is the process limit);
 * else the group's counters, the tmpfs the sandbox found full, then the per-program limits by their
 * signal, or by the runtime dying of its memory limit. Undefined when nothing points at a limit.
 */
export function stopVerdict(stopped: StopReason | undefined, exitCode: number | null, output: string, measured: Measured, limits: SandboxLimits): StopReason | undefined {
  if (stopped !== undefined && stopped !== 'time') return stopped;
  if (measured.hit !== undefined) return measured.hit;
  // RLIMIT_NPROC (per program) has no counter: a refused fork it is when the sandbox did reach that many.
  const forkRefused = PROCESS_TEXT.test(output) && (measured.processesPeak ?? 0) >= limits.processes * 0.9;
  if (stopped === 'time') return forkRefused ? 'processes' : 'time';
  if (exitCode === SIGXCPU_EXIT) return 'cpu';
  if (exitCode === SIGXFSZ_EXIT) return 'file-size';
  if (measured.diskFull) return 'disk';
  // A fork bomb often dies out by itself once forks fail, and exits 0: it still hit the limit.
  if (forkRefused) return 'processes';
  if (exitCode === 0) return undefined;
  // The heap limit and RLIMIT_AS have no counter either: the runtime died of one (a signal, or its
  // last lines say so) when the sandbox did hold half that memory at once.
  const tail = output.trim().split('\n').slice(-5).join('\n');
  const nearLimit = (measured.memoryPeakBytes ?? 0) >= limits.memoryBytes / 2;
  if (nearLimit && MEMORY_TEXT.test(exitCode !== null && exitCode > 128 ? output : tail)) return 'memory';
  // Python ignores SIGXFSZ and raises EFBIG instead.
  if (FILE_SIZE_TEXT.test(tail)) return 'file-size';
  return undefined;
}
