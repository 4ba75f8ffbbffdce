/**
 * The bubblewrap command line: what a sandboxed program sees and may touch. Kept apart from the
 * process handling in sandbox.ts so the whole policy reads in one place.
 *
 * Inside: /usr (and the /bin, /lib* links) read-only, a handful of generated /etc files, Node's
 * own directory read-only at {@link SANDBOX_NODE_DIR}, /proc of its own pid namespace, a minimal
 * /dev, and two size-limited tmpfs mounts: /tmp and the project at {@link SANDBOX_PROJECT_DIR}.
 * The project is copied from a read-only bind of the host copy into its tmpfs by the first
 * command, so nothing the program writes ever reaches the host's disk and the writable space is
 * bounded. No network (a fresh namespace with only loopback), no capabilities, no user namespaces
 * of its own, an empty environment but for what {@link sandboxEnv} puts there.
 */
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { nodeHeapOption, prlimitArgs, type SandboxLimits } from './sandbox-limits.js';

/** Where the project is inside the sandbox. */
export const SANDBOX_PROJECT_DIR = '/project';
/** Where the server's own Node binary is inside the sandbox (on PATH). */
export const SANDBOX_NODE_DIR = '/opt/node/bin';
/** Where the read-only host copy is bound, to be copied into the project tmpfs. */
const SEED_DIR = '/run/project-seed';
const DEPS_DIR = '/run/deps/node_modules';
/** The sandbox's user: not root inside, so no capabilities even in its own namespaces. */
const INNER_UID = 1000;
/** Exit status of the prelude when the sandbox could not even start the command. */
export const PRELUDE_FAILED = 125;
export const PRELUDE_MARK = 'wolfpack-sandbox:';
/** The line (on stderr) by which the prelude says a tmpfs of the sandbox was full when the program ended. */
export const DISK_FULL_MARK = `${PRELUDE_MARK} full`;

export interface ReadOnlyBind {
  /** Host path. */
  source: string;
  /** Absolute path inside the sandbox, e.g. `/project/node_modules`. */
  target: string;
}

export interface HostTools {
  bwrap: string;
  bash: string;
  prlimit: string;
  nodeDir: string;
  /** Directory with the generated /etc files (passwd, group, hosts, nsswitch.conf). */
  etcDir: string;
  /** Host directories a Python outside /usr needs, bound read-only at the same path. */
  extraSystemDirs: string[];
  /** Whether this bwrap has `--size` (0.8 and later) and `--disable-userns`. */
  hasSize: boolean;
  hasDisableUserns: boolean;
}

export interface BwrapCommand {
  tools: HostTools;
  limits: SandboxLimits;
  /** Host copy of the project; absent for programs that need no project (the browser). */
  seed?: string;
  /** Working directory relative to the project root. */
  cwd?: string;
  env: Record<string, string>;
  binds: readonly ReadOnlyBind[];
  /**
   * Installed packages (host path), shown at /project/node_modules as links into a read-only bind:
   * the packages cannot be changed, but tools that write caches there (vite, vitest) still can.
   */
  nodeModules?: string;
  /** File descriptors beyond stdio the program inherits on purpose (Playwright's pipe: 3 and 4). */
  keepFds?: readonly number[];
  /** `--info-fd` for the child's pid, so the caller can watch its network namespace. */
  infoFd?: number;
  /** Skip rlimits that the program cannot live with (Chromium reserves terabytes of address space). */
  addressSpaceUnlimited?: boolean;
}

// Debian links /bin, /lib, /lib64, /sbin into /usr; other systems have real directories.
const SYSTEM_ROOTS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
// Read-only /etc pieces some runtimes look up; none holds a secret. The rest of /etc is hidden
// (it names the machine's users, services and, in deployments, often credentials).
const ETC_PASSTHROUGH = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/localtime', '/etc/fonts', '/var/cache/fontconfig'];
const ETC_GENERATED = ['passwd', 'group', 'hosts', 'nsswitch.conf'];

/** The generated /etc files: one user, loopback names, and lookups from files only. */
export const SANDBOX_ETC_FILES: Readonly<Record<string, string>> = {
  passwd: `root:x:0:0::/nonexistent:/usr/sbin/nologin\nsandbox:x:${INNER_UID}:${INNER_UID}::/tmp/home:/bin/sh\n`,
  group: `root:x:0:\nsandbox:x:${INNER_UID}:\n`,
  // Servers that bind "localhost" must resolve it without DNS, which does not exist in here.
  hosts: '127.0.0.1 localhost sandbox\n::1 localhost ip6-localhost ip6-loopback\n',
  'nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files\n',
};

function systemMounts(extra: readonly string[]): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const root of SYSTEM_ROOTS) {
    let stat;
    try {
      stat = lstatSync(root);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(root), root);
    else if (stat.isDirectory()) args.push('--ro-bind', root, root);
  }
  for (const path of ETC_PASSTHROUGH) if (existsSync(path)) args.push('--ro-bind', path, path);
  for (const dir of extra) args.push('--ro-bind', dir, dir);
  return args;
}

/** Single-quotes a word for sh. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell that runs first inside the sandbox: closes every inherited descriptor it was not told
 * to keep (Node leaves a server's inherited non-CLOEXEC descriptors open in children, and bwrap
 * passes them on), copies the project into its tmpfs, then execs the command under prlimit.
 * The loop has no redirection on purpose: bash would park stderr in a descriptor the loop closes.
 */
function prelude(command: BwrapCommand): string {
  const keep = ` ${(command.keepFds ?? []).join(' ')} `;
  const lines = [
    `for f in /proc/self/fd/*; do n=\${f##*/}; case ${shellQuote(keep)} in *" $n "*) ;; *) [ "$n" -gt 2 ] && eval "exec $n>&-";; esac; done`,
    'mkdir -p /tmp/home',
  ];
  if (command.seed !== undefined) {
    lines.push(
      `cp -R ${SEED_DIR}/. ${SANDBOX_PROJECT_DIR}/ || { echo "${PRELUDE_MARK} the project does not fit in the sandbox's ${command.limits.diskBytes} bytes" >&2; exit ${PRELUDE_FAILED}; }`,
      ...(command.nodeModules !== undefined
        ? [`mkdir -p ${SANDBOX_PROJECT_DIR}/node_modules && ln -s ${DEPS_DIR}/* ${DEPS_DIR}/.[!.]* ${SANDBOX_PROJECT_DIR}/node_modules/ 2>/dev/null`]
        : []),
      `cd ${shellQuote(`${SANDBOX_PROJECT_DIR}/${command.cwd ?? ''}`)} || { echo "${PRELUDE_MARK} no folder ${shellQuote(command.cwd ?? '')} in the project" >&2; exit ${PRELUDE_FAILED}; }`,
    );
  }
  const limits = prlimitArgs(command.limits).filter((a) => !(command.addressSpaceUnlimited && a.startsWith('--as=')));
  if (command.seed === undefined) {
    lines.push(`exec ${command.tools.prlimit} ${limits.join(' ')} -- "$@"`);
    return lines.join('\n');
  }
  // With a project, the shell waits for the program, then measures its tmpfs mounts: "the disk
  // was full" is said only when statfs found one with under 1 MiB (or 2 %) left, never because a
  // program printed ENOSPC. Its status passes through (128 + a signal's number, as bwrap's would).
  lines.push(
    // Bash's own stderr is /dev/null meanwhile, so its "Aborted" or "Killed" line is not taken for
    // the program's; and the "_" variable bash hands its commands is none of the program's business.
    `{ (exec 2>&3 3>&-; exec env -u _ ${command.tools.prlimit} ${limits.join(' ')} -- "$@"); } 3>&2 2>/dev/null`,
    'status=$?',
    // Only a failed program is asked about (one stat for both mounts: its exit is not delayed by more).
    `[ $status -ne 0 ] && fs=$(stat -f -c '%a %b %S' ${SANDBOX_PROJECT_DIR} /tmp 2>/dev/null) && set -- $fs && for mount in ${SANDBOX_PROJECT_DIR} /tmp; do [ $(($1 * $3)) -lt 1048576 -o $(($1 * 50)) -lt $2 ] && echo "${DISK_FULL_MARK} $mount" >&2; shift 3; done`,
    'exit $status',
  );
  return lines.join('\n');
}

/** The environment a sandboxed program gets: never the server's, only this and what the caller adds. */
export function sandboxEnv(limits: SandboxLimits, extra: Record<string, string> = {}): Record<string, string> {
  const nodeOptions = [nodeHeapOption(limits), extra.NODE_OPTIONS ?? ''].join(' ').trim();
  return {
    PATH: `${SANDBOX_PROJECT_DIR}/node_modules/.bin:${SANDBOX_NODE_DIR}:/usr/local/bin:/usr/bin:/bin`,
    HOME: '/tmp/home',
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    LANG: 'C.UTF-8',
    TMPDIR: '/tmp',
    // Buffered output would be lost when a program is killed at its deadline.
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    NO_COLOR: '1',
    ...extra,
    NODE_OPTIONS: nodeOptions,
  };
}

/** bwrap's arguments, ending with the command to run (`argv` still to be appended by the caller). */
export function bwrapArgs(command: BwrapCommand): string[] {
  const { tools, limits } = command;
  const args = ['--unshare-all', '--unshare-user', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  args.push('--uid', String(INNER_UID), '--gid', String(INNER_UID), '--hostname', 'sandbox');
  if (tools.hasDisableUserns) args.push('--disable-userns');
  args.push(...systemMounts(tools.extraSystemDirs));
  for (const name of ETC_GENERATED) args.push('--ro-bind', `${tools.etcDir}/${name}`, `/etc/${name}`);
  args.push('--proc', '/proc', '--dev', '/dev');
  // bwrap's /dev/shm belongs to root; Python's multiprocessing and Chromium need a writable one.
  if (tools.hasSize) args.push('--size', String(limits.tmpBytes));
  args.push('--perms', '1777', '--tmpfs', '/dev/shm');
  if (tools.hasSize) args.push('--size', String(limits.tmpBytes));
  args.push('--tmpfs', '/tmp');
  args.push('--ro-bind', tools.nodeDir, SANDBOX_NODE_DIR);
  if (command.seed !== undefined) {
    if (tools.hasSize) args.push('--size', String(limits.diskBytes));
    args.push('--tmpfs', SANDBOX_PROJECT_DIR, '--ro-bind', command.seed, SEED_DIR);
  }
  if (command.nodeModules !== undefined) args.push('--ro-bind', command.nodeModules, DEPS_DIR);
  for (const bind of command.binds) args.push('--ro-bind', bind.source, bind.target);
  args.push('--clearenv');
  for (const [key, value] of Object.entries(command.env)) args.push('--setenv', key, value);
  if (command.infoFd !== undefined) args.push('--info-fd', String(command.infoFd));
  // The root itself is bwrap's tmpfs, unbounded: only the mounts above stay writable.
  args.push('--remount-ro', '/');
  args.push('--chdir', '/', tools.bash, '-c', prelude(command), 'sandbox');
  return args;
}
