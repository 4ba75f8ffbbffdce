#!/usr/bin/env node
/**
 * npm start's build: builds each workspace package (`pnpm run build` in packages/NAME) whose inputs
 * changed since its last successful build, its workspace dependencies first, and nothing else.
 *
 *   node scripts/build-changed.mjs [ROOT]     ROOT: the repository (default: this script's)
 *
 * A package's inputs are its files as git sees them (tracked and untracked, without what
 * .gitignore leaves out, and without tests: *.test.* / *.spec.*), its .env* files (Vite reads
 * them), the root's package.json, lockfile, workspace file and tsconfig.base.json, the Node and
 * pnpm versions, NODE_ENV and VITE_* variables, and its workspace dependencies' inputs. After a
 * successful build, dist/.wolfpack-build-stamp records a hash of them and a list of dist's files
 * with their sizes and times. A package is up to date only when both still match: a changed input
 * rebuilds it, and so does a dist that anything else rewrote (`pnpm build`, a test's own build, a
 * watcher) or that lost a file. The stamp is removed before a build and written only after it
 * succeeded, so an interrupted or failed build leaves none. Without git nothing is stamped and
 * every start builds everything.
 *
 * Prints nothing when everything is up to date, one line naming what it builds otherwise, and a
 * build's output only when it fails (then whole, with what to do; exit code 1).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = '.wolfpack-build-stamp';
/** Bumped when what a stamp means changes, so older stamps no longer count. */
const FORMAT = 1;
const ROOT_INPUTS = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'tsconfig.base.json', '.npmrc'];
/** Tests are no build's input (the build tsconfigs exclude them; Vite starts from index.html). */
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
/** Builds at once: web's Vite build beside the CLI's tsc on a 2-core machine. */
const CONCURRENCY = 2;

const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The workspace's packages with a build script: name, folder, workspace dependencies. */
function readPackages() {
  const dir = join(root, 'packages');
  const packages = [];
  for (const folder of readdirSync(dir).sort()) {
    const file = join(dir, folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (!manifest.scripts?.build) continue;
    const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies };
    const deps = Object.entries(all)
      .filter(([, version]) => String(version).startsWith('workspace:'))
      .map(([name]) => name);
    packages.push({ name: manifest.name ?? folder, folder, dir: join(dir, folder), deps });
  }
  const names = new Set(packages.map((p) => p.name));
  for (const p of packages) p.deps = p.deps.filter((name) => names.has(name)).sort();
  return packages;
}

/** Every file of the workspace's packages git knows of or would add, by package folder; null without git. */
function listFiles() {
  let out;
  try {
    out = execFileSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'packages'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return null;
  }
  const byFolder = new Map();
  for (const path of new Set(out.split('\0'))) {
    const match = /^packages\/([^/]+)\/(.+)$/.exec(path);
    if (!match || TEST_FILE.test(path)) continue;
    const [, folder, rest] = match;
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push(rest);
  }
  return byFolder;
}

function fileHash(path) {
  try {
    return sha256(readFileSync(path));
  } catch {
    return 'missing'; // deleted from the working tree but still in git's index
  }
}

function toolchain() {
  let pnpm;
  try {
    pnpm = execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    pnpm = 'none';
  }
  const env = Object.keys(process.env)
    .filter((name) => name === 'NODE_ENV' || name.startsWith('VITE_'))
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
  return [`format ${FORMAT}`, `node ${process.version}`, `pnpm ${pnpm}`, ...env, ...ROOT_INPUTS.map((name) => `${name} ${fileHash(join(root, name))}`)].join('\n');
}

/** Hash of a package's own inputs and its dependencies' (whose hashes are in `hashes` already). */
function inputsHash(pkg, files, common, hashes) {
  const own = [...files];
  // .env files are ignored by git but read by Vite: they count wherever they are in the package.
  for (const name of readdirSync(pkg.dir)) if (name.startsWith('.env')) own.push(name);
  const lines = [...new Set(own)].sort().map((file) => `${file} ${fileHash(join(pkg.dir, file))}`);
  const deps = pkg.deps.map((name) => `dep ${name} ${hashes.get(name)}`);
  return sha256([common, ...deps, ...lines].join('\n'));
}

/** dist's files (but the stamp) with their sizes and modification times; null when there is no dist. */
function outputs(pkg) {
  const dist = join(pkg.dir, 'dist');
  if (!existsSync(dist)) return null;
  const lines = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path !== join(dist, STAMP)) {
        const stat = statSync(path);
        lines.push(`${relative(dist, path)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dist);
  return sha256(lines.sort().join('\n'));
}

function readStamp(pkg) {
  try {
    return JSON.parse(readFileSync(join(pkg.dir, 'dist', STAMP), 'utf8'));
  } catch {
    return null;
  }
}

function writeStamp(pkg, inputs) {
  const dist = join(pkg.dir, 'dist');
  mkdirSync(dist, { recursive: true });
  const tmp = join(dist, `${STAMP}.${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify({ inputs, outputs: outputs(pkg) })}\n`);
  renameSync(tmp, join(dist, STAMP));
}

/** `pnpm run build` in the package, its output kept; resolves to { code, output }. */
function build(pkg) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn('pnpm', ['run', 'build'], { cwd: pkg.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code, signal) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') + (signal ? `\n(ended by ${signal})\n` : '') }));
  });
}

async function main() {
  const packages = readPackages();
  const files = listFiles();
  const common = toolchain();
  const hashes = new Map();
  const stale = new Set();
  let neverBuilt = true;
  // Dependencies first: a package's hash includes theirs.
  const ordered = [];
  const visit = (pkg, seen = new Set()) => {
    if (ordered.includes(pkg) || seen.has(pkg)) return;
    seen.add(pkg);
    for (const name of pkg.deps) visit(packages.find((p) => p.name === name), seen);
    ordered.push(pkg);
  };
  for (const pkg of packages) visit(pkg);
  for (const pkg of ordered) {
    const stamp = readStamp(pkg);
    if (stamp) neverBuilt = false;
    if (files === null) {
      stale.add(pkg);
      continue;
    }
    const inputs = inputsHash(pkg, files.get(pkg.folder) ?? [], common, hashes);
    hashes.set(pkg.name, inputs);
    if (!stamp || stamp.inputs !== inputs || stamp.outputs !== outputs(pkg)) stale.add(pkg);
  }
  if (stale.size === 0) return 0;

  const names = ordered.filter((p) => stale.has(p)).map((p) => p.folder);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const why = files === null ? 'no git here to tell what changed' : neverBuilt ? 'first build' : 'changed since the last build';
  console.error(`wolfpack: building ${list} (${why})`);

  const done = new Set(ordered.filter((p) => !stale.has(p)).map((p) => p.name));
  const failed = [];
  const running = new Map();
  const waiting = ordered.filter((p) => stale.has(p));
  while (waiting.length > 0 || running.size > 0) {
    if (failed.length === 0) {
      for (const pkg of [...waiting]) {
        if (running.size >= CONCURRENCY) break;
        if (!pkg.deps.every((name) => done.has(name))) continue;
        waiting.splice(waiting.indexOf(pkg), 1);
        // Before its build starts: a build that is cut short must leave no stamp behind.
        rmSync(join(pkg.dir, 'dist', STAMP), { force: true });
        running.set(pkg, build(pkg).then((result) => ({ pkg, result })));
      }
    } else waiting.length = 0;
    if (running.size === 0) break;
    const { pkg, result } = await Promise.race(running.values());
    running.delete(pkg);
    if (result.code === 0) {
      done.add(pkg.name);
      if (files !== null) writeStamp(pkg, hashes.get(pkg.name));
    } else failed.push({ pkg, result });
  }
  for (const { pkg, result } of failed) {
    process.stderr.write(`\n----- pnpm run build in packages/${pkg.folder} (exit code ${result.code}) -----\n${result.output.trimEnd()}\n-----\n`);
    console.error(
      `wolfpack: building packages/${pkg.folder} failed (its output is above), so Wolfpack did not start. ` +
        `Fix what it reports, or run \`pnpm --filter ${pkg.name} build\` to see it again, then run npm start again: ` +
        'packages that built are not built again.',
    );
  }
  if (waiting.length > 0 || failed.length > 0) return 1;
  return 0;
}

process.exitCode = await main();
