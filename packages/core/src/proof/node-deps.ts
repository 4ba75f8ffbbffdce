/**
 * A Node project's declared dependencies, installed outside the sandbox with scripts disabled
 * (so no generated or third-party code runs here), into a cache keyed by the dependency set.
 * The cached node_modules is then bound read-only into the sandbox: a project cannot alter what
 * the next one gets.
 *
 * Only registry packages are installed. `file:`, `link:`, git and URL specs would let a generated
 * package.json pull host files or arbitrary code into the sandbox; they are refused unless they
 * point inside a folder the caller allows (tests use a local package that way, offline).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { DEFAULT_TOOL_PATH, positiveIntFromEnv, type ProofEnv } from './sandbox-limits.js';
import { trimOutput } from './output.js';
import { findExecutable } from './sandbox.js';

export interface InstallOptions {
  /** @default `<tmp>/wolfpack-proof-deps` (a server gives WOLFPACK_PROOF_CACHE_DIR) */
  cacheDir?: string;
  /** Longest an install may take. @default 120 s (WOLFPACK_PROOF_INSTALL_TIME_LIMIT_MS) */
  timeoutMs?: number;
  /** Largest node_modules accepted. @default 400 MiB (WOLFPACK_PROOF_INSTALL_MAX_BYTES) */
  maxBytes?: number;
  /** Folders whose `file:` packages may be installed (absolute paths). @default none */
  allowLocalPackagesIn?: string[];
  /** @default `npm` on `env.PATH`, else in the server Node's folder or /usr/local/bin, /usr/bin, /bin */
  npmPath?: string;
  /** Extra environment for npm, e.g. `npm_config_registry`. The server's own environment is not passed. */
  env?: Record<string, string>;
}

export type InstallResult =
  | { status: 'none' }
  | { status: 'installed'; nodeModules: string; fromCache: boolean; command: string; durationMs: number }
  | { status: 'failed'; message: string; output?: string; command: string; durationMs: number };

const NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
// Registry specs: versions, ranges, dist-tags, and `npm:` aliases of those. Nothing with a scheme or a slash.
const REGISTRY_SPEC = /^(npm:(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*@)?[\w.^~<>=|*+\- ]*$/i;
const COMMAND = 'npm install --ignore-scripts --no-audit --no-fund --install-links --prefer-offline';

/** Why a dependency cannot be installed here, or null when it can. */
export function refuseSpec(name: string, spec: string, allowLocal: readonly string[]): string | null {
  if (!NAME.test(name)) return `"${name}" is not a valid package name`;
  if (REGISTRY_SPEC.test(spec)) return null;
  const local = /^file:(.*)$/.exec(spec)?.[1];
  if (local !== undefined && isAbsolute(local)) {
    const path = resolve(local);
    if (allowLocal.some((dir) => path === resolve(dir) || path.startsWith(resolve(dir) + sep))) return null;
  }
  return `"${name}": "${spec}" is not a registry version; this server installs packages from the npm registry only`;
}

/** The dependency set as one canonical string: the cache key, and what is installed. */
function dependencySet(dependencies: Record<string, string>): string {
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify({ v: 1, node: process.versions.node.split('.')[0], dependencies: sorted });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

// What npm needs from the server's environment to reach the registry (proxies, extra CAs, npm's
// own settings), and nothing else: the rest of it is the server's business, secrets included.
export const NETWORK_ENV = /^(https?_proxy|no_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|npm_config_.+)$/i;

function networkEnv(env: ProofEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => NETWORK_ENV.test(e[0]) && e[1] !== undefined));
}

/**
 * Install settings from a server's environment (which, in tests and embedded use, is not always
 * the process's): its npm registry, proxies and CAs, the cache folder and the limits.
 */
export function installOptionsFrom(env: ProofEnv): InstallOptions {
  const timeoutMs = positiveIntFromEnv(env, 'WOLFPACK_PROOF_INSTALL_TIME_LIMIT_MS');
  const maxBytes = positiveIntFromEnv(env, 'WOLFPACK_PROOF_INSTALL_MAX_BYTES');
  return {
    ...(env.WOLFPACK_PROOF_CACHE_DIR ? { cacheDir: env.WOLFPACK_PROOF_CACHE_DIR } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(maxBytes ? { maxBytes } : {}),
    env: { ...networkEnv(env), ...(env.PATH ? { PATH: env.PATH } : {}) },
  };
}

/** Runs a command to completion or the deadline (then kills its process group), collecting ≤ 1 MiB. */
function runTool(file: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }) {
  return new Promise<{ code: number | null; output: string; timedOut: boolean }>((done) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const add = (chunk: Buffer) => {
      if (output.length < 1 << 20) output += chunk.toString();
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, timedOut });
    });
  });
}

async function folderBytes(dir: string): Promise<number> {
  const du = await runTool('du', ['-sk', dir], { cwd: dir, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 });
  return Number(/^(\d+)/.exec(du.output)?.[1] ?? 0) * 1024;
}

/**
 * Installs `dependencies` (dependencies and devDependencies merged, name -> spec), or finds them
 * in the cache. Never throws for a project's fault: a refused spec, a failed or oversized
 * install come back as `{ status: 'failed', message }` whose message starts with
 * "dependencies could not be installed".
 */
export async function installDependencies(dependencies: Record<string, string>, options: InstallOptions = {}): Promise<InstallResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (Object.keys(dependencies).length === 0) return { status: 'none' };
  const fail = (message: string, output?: string): InstallResult => ({
    status: 'failed',
    message: `dependencies could not be installed: ${message}`,
    ...(output ? { output: trimOutput(output) } : {}),
    command: COMMAND,
    durationMs: elapsed(),
  });
  const refused = Object.entries(dependencies)
    .map(([name, spec]) => refuseSpec(name, spec, options.allowLocalPackagesIn ?? []))
    .filter((r) => r !== null);
  if (refused.length > 0) return fail(refused.join('; '));

  const cacheDir = options.cacheDir ?? join(tmpdir(), 'wolfpack-proof-deps');
  const set = dependencySet(dependencies);
  const key = createHash('sha256').update(set).digest('hex').slice(0, 32);
  const target = join(cacheDir, key);
  // A finished install is renamed into place in one step, so its folder existing means complete.
  if (await exists(join(target, 'node_modules'))) {
    return { status: 'installed', nodeModules: join(target, 'node_modules'), fromCache: true, command: COMMAND, durationMs: elapsed() };
  }

  // npm's own `#!/usr/bin/env node` finds the server's Node first.
  const path = options.env?.PATH ?? `${dirname(process.execPath)}:${DEFAULT_TOOL_PATH}`;
  const npm = options.npmPath ?? findExecutable('npm', [], path);
  if (npm === null) return fail('npm is not installed on this server');
  await mkdir(cacheDir, { recursive: true });
  await chmod(cacheDir, 0o755);
  const staging = join(cacheDir, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { mode: 0o755 });
  try {
    await chmod(staging, 0o755);
    const manifest = { name: 'wolfpack-proof-deps', private: true, dependencies: (JSON.parse(set) as { dependencies: Record<string, string> }).dependencies };
    await writeFile(join(staging, 'package.json'), JSON.stringify(manifest, null, 2));
    const timeoutMs = options.timeoutMs ?? 120_000;
    const env: Record<string, string> = {
      PATH: path,
      HOME: homedir(),
      // A registry that does not answer should fail the install in seconds, not after minutes of retries.
      npm_config_fetch_retries: '1',
      npm_config_fetch_timeout: '30000',
      npm_config_cache: join(cacheDir, '.npm'),
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
      // The sandbox user must read what npm writes, whatever the server's umask.
      npm_config_umask: '0022',
      ...options.env,
    };
    const args = COMMAND.split(' ').slice(1);
    const result = await runTool(npm, args, { cwd: staging, env, timeoutMs });
    if (result.timedOut) return fail(`npm did not finish within ${Math.round(timeoutMs / 1000)} s`, result.output);
    if (result.code !== 0) {
      const reason = /npm (?:ERR!|error) (?:code )?(E[A-Z0-9]+)/.exec(result.output)?.[1];
      return fail(`npm install failed${reason ? ` (${reason})` : ''}`, result.output);
    }
    await mkdir(join(staging, 'node_modules'), { recursive: true });
    const maxBytes = options.maxBytes ?? 400 << 20;
    const bytes = await folderBytes(join(staging, 'node_modules'));
    if (bytes > maxBytes) return fail(`they take ${Math.round(bytes / (1 << 20))} MiB, more than the ${Math.round(maxBytes / (1 << 20))} MiB this server allows`);
    try {
      await rename(staging, target);
    } catch (error) {
      // Another run installed the same set first; theirs is as good.
      if (!(await exists(join(target, 'node_modules')))) throw error;
    }
    return { status: 'installed', nodeModules: join(target, 'node_modules'), fromCache: false, command: COMMAND, durationMs: elapsed() };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
