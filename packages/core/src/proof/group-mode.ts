/**
 * Which way this machine bounds a sandbox as a whole (see sandbox-group.ts): cgroup v2 where its
 * memory and pids controllers can be handed to our groups, else v1, else the /proc watchdog; and
 * the one start-up line that says so.
 */
import { mkdirSync, realpathSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProofEnv } from './sandbox-limits.js';
import { read, V1_CONTROLLERS, type GroupLimits, type GroupMode, type V1Controller } from './sandbox-group.js';

const CGROUP_ROOT = '/sys/fs/cgroup';

/** Where this process can make groups: a folder it can create and remove a group in, per controller. */
function writableParent(dir: string): boolean {
  const probe = join(dir, `probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * The mode this machine offers. `WOLFPACK_PROOF_CGROUP=off` forces the watchdog;
 * `WOLFPACK_PROOF_CGROUP_PARENT` names the folder, inside each hierarchy, where groups are made
 * (a delegated subtree). @default `wolfpack-sandbox` at the hierarchy's root
 */
export function findGroupMode(env: ProofEnv = {}, root = CGROUP_ROOT): GroupMode {
  if (env.WOLFPACK_PROOF_CGROUP === 'off') return { kind: 'watchdog', why: 'turned off with WOLFPACK_PROOF_CGROUP=off' };
  const parent = (env.WOLFPACK_PROOF_CGROUP_PARENT ?? 'wolfpack-sandbox').replace(/^\/+|\/+$/g, '');
  // v2: the unified hierarchy at the root, or beside v1 at /unified; usable only with its memory and pids controllers.
  for (const v2 of [root, join(root, 'unified')]) {
    const controllers = read(join(v2, 'cgroup.controllers'))?.trim().split(/\s+/) ?? [];
    if (!controllers.includes('memory') || !controllers.includes('pids')) continue;
    const dir = join(v2, parent);
    const wanted = ['memory', 'pids', ...(controllers.includes('cpu') ? ['cpu'] : [])];
    try {
      mkdirSync(dir, { recursive: true });
      // Each level from the root down to the groups' parent hands the controllers on (none of them holds a process).
      const parts = parent.split('/');
      // In a delegated subtree the levels above are not ours and already hand them on: what counts is the last.
      for (let depth = 0; depth <= parts.length; depth++) {
        try {
          writeFileSync(join(v2, ...parts.slice(0, depth), 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
        } catch {
          // checked below
        }
      }
      // The kernel lists them bare ("memory pids"); a plain folder standing in for it keeps what was written.
      const handed = read(join(dir, 'cgroup.subtree_control'))?.trim().split(/\s+/).map((c) => c.replace(/^\+/, '')) ?? [];
      if (handed.includes('memory') && handed.includes('pids') && writableParent(dir)) return { kind: 'cgroup2', dir };
    } catch {
      // not ours to write: try v1
    }
  }
  const dirs: Partial<Record<V1Controller, string>> = {};
  for (const controller of V1_CONTROLLERS) {
    let mount: string;
    try {
      // Co-mounted controllers (cpu,cpuacct) are one hierarchy under two names: one folder serves both.
      mount = realpathSync(join(root, controller));
    } catch {
      continue;
    }
    if (read(join(mount, 'cgroup.procs')) === undefined) continue;
    if (writableParent(join(mount, parent))) dirs[controller] = join(mount, parent);
  }
  if (dirs.memory !== undefined && dirs.pids !== undefined) return { kind: 'cgroup1', dirs: { ...dirs, memory: dirs.memory, pids: dirs.pids } };
  const uid = process.getuid?.();
  return {
    kind: 'watchdog',
    why: uid === 0 ? 'no writable memory and pids control group was found under /sys/fs/cgroup' : 'the server is not root and has no delegated control group (set WOLFPACK_PROOF_CGROUP_PARENT to one)',
  };
}

let cachedMode: { key: string; mode: GroupMode } | undefined;

/** {@link findGroupMode}, found once per setting. */
export function groupMode(env: ProofEnv = {}): GroupMode {
  const key = `${env.WOLFPACK_PROOF_CGROUP ?? ''}\0${env.WOLFPACK_PROOF_CGROUP_PARENT ?? ''}`;
  if (cachedMode?.key !== key) cachedMode = { key, mode: findGroupMode(env) };
  return cachedMode.mode;
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

/** One line for the server's start-up: which mode bounds each sandbox, and with what. */
export function groupModeLine(mode: GroupMode, limits: GroupLimits, perProgram: { memoryBytes: number; addressSpaceBytes: number; processes: number }): string {
  const whole = `${mib(limits.memoryBytes)} of memory (tmpfs included), ${limits.processes} processes, ${limits.cpuPercent / 100} CPU core${limits.cpuPercent === 100 ? '' : 's'}`;
  switch (mode.kind) {
    case 'cgroup2':
    case 'cgroup1':
      return `Sandbox limits: each sandbox runs in a control group of its own (cgroup ${mode.kind === 'cgroup2' ? 'v2' : 'v1'}) with ${whole}, killed whole at its time limit or any of these.`;
    case 'watchdog':
      return `Sandbox limits: no control group here (${mode.why}), so memory (a ${mib(perProgram.memoryBytes)} heap, ${mib(perProgram.addressSpaceBytes)} of address space) and processes (${perProgram.processes}) are limited per program only, CPU is not shared out, and a watchdog sampling each sandbox's processes kills it past ${mib(limits.memoryBytes)} of memory (RSS and tmpfs) or ${limits.processes} processes.`;
    default: {
      const unreachable: never = mode;
      return unreachable;
    }
  }
}
