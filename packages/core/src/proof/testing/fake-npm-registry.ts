/**
 * A local npm registry for tests: the network boundary Proven Code's installs cross, served over
 * loopback in the registry's own wire format (packuments and gzipped tarballs with integrity), so
 * the real `npm install` runs against it and the Node cases of the corpus run without the internet.
 * It is as strict as the real one: an unknown package is a 404, a tarball is checked by npm
 * against its sha512.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTarGzip } from 'nanotar';

/** Package name → version → files (paths inside the package; package.json is written for you). */
export type FakePackages = Record<string, Record<string, Record<string, string>>>;

export interface FakeNpmRegistry {
  /** Pass as `npm_config_registry`. */
  url: string;
  /** Paths requested, in order (packuments and tarballs). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * What the corpus's Node projects load when they run: a stand-in for chalk 5 (ESM, a default
 * export whose colours return the text), which is all they use of it. Projects that need a real
 * compiler or bundler from the registry (TypeScript's tsc, Vite) are left to `pnpm bench proof`.
 */
export const CORPUS_PACKAGES: FakePackages = {
  chalk: {
    '5.3.0': {
      'source/index.js': [
        'const paint = (text) => String(text);',
        "const chalk = new Proxy(paint, { get: (_target, name) => (name === 'level' ? 0 : chalk) });",
        'export default chalk;',
        '',
      ].join('\n'),
    },
  },
};

/** A package as it is published: its manifest and its gzipped tarball (see workspace-tree.ts). */
export interface PackedPackage {
  manifest: Record<string, unknown> & { name: string; version: string };
  tgz: Buffer;
}

export async function startFakeNpmRegistry(packages: FakePackages, packed: readonly PackedPackage[] = []): Promise<FakeNpmRegistry> {
  const requests: string[] = [];
  const tarballs = new Map<string, Buffer>();
  let base = '';
  const packuments = new Map<string, () => unknown>();
  const byName = new Map<string, Array<{ version: string; manifest: Record<string, unknown>; tgz: Buffer }>>();
  for (const [name, versions] of Object.entries(packages)) {
    for (const [version, files] of Object.entries(versions)) {
      const manifest = { name, version, type: 'module', main: Object.keys(files)[0], exports: `./${Object.keys(files)[0]}` };
      const entries = [{ name: 'package/package.json', data: JSON.stringify(manifest, null, 2) }, ...Object.entries(files).map(([path, data]) => ({ name: `package/${path}`, data }))];
      const tgz = Buffer.from(await createTarGzip(entries, { attrs: { mode: '644', mtime: 0 } }));
      byName.set(name, [...(byName.get(name) ?? []), { version, manifest, tgz }]);
    }
  }
  for (const { manifest, tgz } of packed) byName.set(manifest.name, [...(byName.get(manifest.name) ?? []), { version: manifest.version, manifest, tgz }]);
  for (const [name, versions] of byName) {
    const built: Record<string, { manifest: Record<string, unknown>; file: string; integrity: string; shasum: string }> = {};
    for (const { version, manifest, tgz } of versions) {
      const file = `${name.split('/').at(-1)}-${version}.tgz`;
      tarballs.set(`/${name}/-/${file}`, tgz);
      built[version] = {
        manifest,
        file,
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
      };
    }
    const latest = versions.at(-1)!.version;
    packuments.set(name, () => ({
      name,
      'dist-tags': { latest },
      versions: Object.fromEntries(
        Object.entries(built).map(([version, b]) => [version, { ...b.manifest, dist: { tarball: `${base}/${name}/-/${b.file}`, integrity: b.integrity, shasum: b.shasum } }]),
      ),
    }));
  }

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requests.push(path);
    const tarball = tarballs.get(path);
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      res.end(tarball);
      return;
    }
    const packument = packuments.get(path.slice(1));
    if (packument) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(packument()));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
