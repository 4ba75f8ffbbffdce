/**
 * Runs generated code where it can do no harm: Linux bubblewrap with rlimits, a wall-time kill of
 * the whole process tree, an output cap, no network and no environment from the server. See
 * bwrap-args.ts for what the sandbox sees and sandbox-limits.ts for what it may use.
 *
 * When no sandbox works here, {@link findSandbox} says why and nothing is run at all: generated
 * code never runs unsandboxed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, posix } from 'node:path';
import { contentDir } from './content-dir.js';
import {
  bwrapArgs,
  DISK_FULL_MARK,
  PRELUDE_FAILED,
  PRELUDE_MARK,
  SANDBOX_ETC_FILES,
  sandboxEnv,
  shellQuote,
  type HostTools,
  type ReadOnlyBind,
} from './bwrap-args.js';
import { CpuBudget, cpuNow } from './cpu-budget.js';
import { RunQueueWait, treeCpuMs } from './process-tree.js';
import { StarvedDeadline } from './starved-deadline.js';
import { groupMode, groupModeLine } from './group-mode.js';
import { createGroup, launchGroupScript, sweepLaunchGroups, WATCHDOG_SAMPLE_MS, type GroupLimits, type GroupMode, type SandboxGroup } from './sandbox-group.js';
import { DEFAULT_TOOL_PATH, resolveLimits, stopVerdict, type ProofEnv, type SandboxLimits, type StopReason } from './sandbox-limits.js';

export { SANDBOX_PROJECT_DIR, SANDBOX_NODE_DIR, shellQuote, type ReadOnlyBind } from './bwrap-args.js';

export type { FindSandboxOptions, Sandbox, SandboxResult, SandboxRun } from './sandbox-types.js';
import type { FindSandboxOptions, Sandbox, SandboxResult, SandboxRun } from './sandbox-types.js';

const SIGNALS = ['HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM', 'STKFLT', 'CHLD', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU', 'URG', 'XCPU', 'XFSZ', 'VTALRM', 'PROF', 'WINCH', 'IO', 'PWR', 'SYS'];
// Who owns a sandbox when the server is root: RLIMIT_NPROC is never enforced for real uid 0, so
// a fork bomb would only meet the wall-time kill. As "nobody", each sandbox gets its own count.
const NOBODY = 65534;
/** The first descriptor of {@link SandboxRun.passFds} inside: after stdin, stdout, stderr and bwrap's info pipe. */
const PASSED_FD_BASE = 4;
/** Run-queue wait is read every this many watchdog ticks (a second): each read lists /proc. */
const WAIT_SAMPLE_TICKS = Math.round(1000 / WATCHDOG_SAMPLE_MS);

/** The first executable among `preferred`, then `name` on `path` (a PATH value). */
export function findExecutable(name: string, preferred: string[] = [], path = DEFAULT_TOOL_PATH): string | null {
  for (const candidate of [...preferred, ...path.split(delimiter).filter(Boolean).map((dir) => join(dir, name))]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return null;
}

/** /usr/bin/python3 when present; else the PATH one, whose prefix must then be bound (never all of /root). */
function findPython(path: string | undefined): { path: string; dirs: string[] } | null {
  if (existsSync('/usr/bin/python3')) return { path: '/usr/bin/python3', dirs: [] };
  const found = findExecutable('python3', [], path);
  if (found === null) return null;
  const real = realpathSync(found);
  if (real.startsWith('/usr/')) return { path: real, dirs: [] };
  return { path: real, dirs: [dirname(dirname(real))] };
}

function signalName(exitCode: number | null): string | null {
  return exitCode !== null && exitCode > 128 && exitCode <= 128 + SIGNALS.length ? `SIG${SIGNALS[exitCode - 129]}` : null;
}

/** Whether any socket in the network namespace of `pid` is listening (TCP state 0A). */
function listening(pid: number): boolean {
  for (const file of ['tcp', 'tcp6']) {
    try {
      const rows = readFileSync(`/proc/${pid}/net/${file}`, 'utf8').split('\n').slice(1);
      if (rows.some((row) => row.trim().split(/\s+/)[3] === '0A')) return true;
    } catch {
      // the process is gone or the file is unreadable: not (yet) listening
    }
  }
  return false;
}

class Bubblewrap implements Sandbox {
  readonly kind = 'bubblewrap' as const;
  constructor(
    private readonly tools: HostTools,
    private readonly defaults: Partial<SandboxLimits>,
    private readonly owner: { uid: number; gid: number } | undefined,
    readonly python: string | null,
    readonly notes: string[],
    private readonly env: ProofEnv,
    private readonly mode: GroupMode,
    /** setpriv, to give the sandbox its owner after it joined its group (which needs root). */
    private readonly setpriv: string | null,
  ) {}

  get limitMode(): GroupMode['kind'] {
    return this.mode.kind;
  }

  /** The command that becomes the sandbox's owner, then runs `argv` (nothing to add when there is no owner). */
  private asOwner(argv: string[]): string[] {
    return this.owner && this.setpriv ? [this.setpriv, `--reuid=${this.owner.uid}`, `--regid=${this.owner.gid}`, '--clear-groups', ...argv] : argv;
  }

  run(projectDir: string, command: SandboxRun): Promise<SandboxResult> {
    const limits = resolveLimits({ ...this.defaults, ...command.limits }, this.env);
    const cwd = command.cwd === undefined || command.cwd === '' ? '' : posix.normalize(command.cwd);
    if (cwd.startsWith('/') || cwd === '..' || cwd.startsWith('../')) {
      throw new Error(`The sandbox working folder must be inside the project; got ${JSON.stringify(command.cwd)}.`);
    }
    const args = bwrapArgs({
      tools: this.tools,
      limits,
      seed: projectDir,
      cwd,
      env: sandboxEnv(limits, command.env),
      binds: command.readOnlyBinds ?? [],
      ...(command.nodeModules !== undefined ? { nodeModules: command.nodeModules } : {}),
      infoFd: 3,
      // After stdio and the info pipe (3): see spawnRun's stdio.
      ...(command.passFds?.length ? { keepFds: command.passFds.map((_, i) => PASSED_FD_BASE + i) } : {}),
    });
    return this.spawnRun([...args, ...command.argv], command, limits);
  }

  launcher(program: string, options: { keepFds?: number[]; limits?: Partial<SandboxLimits>; addressSpaceUnlimited?: boolean; binds?: ReadOnlyBind[] }): string {
    const limits = resolveLimits({ ...this.defaults, ...options.limits }, this.env);
    const args = bwrapArgs({
      tools: this.tools,
      limits,
      env: sandboxEnv(limits),
      binds: options.binds ?? [],
      keepFds: options.keepFds,
      addressSpaceUnlimited: options.addressSpaceUnlimited,
    });
    // Playwright spawns the launcher as the server's user: the script makes the browser's group
    // and joins it, then setpriv gives it the same owner as run().
    sweepLaunchGroups(this.mode);
    const join_ = launchGroupScript(this.mode, groupLimits(limits), PRELUDE_FAILED);
    const line = this.asOwner([this.tools.bwrap, ...args, program]).map(shellQuote).join(' ');
    return join(contentDir('wolfpack-sandbox-launcher', { run: `#!/bin/sh\n${join_ ? `${join_}\n` : ''}exec ${line} "$@"\n` }, ['run']), 'run');
  }

  /**
   * How bwrap is started: in the run's group from its first instruction. A shell (as the server's
   * user: joining a group needs root or a delegated subtree) writes its own pid into the group,
   * then execs setpriv, which gives the sandbox its owner and execs bwrap.
   */
  private launch(group: SandboxGroup, args: string[]): { file: string; argv: string[]; env: Record<string, string>; owner?: { uid: number; gid: number } } {
    if (group.procsFiles.length === 0) return { file: this.tools.bwrap, argv: args, env: { PATH: '/usr/bin:/bin' }, ...(this.owner ? { owner: this.owner } : {}) };
    const joinGroup = `for f in $WOLFPACK_CGROUP_PROCS; do echo $$ > "$f" || { echo "${PRELUDE_MARK} could not join the sandbox's control group ($f)" >&2; exit ${PRELUDE_FAILED}; }; done; unset WOLFPACK_CGROUP_PROCS; exec "$@"`;
    return {
      file: '/bin/sh',
      argv: ['-c', joinGroup, 'wolfpack-sandbox', ...this.asOwner([this.tools.bwrap, ...args])],
      env: { PATH: '/usr/bin:/bin', WOLFPACK_CGROUP_PROCS: group.procsFiles.join(' ') },
    };
  }

  private async spawnRun(args: string[], command: SandboxRun, limits: SandboxLimits): Promise<SandboxResult> {
    const started = performance.now();
    const display = command.argv.map(shellQuote).join(' ');
    let group: SandboxGroup;
    try {
      group = createGroup(this.mode, groupLimits(limits));
    } catch (error) {
      const setupError = `the sandbox's control group could not be made (${(error as Error).message})`;
      return { exitCode: null, signal: null, stdout: '', stderr: setupError, durationMs: 0, outputTruncated: false, command: display, usage: { mode: this.mode.kind }, setupError };
    }
    const launch = this.launch(group, args);
    let stoppedAt: number | undefined;
    const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; stopped?: StopReason; truncated: boolean; cpuMs?: number; givenBackMs: number }>((resolve) => {
      const child = spawn(launch.file, launch.argv, {
        stdio: [command.keepStdinOpen ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe', ...(command.passFds ?? [])],
        // Its own process group, so a kill reaches bwrap's helpers too; bwrap's pid namespace and
        // --die-with-parent take everything inside down with it.
        detached: true,
        env: launch.env,
        ...launch.owner,
      });
      if (child.pid !== undefined) group.attach(child.pid);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let bytes = 0;
      let truncated = false;
      let stopped: StopReason | undefined;
      let innerPid: number | undefined;
      let cpuMs: number | undefined;
      const kill = (reason: StopReason) => {
        stopped ??= reason;
        stoppedAt ??= performance.now();
        void group.kill().catch(() => undefined);
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      // The window in force: the whole run's, or after clockFrom's marker the start's.
      const waits = command.extendWhenStarved ? new RunQueueWait() : undefined;
      const deadline = new StarvedDeadline(
        limits.wallMs,
        () => {
          // Measured before the kill, while the processes still exist.
          if (stopped === undefined && innerPid !== undefined) cpuMs = treeCpuMs(innerPid);
          kill('time');
        },
        () => (waits && stopped === undefined && innerPid !== undefined ? waits.sample(innerPid) : undefined),
      );
      let seen = '';
      const watch = (chunk: Buffer) => {
        const clock = command.clockFrom;
        if (!clock || seen === clock.marker) return;
        // Keep a marker's worth of tail, so a marker split across two chunks is still found.
        seen = (seen + chunk.toString('latin1')).slice(-(clock.marker.length + chunk.length));
        if (!seen.includes(clock.marker)) return;
        seen = clock.marker;
        deadline.restart(clock.wallMs);
      };
      const budget = command.cpuBudget ? new CpuBudget(command.cpuBudget, () => cpuNow(group, child.pid)) : undefined;
      const collect = (into: Buffer[], stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
        watch(chunk);
        budget?.watch(chunk);
        command.onOutput?.(chunk, stream);
        if (truncated) return;
        const room = limits.outputBytes - bytes;
        if (chunk.length > room) {
          into.push(chunk.subarray(0, room));
          bytes = limits.outputBytes;
          truncated = true;
          kill('output');
          return;
        }
        into.push(chunk);
        bytes += chunk.length;
      };
      child.stdout!.on('data', collect(out, 'stdout'));
      child.stderr!.on('data', collect(err, 'stderr'));
      let info = '';
      const infoStream = child.stdio[3] as NodeJS.ReadableStream | null;
      infoStream?.on('data', (chunk: Buffer) => {
        info += chunk.toString();
        const pid = /"child-pid":\s*(\d+)/.exec(info)?.[1];
        if (pid !== undefined) innerPid = Number(pid);
      });
      infoStream?.on('error', () => undefined);
      // The group's counters say at once when a limit was hit: the whole sandbox goes then, not at its deadline.
      let ticks = 0;
      const poll = setInterval(() => {
        if (stopped !== undefined) return;
        // The wait of processes and threads that end before the deadline still counts: read once a second.
        if (waits && innerPid !== undefined && (ticks += 1) % WAIT_SAMPLE_TICKS === 0) waits.sample(innerPid);
        const hit = group.check();
        if (hit !== undefined) kill(hit);
        else if (budget?.spent()) kill('cpu-budget');
        else if (command.stopWhenListening && innerPid !== undefined && listening(innerPid)) kill('listening');
      }, WATCHDOG_SAMPLE_MS);
      const onAbort = () => kill('aborted');
      command.signal?.addEventListener('abort', onAbort, { once: true });
      if (command.signal?.aborted) onAbort();
      child.on('error', (error) => err.push(Buffer.from(`${error.message}\n`)));
      child.on('close', (code, signal) => {
        deadline.clear();
        clearInterval(poll);
        command.signal?.removeEventListener('abort', onAbort);
        resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stopped, truncated, cpuMs, givenBackMs: deadline.givenBackMs });
      });
    });
    // The counters once more (an OOM kill just before the end), then nothing of the group may outlive the run.
    const hit = group.check();
    const usage = group.usage();
    let leftover: string | undefined;
    await group.close().catch((error: unknown) => (leftover = (error as Error).message));
    const { code, stdout } = outcome;
    const diskFull = outcome.stderr.includes(DISK_FULL_MARK);
    const stderr = diskFull ? outcome.stderr.split('\n').filter((line) => !line.startsWith(DISK_FULL_MARK)).join('\n') : outcome.stderr;
    let stopped = code === PRELUDE_FAILED ? outcome.stopped : stopVerdict(outcome.stopped, code, `${stdout}\n${stderr}`, { hit, processesPeak: usage.processesPeak, memoryPeakBytes: usage.memoryPeakBytes, diskFull }, limits);
    if (stopped === undefined && code === PRELUDE_FAILED && /does not fit/.test(stderr)) stopped = 'disk';
    // bwrap reports its own failures as "bwrap: …" and status 1, before anything of the project runs.
    const setupError =
      (code === 1 && stdout === '' && stderr.startsWith('bwrap: ')) || (code === PRELUDE_FAILED && stopped === undefined && stderr.includes(PRELUDE_MARK))
        ? stderr.trim().split('\n')[0]
        : undefined;
    return {
      exitCode: code,
      signal: outcome.signal ?? signalName(code),
      stdout,
      stderr: leftover ? `${stderr}\n${PRELUDE_MARK} ${leftover}` : stderr,
      durationMs: Math.round(performance.now() - started),
      ...(stopped ? { stopped } : {}),
      outputTruncated: outcome.truncated,
      command: display,
      usage: { mode: this.mode.kind, ...usage },
      ...(stoppedAt !== undefined ? { stopMs: Math.round(performance.now() - stoppedAt) } : {}),
      ...(stopped === 'time' && outcome.cpuMs !== undefined ? { cpuMs: outcome.cpuMs } : {}),
      ...(stopped === 'time' && outcome.givenBackMs > 0 ? { givenBackMs: outcome.givenBackMs } : {}),
      ...(setupError ? { setupError } : {}),
    };
  }
}

/** The sandbox-wide part of `limits`. */
function groupLimits(limits: SandboxLimits): GroupLimits {
  return { memoryBytes: limits.sandboxMemoryBytes, processes: limits.sandboxProcesses, cpuPercent: limits.sandboxCpuPercent };
}

/** The one start-up line saying what bounds each sandbox on this machine (see {@link groupModeLine}). */
export function sandboxLimitsLine(env: ProofEnv = {}): string {
  const limits = resolveLimits({}, env);
  return groupModeLine(groupMode(env), groupLimits(limits), { memoryBytes: limits.memoryBytes, addressSpaceBytes: limits.memoryBytes + limits.runtimeReserveBytes, processes: limits.processes });
}

function bwrapFeatures(bwrap: string): { hasSize: boolean; hasDisableUserns: boolean } {
  const help = spawnSync(bwrap, ['--help'], { encoding: 'utf8', timeout: 5000 });
  const text = `${help.stdout ?? ''}${help.stderr ?? ''}`;
  return { hasSize: text.includes('--size'), hasDisableUserns: text.includes('--disable-userns') };
}

const cache = new Map<string, Promise<{ sandbox: Sandbox } | { unavailable: string }>>();

/** The operator turned the sandbox off (`WOLFPACK_SANDBOX=off`): nothing generated runs. */
export function sandboxTurnedOff(env: ProofEnv): boolean {
  return env.WOLFPACK_SANDBOX === 'off';
}

/**
 * The sandbox of this machine, probed once per option set by running Node in it. Answers
 * `{ unavailable }` with the reason when there is none (no bwrap, user namespaces disabled,
 * `WOLFPACK_SANDBOX=off`); callers then run nothing and say "not executed: no sandbox on this server".
 */
export function findSandbox(options: FindSandboxOptions = {}): Promise<{ sandbox: Sandbox } | { unavailable: string }> {
  const env = options.env ?? {};
  if (sandboxTurnedOff(env)) return Promise.resolve({ unavailable: 'the sandbox is turned off (WOLFPACK_SANDBOX=off)' });
  // Keyed by what shapes the sandbox, not by the env object: callers may pass a fresh one each time.
  const limitEnv = Object.entries(env).filter(([name]) => name.startsWith('WOLFPACK_PROOF_') || name === 'PATH').sort();
  const key = JSON.stringify([options.bwrapPath, options.limits, limitEnv]);
  let found = cache.get(key);
  if (!found) {
    found = probe(options, env);
    cache.set(key, found);
  }
  return found;
}

async function probe(options: FindSandboxOptions, env: ProofEnv): Promise<{ sandbox: Sandbox } | { unavailable: string }> {
  const bwrap = options.bwrapPath ?? findExecutable('bwrap', ['/usr/bin/bwrap'], env.PATH);
  if (bwrap === null) return { unavailable: 'bubblewrap (bwrap) is not installed; on Debian: apt-get install bubblewrap' };
  const bash = findExecutable('bash', ['/usr/bin/bash', '/bin/bash'], env.PATH);
  const prlimit = findExecutable('prlimit', ['/usr/bin/prlimit'], env.PATH);
  if (bash === null || prlimit === null) return { unavailable: 'bash and prlimit (util-linux) are needed inside the sandbox and were not found' };
  const python = findPython(env.PATH);
  const tools: HostTools = {
    bwrap,
    bash,
    prlimit,
    nodeDir: dirname(realpathSync(process.execPath)),
    etcDir: contentDir('wolfpack-sandbox-etc', SANDBOX_ETC_FILES),
    extraSystemDirs: python?.dirs ?? [],
    ...bwrapFeatures(bwrap),
  };
  const notes: string[] = [];
  const mode = groupMode(env);
  // Without setpriv, the owner could only be given by Node before the shell that joins the group runs, which then may not join.
  const setpriv = findExecutable('setpriv', ['/usr/bin/setpriv'], env.PATH);
  if (mode.kind === 'watchdog') notes.push(`no control group bounds the sandbox as a whole here (${mode.why}); a watchdog sampling its processes kills it past its memory and process limits`);
  if (!tools.hasSize) notes.push('this bwrap has no --size, so the project and /tmp tmpfs are bounded only by the kernel default (half the memory)');
  const emptyProject = contentDir('wolfpack-sandbox-empty', {});
  const isRoot = process.getuid?.() === 0;
  const owners = isRoot ? [{ uid: NOBODY, gid: NOBODY }, undefined] : [undefined];
  let lastError = '';
  for (const owner of owners) {
    const sandbox = new Bubblewrap(tools, options.limits ?? {}, owner && (setpriv || mode.kind === 'watchdog') ? owner : undefined, python?.path ?? null, notes, env, mode, setpriv);
    const result = await sandbox.run(emptyProject, { argv: ['node', '-e', 'process.exit(0)'], limits: { wallMs: 10_000 } });
    if (result.exitCode === 0) {
      if (isRoot && owner === undefined) {
        notes.push(
          mode.kind === 'watchdog'
            ? 'the process limit is not enforced per program: the server runs as root and the sandbox could not run as an unprivileged user, so a fork bomb is stopped only by the watchdog and the time limit'
            : "the per-program process limit is not enforced (the server runs as root and the sandbox could not run as an unprivileged user); the sandbox's control group still bounds its processes",
        );
      }
      if (python?.dirs.length) notes.push(`Python is not under /usr; its prefix ${python.dirs.join(', ')} is readable in the sandbox`);
      return { sandbox };
    }
    lastError = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ');
  }
  return { unavailable: `bubblewrap could not start a sandbox here (${lastError || 'no output'}); user namespaces may be disabled` };
}
