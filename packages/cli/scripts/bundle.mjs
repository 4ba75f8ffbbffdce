#!/usr/bin/env node
/**
 * The `wolfpack` binary as people run it: `dist/bin.js` and its chunks, bundled with esbuild from
 * the TypeScript sources. The CLI's build (`pnpm build`) writes it into packages/cli/dist, and
 * `pnpm pack:cli` puts the same bundle in its tarball, so the tests run what users install.
 *
 * Why a bundle rather than tsc's files: a command's start is mostly module loading (resolving and
 * reading some 180 files of the CLI, core and zod); from a few files it starts sooner
 * (docs/PERFORMANCE.md, "Start-up").
 *
 * The server stays out: in the repository `wolfpack serve` loads @wolfpack/server's own build;
 * from the tarball it says it needs the full install. Chunks are split at the CLI's dynamic
 * imports, so `wolfpack --help` loads the program alone and each command only what it uses.
 *
 *   node scripts/bundle.mjs           writes packages/cli/dist/bin.js and dist/chunks/
 *   node scripts/bundle.mjs --watch   and again on every change (`pnpm dev`)
 */
import { rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, context } from 'esbuild';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(cliDir, '..', '..');
/** Beside the bundle in the repository: what each of its files was made from (src/testing/loaded-modules.ts reads it). */
const BUNDLE_INPUTS = 'bundle-inputs.json';

/**
 * Writes `bin.js` and `chunks/` into `outDir` (chunks of an earlier bundle removed first). Returns
 * what each file was made from: `{ "chunks/x.js": ["zod", "packages/core/src/errors.ts", …] }`.
 */
export async function bundleCli(outDir) {
  await rm(join(outDir, 'chunks'), { recursive: true, force: true });
  const result = await build(options(outDir));
  const server = Object.keys(result.metafile.inputs).filter((path) => path.includes('packages/server/'));
  if (server.length > 0) throw new Error(`The CLI bundle would contain server code: ${server.slice(0, 3).join(', ')}`);
  return Object.fromEntries(
    Object.entries(result.metafile.outputs).map(([file, output]) => [
      relative(outDir, join(cliDir, file)).split(sep).join('/'),
      [...new Set(Object.keys(output.inputs).map(origin))].sort(),
    ]),
  );
}

/** A package's name for a file under node_modules, else the file's path in the repository. */
function origin(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return relative(repoDir, join(cliDir, input)).split(sep).join('/');
  const [scope, name] = input.slice(at + 'node_modules/'.length).split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/** @returns {import('esbuild').BuildOptions & { metafile: true }} */
function options(outDir) {
  return {
    entryPoints: { bin: join(cliDir, 'src', 'bin.ts') },
    absWorkingDir: cliDir,
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The workspace packages' TypeScript sources, as the tests use them.
    conditions: ['@wolfpack/source'],
    jsx: 'automatic',
    // The server stays out; Ink loads its devtools only when asked to (DEV=true).
    external: ['@wolfpack/server', 'react-devtools-core'],
    define: { 'process.env.NODE_ENV': '"production"' },
    // CommonJS libraries inside an ES module bundle still call require() for Node's modules.
    banner: { js: "import { createRequire as __wolfpackRequire } from 'node:module'; const require = __wolfpackRequire(import.meta.url);" },
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    minify: true,
    metafile: true,
    logLevel: 'error',
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outDir = join(cliDir, 'dist');
  if (process.argv.includes('--watch')) await (await context({ ...options(outDir), logLevel: 'info' })).watch();
  else await writeFile(join(outDir, BUNDLE_INPUTS), `${JSON.stringify(await bundleCli(outDir), null, 1)}\n`);
}
