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
};

/** A positive integer from the environment, or undefined when unset or not one. */
export function positiveIntFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

/** The defaults, then WOLFPACK_PROOF_* from `env`, then `overrides`. */
export function resolveLimits(overrides: Partial<SandboxLimits> = {}, env: NodeJS.ProcessEnv = process.env): SandboxLimits {
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

export type StopReason = 'time' | 'cpu' | 'memory' | 'output' | 'processes' | 'file-size' | 'disk' | 'listening' | 'aborted';

// What each limit looks like from outside once it has bitten. bwrap exits 128 + the signal of a
// sandboxed process killed by one; the rest is how Node, Python, libc and the shell say it.
const SIGXCPU_EXIT = 128 + 24;
const SIGXFSZ_EXIT = 128 + 25;
const MEMORY_TEXT = /JavaScript heap out of memory|Failed to allocate memory|ERR_MEMORY_ALLOCATION_FAILED|Fatal process out of memory|MemoryError|Cannot allocate memory|std::bad_alloc|ENOMEM|Allocation failed|Out of memory/;
const PROCESS_TEXT = /Cannot fork|fork: retry|fork: Resource temporarily unavailable|spawn [^\n]*EAGAIN|BlockingIOError: \[Errno 11\]|pthread_create|Resource temporarily unavailable/;
const FILE_SIZE_TEXT = /EFBIG|File too large/;
const DISK_TEXT = /ENOSPC|No space left on device/;

/**
 * Names the limit that ended (or, for processes, was hit by) a command that exited on its own: by its exit status where a signal
 * says it, else by what the runtime printed. Undefined when nothing points at a limit.
 */
export function limitFromExit(exitCode: number | null, output: string): StopReason | undefined {
  if (exitCode === SIGXCPU_EXIT) return 'cpu';
  if (exitCode === SIGXFSZ_EXIT) return 'file-size';
  // A fork bomb often dies out by itself once forks fail, and exits 0: it still hit the limit.
  if (exitCode === 0) return PROCESS_TEXT.test(output) ? 'processes' : undefined;
  if (MEMORY_TEXT.test(output)) return 'memory';
  if (FILE_SIZE_TEXT.test(output)) return 'file-size';
  if (DISK_TEXT.test(output)) return 'disk';
  if (PROCESS_TEXT.test(output)) return 'processes';
  return undefined;
}

/** A command stopped at its deadline that had already hit the process limit is named for that. */
export function limitFromTimeout(output: string): StopReason {
  return PROCESS_TEXT.test(output) ? 'processes' : 'time';
}
