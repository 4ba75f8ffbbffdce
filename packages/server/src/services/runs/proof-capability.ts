/**
 * What Proven Code can do on this server, found once: whether generated code can run
 * (a working bubblewrap sandbox, asked of core's findSandbox, as every run asks it) and whether
 * pages can be loaded (Chromium). When something is missing the server says so in one start-up
 * line, and clients get the same sentence with GET /api/engines, so a newcomer learns why every
 * verdict is "not proven" and the one command that fixes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ProofCapability } from '@wolfpack/core';
import { CHROMIUM_CANDIDATES, DEFAULT_TOOL_PATH, findSandbox, groupMode, sandboxLimitsLine, type ProofEnv } from '@wolfpack/core/proof';

/**
 * Where Proven Code's page check looks for Chromium, in its order (core's proof/check-page.ts,
 * which does not export its list).
 */
/** Where the page checks look for Chromium (core's list, so both agree). */
export const CHROMIUM_PATHS = CHROMIUM_CANDIDATES;

/** Why generated code cannot run here, as far as it can be told (see {@link describeProof}). */
export type SandboxState =
  | { kind: 'ready' }
  /** WOLFPACK_SANDBOX=off: the operator turned it off. */
  | { kind: 'off' }
  /** Debian packages the sandbox needs and this machine lacks. */
  | { kind: 'missing'; packages: string[] }
  /** bubblewrap is installed but cannot start a sandbox (user namespaces refused); `fix` is how to allow them. */
  | { kind: 'blocked'; fix: string };

/**
 * The capability clients see and the sentence everyone reads, from what was found. Pure: the words
 * of every case live here. The fix is one command a person can paste where there is one.
 */
export function describeProof(sandbox: SandboxState, browser: boolean): ProofCapability {
  const noBrowser = 'Chromium is not installed';
  if (sandbox.kind === 'ready') {
    if (browser) return { sandbox: true, browser: true, notice: null };
    const fix = 'sudo apt-get install chromium';
    return {
      sandbox: true,
      browser: false,
      reason: noBrowser,
      fix,
      notice: `Proven Code cannot load web pages on this server (${noBrowser}): a project's pages are not opened in a browser. Fix: ${fix}`,
    };
  }
  let reason: string;
  let fix: string;
  switch (sandbox.kind) {
    case 'off':
      reason = 'the sandbox is turned off with WOLFPACK_SANDBOX=off';
      fix = `${browser ? '' : 'sudo apt-get install chromium, then '}restart the server without WOLFPACK_SANDBOX=off`;
      break;
    case 'missing': {
      const names = [...sandbox.packages.map((p) => (p === 'util-linux' ? 'prlimit' : p)), ...(browser ? [] : ['Chromium'])];
      reason = `${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`} ${names.length === 1 ? 'is' : 'are'} not installed`;
      fix = `sudo apt-get install ${[...sandbox.packages, ...(browser ? [] : ['chromium'])].join(' ')}`;
      break;
    }
    case 'blocked':
      reason = 'bubblewrap cannot start a sandbox here, most likely because user namespaces are refused';
      fix = browser ? sandbox.fix : `${sandbox.fix}; also sudo apt-get install chromium`;
      break;
    default: {
      const unreachable: never = sandbox;
      return unreachable;
    }
  }
  if (!browser && sandbox.kind !== 'missing') reason += `; ${noBrowser}`;
  return { sandbox: false, browser, reason, fix, notice: `Proven Code cannot run generated code on this server (${reason}), so verdicts are "not proven". Fix: ${fix}` };
}

export interface ProofCapabilityOptions {
  /** Proven Code's settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*), as the runs get them. @default {} (every default) */
  env?: ProofEnv;
  /** Where Chromium may be. @default {@link CHROMIUM_PATHS} */
  chromiumPaths?: readonly string[];
  /** Where kernel settings are read (tests point it at a folder of their own). @default '/proc/sys' */
  sysctlDir?: string;
  /** Files whose presence says the server runs in a container. @default Docker's and Podman's */
  containerMarkers?: readonly string[];
}

/** The start-up line and the clients' field, found once per server and shared (see {@link describeProof}). */
export class ProofCapabilityService {
  private found: Promise<{ capability: ProofCapability; detail: string | undefined }> | undefined;

  constructor(private readonly options: ProofCapabilityOptions = {}) {}

  /** What clients are told (GET /api/engines). */
  async capability(): Promise<ProofCapability> {
    return (await this.find()).capability;
  }

  /**
   * The one line for the start-up log, or null when Proven Code has everything. It adds
   * bubblewrap's own words when it could not start (they may name paths: the operator's log only).
   */
  async startupLine(): Promise<string | null> {
    const { capability, detail } = await this.find();
    if (capability.notice === null) return null;
    return detail ? `${capability.notice} (bubblewrap said: ${detail})` : capability.notice;
  }

  /**
   * The start-up line saying what bounds each sandbox as a whole: a control group of its own (info),
   * or only per-program limits and a watchdog (a warning); null when nothing runs here at all.
   */
  async limitsLine(): Promise<{ level: 'info' | 'warn'; line: string } | null> {
    if (!(await this.capability()).sandbox) return null;
    const env = this.options.env ?? {};
    return { level: groupMode(env).kind === 'watchdog' ? 'warn' : 'info', line: sandboxLimitsLine(env) };
  }

  private find() {
    // Never rejects: a probe that breaks leaves the server running, saying it cannot tell.
    this.found ??= this.probe().catch((error: unknown) => ({
      capability: describeProof({ kind: 'blocked', fix: namespaceFix(this.options.sysctlDir, this.options.containerMarkers) }, this.browser()),
      detail: error instanceof Error ? error.message : String(error),
    }));
    return this.found;
  }

  private browser(): boolean {
    return (this.options.chromiumPaths ?? CHROMIUM_PATHS).some((path) => existsSync(path));
  }

  private async probe(): Promise<{ capability: ProofCapability; detail: string | undefined }> {
    const env = this.options.env ?? {};
    const browser = this.browser();
    if (env.WOLFPACK_SANDBOX === 'off') return { capability: describeProof({ kind: 'off' }, browser), detail: undefined };
    const found = await findSandbox({ env });
    if ('sandbox' in found) return { capability: describeProof({ kind: 'ready' }, browser), detail: undefined };
    // findSandbox's reason is a sentence for reports; which case it is, is told from the machine.
    const packages = [
      ...(installed('bwrap', env.PATH) ? [] : ['bubblewrap']),
      ...(installed('bash', env.PATH) ? [] : ['bash']),
      ...(installed('prlimit', env.PATH) ? [] : ['util-linux']),
    ];
    if (packages.length > 0) return { capability: describeProof({ kind: 'missing', packages }, browser), detail: undefined };
    return { capability: describeProof({ kind: 'blocked', fix: namespaceFix(this.options.sysctlDir, this.options.containerMarkers) }, browser), detail: found.unavailable };
  }
}

/**
 * The command that allows the user namespaces bubblewrap needs, from the kernel setting that
 * refuses them; in a container, the options Docker needs (docs/DEPLOYMENT.md).
 */
export function namespaceFix(sysctlDir = '/proc/sys', containerMarkers: readonly string[] = ['/.dockerenv', '/run/.containerenv']): string {
  const setting = (name: string) => {
    try {
      return readFileSync(join(sysctlDir, ...name.split('.')), 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  // Ubuntu 23.10 and later refuse them to programs without an AppArmor profile allowing it.
  if (setting('kernel.apparmor_restrict_unprivileged_userns') === '1') return 'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0';
  // Debian's own switch (off by default before Debian 11).
  if (setting('kernel.unprivileged_userns_clone') === '0') return 'sudo sysctl -w kernel.unprivileged_userns_clone=1';
  if (setting('user.max_user_namespaces') === '0') return 'sudo sysctl -w user.max_user_namespaces=15000';
  // The kernel allows them: in a container, Docker's defaults (seccomp, masked /proc) are the usual cause.
  if (containerMarkers.some((path) => existsSync(path))) return 'run the container with --security-opt seccomp=unconfined --security-opt systempaths=unconfined';
  return 'allow unprivileged user namespaces on this machine (bubblewrap needs them)';
}

/** Whether `name` is where core's sandbox looks for it: /usr/bin, else the PATH it was given. */
function installed(name: string, path = DEFAULT_TOOL_PATH): boolean {
  return [`/usr/bin/${name}`, `/bin/${name}`, ...path.split(delimiter).filter(Boolean).map((dir) => join(dir, name))].some((found) => existsSync(found));
}
