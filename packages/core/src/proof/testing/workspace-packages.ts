/**
 * Real packages for the fake npm registry, packed from this workspace's own installs (pnpm's
 * store under node_modules/.pnpm): the tests' bundled apps then install the real Vite, React and
 * their dependencies with the real npm, offline and at fixed versions. Each package is packed as
 * published (its files and its package.json), with its whole dependency closure; optional
 * dependencies this machine does not have (other platforms' binaries) are left out of the
 * manifests served, as npm would skip them anyway.
 */
import { readdirSync, readFileSync, realpathSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTarGzip } from 'nanotar';
import type { PackedPackage } from './fake-npm-registry.js';

const STORE = fileURLToPath(new URL('../../../../../node_modules/.pnpm/', import.meta.url));

interface Found {
  dir: string;
  manifest: Record<string, unknown> & { name: string; version: string };
}

/** The store folder of `name`, preferring one whose version starts with `version`. */
function findInStore(name: string, version?: string): string | undefined {
  const prefix = `${name.replace('/', '+')}@`;
  const candidates = readdirSync(STORE).filter((d) => d.startsWith(prefix) && (version === undefined || d.slice(prefix.length).startsWith(version)));
  const dir = candidates.map((d) => join(STORE, d, 'node_modules', name)).find((d) => existsSync(join(d, 'package.json')));
  return dir && realpathSync(dir);
}

function readManifest(dir: string): Found['manifest'] {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Found['manifest'];
}

/** A dependency as pnpm linked it beside `dir` (…/node_modules/<dep>), else any in the store. */
function dependencyDir(dir: string, dep: string): string | undefined {
  const beside = join(dir.slice(0, dir.lastIndexOf('/node_modules/') + '/node_modules/'.length), dep);
  if (existsSync(join(beside, 'package.json'))) return realpathSync(beside);
  return findInStore(dep);
}

function filesOf(dir: string, root = dir, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) filesOf(path, root, out);
    else if (stat.isFile()) out.push(relative(root, path));
  }
  return out;
}

const cache = new Map<string, Promise<PackedPackage>>();

async function pack(found: Found, served: ReadonlySet<string>): Promise<PackedPackage> {
  const manifest = { ...found.manifest };
  // What npm would fail to fetch here (another platform's binary) is not offered.
  const optional = manifest['optionalDependencies'] as Record<string, string> | undefined;
  if (optional) manifest['optionalDependencies'] = Object.fromEntries(Object.entries(optional).filter(([name]) => served.has(name)));
  delete manifest['scripts'];
  const entries = filesOf(found.dir).map((path) => ({
    name: `package/${path}`,
    data: path === 'package.json' ? JSON.stringify(manifest, null, 2) : readFileSync(join(found.dir, path)),
  }));
  return { manifest, tgz: Buffer.from(await createTarGzip(entries, { attrs: { mode: '644', mtime: 0 } })) };
}

/**
 * The packages `names` (with a version prefix after `@`, e.g. `vite@8`) and everything they
 * depend on, packed. Throws when one is not in the workspace: a test must not silently get less.
 */
export async function workspacePackages(names: readonly string[]): Promise<PackedPackage[]> {
  const found = new Map<string, Found>();
  const queue: Array<{ name: string; dir: string | undefined }> = names.map((spec) => {
    const at = spec.lastIndexOf('@');
    const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
    return { name, dir: findInStore(name, version) };
  });
  while (queue.length > 0) {
    const { name, dir } = queue.shift()!;
    if (found.has(name)) continue;
    if (dir === undefined) throw new Error(`${name} is not installed in this workspace (node_modules/.pnpm), so the tests cannot serve it`);
    const manifest = readManifest(dir);
    found.set(name, { dir, manifest });
    const required = { ...(manifest['dependencies'] as Record<string, string> | undefined), ...(manifest['peerDependencies'] as Record<string, string> | undefined) };
    const optionalPeers = new Set(Object.entries((manifest['peerDependenciesMeta'] as Record<string, { optional?: boolean }> | undefined) ?? {}).filter(([, m]) => m.optional).map(([n]) => n));
    for (const dep of Object.keys(required)) {
      // npm installs an optional peer only when something else depends on it.
      if (found.has(dep) || optionalPeers.has(dep)) continue;
      queue.push({ name: dep, dir: dependencyDir(dir, dep) });
    }
    for (const dep of Object.keys((manifest['optionalDependencies'] as Record<string, string> | undefined) ?? {})) {
      const depDir = dependencyDir(dir, dep);
      if (depDir !== undefined && !found.has(dep)) queue.push({ name: dep, dir: depDir });
    }
  }
  const served = new Set(found.keys());
  return Promise.all(
    [...found.values()].map((f) => {
      const key = `${f.dir}\0${[...served].sort().join(',')}`;
      let packed = cache.get(key);
      if (!packed) {
        packed = pack(f, served);
        cache.set(key, packed);
      }
      return packed;
    }),
  );
}
