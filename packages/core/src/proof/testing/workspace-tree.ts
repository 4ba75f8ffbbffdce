/**
 * Real packages from this workspace's installs with their EXACT dependency tree, for the fake
 * registry (startFakeNpmRegistry's `packed`): every version pnpm linked, found the way Node finds
 * a dependency from the package's real folder. A tree where two packages need different majors
 * of a third (Koa's: http-errors 1 and 2, mime-types 2 and 3, content-type 1 and 2) then installs
 * as it does from the real registry, and a bundler gets this platform's native binaries (its
 * optional dependencies; other platforms' are left out of the manifests). Also packs hand-written
 * packages with their own package.json.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTarGzip } from 'nanotar';
import type { PackedPackage } from './fake-npm-registry.js';

type Manifest = PackedPackage['manifest'];

const WORKSPACE = fileURLToPath(new URL('../../../../../', import.meta.url));
const STORE = join(WORKSPACE, 'node_modules', '.pnpm');

/** The real folder of `name` as Node finds it from `from` (pnpm links a package's dependencies beside it). */
function findFrom(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/** `name` or `name@prefix`: the store folder whose version starts with the prefix, else what the workspace's packages import. */
function findRoot(spec: string): string | null {
  const at = spec.lastIndexOf('@');
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  if (version !== undefined) {
    const prefix = `${name.replace('/', '+')}@${version}`;
    const dir = readdirSync(STORE)
      .filter((d) => d.startsWith(prefix))
      .sort()
      .reverse()
      .map((d) => join(STORE, d, 'node_modules', name))
      .find((d) => existsSync(join(d, 'package.json')));
    return dir === undefined ? null : realpathSync(dir);
  }
  const starts = [...readdirSync(join(WORKSPACE, 'packages')).map((p) => join(WORKSPACE, 'packages', p)), WORKSPACE];
  return starts.map((start) => findFrom(name, start)).find((dir) => dir !== null) ?? null;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const optionalDependencies = (manifest: Manifest) => (manifest['optionalDependencies'] ?? {}) as Record<string, string>;

/**
 * The real folders of `specs` (`name` or `name@versionPrefix`) and of everything they need
 * (dependencies and required peers), by `name@version`. Throws when one is not installed here: a
 * test must not silently get less.
 */
export function workspaceFolders(specs: readonly string[]): Map<string, string> {
  const folders = new Map<string, string>();
  const visit = (dir: string) => {
    const manifest = readManifest(dir);
    const key = `${manifest.name}@${manifest.version}`;
    if (folders.has(key)) return;
    folders.set(key, dir);
    const meta = (manifest['peerDependenciesMeta'] ?? {}) as Record<string, { optional?: boolean }>;
    const needed = { ...(manifest['dependencies'] as Record<string, string> | undefined), ...(manifest['peerDependencies'] as Record<string, string> | undefined) };
    for (const name of Object.keys(needed)) {
      if (meta[name]?.optional) continue;
      const found = findFrom(name, dir);
      if (found === null) throw new Error(`${name} (needed by ${key}) is not installed in this workspace, so the tests cannot serve it`);
      visit(found);
    }
    // This platform's native binaries (Vite's rolldown and lightningcss) come as optional dependencies.
    for (const name of Object.keys(optionalDependencies(manifest))) {
      const found = findFrom(name, dir);
      if (found !== null) visit(found);
    }
  };
  for (const spec of specs) {
    const dir = findRoot(spec);
    if (dir === null) throw new Error(`${spec} is not installed in this workspace (node_modules), so the tests cannot serve it`);
    visit(dir);
  }
  return folders;
}

function filesOf(dir: string, root = dir, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesOf(path, root, out);
    else if (entry.isFile()) out.push(relative(root, path));
  }
  return out.sort();
}

async function pack(manifest: Manifest, files: { path: string; data: string | Uint8Array }[]): Promise<PackedPackage> {
  const entries = files.map(({ path, data }) => ({ name: `package/${path}`, data: path === 'package.json' ? JSON.stringify(manifest, null, 2) : data }));
  return { manifest, tgz: Buffer.from(await createTarGzip(entries, { attrs: { mode: '644', mtime: 0 } })) };
}

/** Packs of a real folder, kept for the process: several test files serve the same packages. */
const packs = new Map<string, Promise<PackedPackage>>();

/** The packages of {@link workspaceFolders}, packed as published (scripts dropped: installs run none anyway). */
export async function workspaceTree(specs: readonly string[]): Promise<PackedPackage[]> {
  return Promise.all(
    [...workspaceFolders(specs).values()].map((dir) => {
      let packed = packs.get(dir);
      if (!packed) {
        const manifest = readManifest(dir);
        delete manifest['scripts'];
        // Other platforms' binaries are not installed here, so not served: npm skips them unasked.
        const optional = Object.entries(optionalDependencies(manifest)).filter(([name]) => findFrom(name, dir) !== null);
        if (manifest['optionalDependencies']) manifest['optionalDependencies'] = Object.fromEntries(optional);
        packed = pack(manifest, filesOf(dir).map((path) => ({ path, data: readFileSync(join(dir, path)) })));
        packs.set(dir, packed);
      }
      return packed;
    }),
  );
}

/** A hand-written package (path → text, its own package.json among them) as published. */
export function packFiles(name: string, version: string, files: Readonly<Record<string, string>>): Promise<PackedPackage> {
  const manifest: Manifest = { ...(JSON.parse(files['package.json'] ?? '{}') as object), name, version };
  return pack(manifest, [{ path: 'package.json', data: '' }, ...Object.entries(files).filter(([path]) => path !== 'package.json').map(([path, data]) => ({ path, data }))]);
}
