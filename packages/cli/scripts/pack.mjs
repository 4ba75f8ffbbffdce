#!/usr/bin/env node
/**
 * `pnpm pack:cli`: one self-contained tarball of the CLI, dist-cli/wolfpack-cli-<version>.tgz,
 * that `npm i -g` installs on any machine with Node 20+ and npm, without this workspace.
 *
 * It holds the bundle the CLI's build makes (scripts/bundle.mjs), made again from the TypeScript
 * sources (no build of the workspace needed first): the client commands, @wolfpack/core's client
 * parts and the CLI's libraries. The package declares no dependencies; the server is left out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle.mjs';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(cliDir, '..', '..');
const outDir = join(rootDir, 'dist-cli');

/** The CLI's own package.json, made into one that needs nothing from the workspace. */
export async function packCli({ quiet = false } = {}) {
  const manifest = JSON.parse(await readFile(join(cliDir, 'package.json'), 'utf8'));
  const stage = await mkdtemp(join(tmpdir(), 'wolfpack-cli-pack-'));
  try {
    await bundleCli(join(stage, 'dist'));

    const packaged = {
      name: manifest.name,
      version: manifest.version,
      description: 'Wolfpack from your terminal and CI: build projects from an idea, publish them to GitHub.',
      type: 'module',
      bin: { wolfpack: './dist/bin.js' },
      files: ['dist'],
      engines: { node: '>=20' },
      license: 'UNLICENSED',
    };
    await writeFile(join(stage, 'package.json'), `${JSON.stringify(packaged, null, 2)}\n`);
    await writeFile(
      join(stage, 'README.md'),
      '# wolfpack\n\nThe Wolfpack CLI. `wolfpack --help` lists the commands; with `WOLFPACK_URL` and `WOLFPACK_TOKEN` set, every command runs without `wolfpack login`.\n',
    );
    await mkdir(outDir, { recursive: true });
    const fileName = `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
    execFileSync(npmCommand(), ['pack', '--pack-destination', stage, '--silent'], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] });
    // Copied beside its place, then renamed into it: a server serving dist-cli never sends half a
    // tarball. Copied, not renamed, out of the temporary folder, which may be another file system
    // (a tmpfs /tmp), where a rename fails with EXDEV.
    const target = join(outDir, fileName);
    await copyFile(join(stage, fileName), `${target}.tmp`);
    await rename(`${target}.tmp`, target);
    if (!quiet) process.stdout.write(`${target}\n`);
    return target;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** npm beside the node running this, else the one on PATH. */
function npmCommand() {
  const beside = join(dirname(process.execPath), 'npm');
  return existsSync(beside) ? beside : 'npm';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await packCli();
}
